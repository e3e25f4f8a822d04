import Foundation
import LimenOIDC
import LimenWire

/// Why a call to Apple's token or revocation endpoint did not succeed. Never carries a token, code or secret.
package enum AppleTeamError: Error, Sendable, Equatable {
    /// The client secret could not be signed.
    case secretUnsigned
    /// Apple could not be reached.
    case unreachable
    /// Apple answered with an error: its status and OAuth `error` code, when it gave one.
    case refused(status: Int, error: String?)
    /// Apple's answer to a redemption held no refresh token.
    case noRefreshToken
    /// Apple's answer to a redemption held no ID token naming the client and a subject.
    case noIDToken
    /// The code was given to another Apple ID than the identity token's (the redeemed ID token's `sub` differs).
    case subjectMismatch

    /// A stable code for the log.
    package var code: String {
        switch self {
        case .secretUnsigned: "apple.secret_unsigned"
        case .unreachable: "apple.unreachable"
        case .refused(let status, let error): "apple.refused.\(status).\(error ?? "none")"
        case .noRefreshToken: "apple.no_refresh_token"
        case .noIDToken: "apple.no_id_token"
        case .subjectMismatch: "apple.subject_mismatch"
        }
    }
}

/// Limen as a client of Apple's REST API with the team's key: redeems the authorization code an app got with its
/// identity token (`POST {base_url}/auth/token`), and revokes the refresh token it gave (`POST {base_url}/auth/revoke`),
/// authenticating each time with a fresh ``AppleClientSecret``.
package struct AppleTeamClient: Sendable {
    /// Apple's base URL: the token and revocation endpoints, and the client secret's audience.
    let baseURL: String
    /// The client secret's signer.
    package let secret: AppleClientSecret
    package let transport: any HTTPTransport
    package let now: @Sendable () -> Date

    /// The client for `apple`, or `nil` when it has no team key (or its key file cannot be read any more).
    package init?(apple: AppleSignIn, transport: any HTTPTransport, now: @escaping @Sendable () -> Date) {
        guard let teamKey = apple.teamKey, let privateKey = AppleClientSecret.privateKey(of: teamKey) else {
            return nil
        }
        baseURL = apple.baseURL
        secret = AppleClientSecret(teamKey: teamKey, privateKey: privateKey)
        self.transport = transport
        self.now = now
    }

    /// What Apple gives for an authorization code: its refresh token, for which client, and whom it is for.
    package struct Redemption: Sendable, Equatable {
        /// Apple's refresh token.
        package let refreshToken: String
        /// The bundle ID the code was given to.
        package let clientID: String
        /// The `sub` of the ID token Apple answered with: the Apple ID the code belongs to.
        package let subject: String
    }

    /// Redeems the authorization `code` an app of `clientID` (a bundle ID) received. The ID token of Apple's answer
    /// comes straight from Apple's token endpoint over TLS, which stands for its signature (OpenID Connect Core
    /// §3.1.3.7); its `aud` must name `clientID`, and its `sub` says whose code it was.
    package func redeem(code: String, clientID: String) async throws(AppleTeamError) -> Redemption {
        let answer = try await post(
            "/auth/token", clientID: clientID, [("code", code), ("grant_type", "authorization_code")])
        guard let refreshToken = answer["refresh_token"]?.stringValue, !refreshToken.isEmpty else {
            throw .noRefreshToken
        }
        guard let idToken = answer["id_token"]?.stringValue, let claims = try? UnverifiedJWT(idToken),
            claims.audience.contains(clientID), let subject = claims.subject, !subject.isEmpty
        else { throw .noIDToken }
        return Redemption(refreshToken: refreshToken, clientID: clientID, subject: subject)
    }

    /// Revokes Apple's `refreshToken`, which was given to `clientID`.
    package func revoke(refreshToken: String, clientID: String) async throws(AppleTeamError) {
        _ = try await post(
            "/auth/revoke", clientID: clientID, [("token", refreshToken), ("token_type_hint", "refresh_token")])
    }

    /// POSTs `form` with the client's credentials to `path`; the JSON object Apple answered with (empty when none).
    private func post(_ path: String, clientID: String, _ form: [(String, String)]) async throws(AppleTeamError)
        -> [String: JSONValue]
    {
        guard let url = URL(string: baseURL + path) else { throw .unreachable }
        let clientSecret: String
        do {
            clientSecret = try await secret.make(clientID: clientID, audience: baseURL, at: now())
        } catch {
            throw .secretUnsigned
        }
        let fields = [("client_id", clientID), ("client_secret", clientSecret)] + form
        let response: HTTPResponse
        do {
            response = try await transport.send(.form(url: url, fields))
        } catch {
            throw .unreachable
        }
        let body = (try? JSONValue(parsing: response.body))?.objectValue ?? [:]
        guard (200..<300).contains(response.status) else {
            throw .refused(status: response.status, error: body["error"]?.stringValue)
        }
        return body
    }
}
