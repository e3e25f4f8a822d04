import Crypto
import Foundation
import Hummingbird
import LimenServerWire
import LimenTestSupport
import LimenWire
import NIOCore

@testable import LimenServer
@testable import LimenServerCore

/// The stand-in issuer as an upstream OpenID provider of the hosted pages: `/authorize` signs in at once the person
/// the test chose (``StandInUpstream/Login``) and redirects back with a code; `/token` redeems it (HTTP Basic with
/// ``clientSecret``, PKCE S256, the redirect URI) for an ID token — tampered with as the test asks.
final class StandInUpstream: Sendable {
    /// Limen's client ID and secret at the stand-in.
    static let clientID = StandInIssuer.audience
    /// Limen's client secret at the stand-in.
    static let clientSecret = "stand-in-secret"

    /// What a hostile or broken provider does to its answer.
    enum Tamper: Sendable {
        /// Nothing: a correct provider.
        case none
        /// The ID token's signature is another payload's.
        case signature
        /// The ID token is for another client.
        case audience
        /// The ID token carries another nonce.
        case nonce
        /// The redirect carries RFC 9207's `iss` naming another issuer.
        case issuerParameter
        /// The person refuses: the redirect carries `error=access_denied` instead of a code.
        case denied
    }

    /// Who signs in at the stand-in's `/authorize`, and how the stand-in misbehaves.
    struct Login: Sendable {
        var subject = "upstream-user-1"
        var email: String?
        var emailVerified = false
        var name: String?
        var tamper = Tamper.none
        /// The ID token's `auth_time`, when the stand-in says when the person signed in.
        var authTime: Date?
    }

    private struct Issued: Sendable {
        let redirectURI: String
        let nonce: String
        let challenge: String
        let login: Login
    }

    private let login = Locked(Login())
    private let codes = Locked([String: Issued]())
    /// How many codes were redeemed.
    let redemptions = Locked(0)
    /// The query of each request to `/authorize`, in order.
    let authorizations = Locked([[String: String]]())

    /// Sets who signs in next, and how.
    func next(_ change: (inout Login) -> Void) {
        login.withLock { change(&$0) }
    }

    /// Adds `/authorize` and `/token` to `router`; `issuer` is the stand-in's issuer once known.
    func add(
        to router: Router<BasicRequestContext>, issuer: @escaping @Sendable () -> String, signer: TokenSigner, now: Date
    ) {
        router.get("/authorize") { request, _ in
            let query = Dictionary(
                FormEncoding.decode(request.uri.query ?? ""), uniquingKeysWith: { first, _ in first })
            self.authorizations.withLock { $0.append(query) }
            guard query["client_id"] == Self.clientID, query["response_type"] == "code",
                query["code_challenge_method"] == "S256", let redirectURI = query["redirect_uri"],
                let state = query["state"], let nonce = query["nonce"], let challenge = query["code_challenge"]
            else { return Response(status: .badRequest) }
            let code = RandomIdentifier.make()
            let login = self.login.withLock { $0 }
            self.codes.withLock {
                $0[code] = Issued(redirectURI: redirectURI, nonce: nonce, challenge: challenge, login: login)
            }
            let iss = login.tamper == .issuerParameter ? "https://evil.example" : issuer()
            let fields = [
                login.tamper == .denied ? ("error", "access_denied") : ("code", code), ("state", state), ("iss", iss),
            ]
            return Response(status: .found, headers: [.location: redirectURI + "?" + FormEncoding.encode(fields)])
        }
        router.post("/token") { request, _ in
            let body = try await request.body.collect(upTo: 65536)
            let form = Dictionary(FormEncoding.decode(String(buffer: body)), uniquingKeysWith: { first, _ in first })
            let basic = "Basic " + Data("\(Self.clientID):\(Self.clientSecret)".utf8).base64EncodedString()
            guard request.headers[.authorization] == basic else {
                return Responses.jsonError("invalid_client", description: "", status: .unauthorized)
            }
            guard form["grant_type"] == "authorization_code", let code = form["code"],
                let issued = self.codes.withLock({ $0.removeValue(forKey: code) }),
                form["redirect_uri"] == issued.redirectURI, let verifier = form["code_verifier"],
                PKCE(verifier: verifier)?.challenge == issued.challenge
            else { return Responses.jsonError("invalid_grant", description: "", status: .badRequest) }
            self.redemptions.withLock { $0 += 1 }
            let idToken = try await Self.idToken(issued, issuer: issuer(), signer: signer, now: now)
            return Responses.json(
                .object([
                    "access_token": .string(RandomIdentifier.make()), "token_type": .string("Bearer"),
                    "expires_in": .number(300), "id_token": .string(idToken),
                ]))
        }
    }

    private static func idToken(_ issued: Issued, issuer: String, signer: TokenSigner, now: Date) async throws
        -> String
    {
        let login = issued.login
        var claims: [String: JSONValue] = [
            "iss": .string(issuer), "sub": .string(login.subject),
            "aud": .string(login.tamper == .audience ? "another-client" : clientID),
            "nonce": .string(login.tamper == .nonce ? "another-nonce" : issued.nonce),
            "iat": .number(now.timeIntervalSince1970.rounded(.down)),
            "exp": .number(now.addingTimeInterval(300).timeIntervalSince1970.rounded(.down)),
        ]
        if let email = login.email {
            claims["email"] = .string(email)
            claims["email_verified"] = .bool(login.emailVerified)
        }
        if let name = login.name { claims["name"] = .string(name) }
        if let authTime = login.authTime {
            claims["auth_time"] = .number(authTime.timeIntervalSince1970.rounded(.down))
        }
        let token = try await signer.sign(claims, algorithm: .es256, at: now)
        guard login.tamper == .signature else { return token }
        claims["sub"] = .string("someone-else")
        let other = try await signer.sign(claims, algorithm: .es256, at: now)
        let parts = token.split(separator: ".")
        return "\(parts[0]).\(parts[1]).\(other.split(separator: ".")[2])"
    }
}

extension StandInIssuer {
    /// The `identity_providers` entry offering this stand-in as upstream provider `standin` ("Stand-in ID").
    func upstreamEntry(linkByVerifiedEmail: Bool = false) -> IdentityProvider {
        IdentityProvider(
            id: "standin", displayName: "Stand-in ID", issuer: issuer, clientID: StandInUpstream.clientID,
            clientSecret: StandInUpstream.clientSecret, linkByVerifiedEmail: linkByVerifiedEmail)
    }
}
