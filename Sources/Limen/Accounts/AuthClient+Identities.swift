import Foundation
import LimenOIDC

extension AuthClient {
    /// The ways the signed-in user signs in (`GET /v1/me/identities`), oldest first; a guest has none.
    ///
    /// ```swift
    /// let kinds = try await client.identities().map(\.kind)  // [.password]
    /// ```
    /// - Throws: ``LimenError/notSignedIn`` without a session, ``LimenError/account(_:)`` for an unexpected answer,
    ///   the network's and the session's ``LimenError``s otherwise.
    public func identities() async throws(LimenError) -> [Identity] {
        let response = try await accountRequest("GET", profileURL("v1/me/identities"))
        guard let document = try? JSONValue(parsing: response.body),
            case .array(let members)? = document.objectValue?["identities"]
        else { throw .account(.malformedResponse("the identities are not a JSON list")) }
        do throws(AccountError) {
            return try members.map { member throws(AccountError) in try Identity(document: member) }
        } catch {
            throw .account(error)
        }
    }

    /// Unlinks the signed-in user's identities of `kind` (`DELETE /v1/me/identities/{kind}`): `.password` removes the
    /// password, `.email` the address (and the password that signs in with it). The last way to sign in is never
    /// removed.
    /// - Throws: ``LimenError/account(_:)`` with ``AccountError/lastIdentity`` or ``AccountError/notLinked``,
    ///   ``LimenError/notSignedIn`` without a session.
    public func unlink(_ kind: IdentityKind) async throws(LimenError) {
        _ = try await accountRequest(
            "DELETE", profileURL("v1/me/identities").appendingPathComponent(kind.rawValue))
    }

    /// Deletes the signed-in user's account at the provider (`DELETE /v1/me`: every grant, token, profile and
    /// identity; App Store guideline 5.1.1(v)), then signs out on the device: the session and the cached profile are
    /// cleared, and the field-encryption key as ``Configuration/encryptionKeyOnSignOut`` says.
    ///
    /// The provider asks for a recent sign-in first (Limen Server: within `account_deletion_max_age`, 5 minutes by
    /// default; guests need none): an older one is ``AccountError/reauthenticationRequired(maxAge:)`` and nothing is
    /// deleted — sign in again, then call this again.
    ///
    /// ```swift
    /// do {
    ///     try await client.deleteAccount()
    /// } catch .account(.reauthenticationRequired) {
    ///     try await client.login(email: email, password: askPassword(), allowMigration: nil)
    ///     try await client.deleteAccount()
    /// }
    /// ```
    /// - Throws: ``LimenError/account(_:)`` with ``AccountError/reauthenticationRequired(maxAge:)``,
    ///   ``LimenError/notSignedIn`` without a session, the network's ``LimenError``s (the session is kept).
    public func deleteAccount() async throws(LimenError) {
        _ = try await accountRequest("DELETE", profileURL("v1/me"))
        logger.notice("account deleted at the provider; signing out")
        _ = await signOutSession(revoke: false)
    }

    /// Sends `method` to the account route `url` with the access token; a `2xx` answer is returned, anything else
    /// thrown in the account domain (`401 invalid_token` twice: ``LimenError/sessionExpired``).
    private func accountRequest(_ method: String, _ url: URL) async throws(LimenError) -> HTTPResponse {
        let response = try await authorizedRequest(
            HTTPRequest(method: method, url: url, headers: ["Accept": "application/json"]))
        if (200..<300).contains(response.status) { return response }
        let challenge = BearerChallenge(response.header("WWW-Authenticate"))
        if response.status == 401, challenge?.error == "invalid_token" { throw .sessionExpired }
        throw .account(AccountError(response: response, challenge: challenge))
    }
}
