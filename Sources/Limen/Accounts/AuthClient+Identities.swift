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
        let response = try await accountRequest("GET", profiles.url("v1/me/identities"))
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
    ///
    /// An account change: the provider asks for a recent sign-in (``deleteAccount(reauthenticating:)`` says how);
    /// with `reauthentication` the SDK signs in again that way and retries once.
    /// - Returns: Every kind that went (Limen Server names them; `[kind]` when the provider does not).
    /// - Throws: ``LimenError/account(_:)`` with ``AccountError/lastIdentity``, ``AccountError/notLinked``,
    ///   ``AccountError/reauthenticationRequired(maxAge:)`` (without `reauthentication`) or
    ///   ``AccountError/changeNotAllowed(code:)``, ``LimenError/notSignedIn`` without a session.
    @discardableResult
    public func unlink(_ kind: IdentityKind, reauthenticating reauthentication: Reauthentication? = nil)
        async throws(LimenError) -> [IdentityKind]
    {
        let response = try await changingAccount(reauthenticating: reauthentication) { () throws(LimenError) in
            try await accountRequest("DELETE", profiles.url("v1/me/identities").appendingPathComponent(kind.rawValue))
        }
        guard case .array(let removed)? = (try? JSONValue(parsing: response.body))?.objectValue?["removed"] else {
            return [kind]
        }
        return removed.compactMap(\.stringValue).map(IdentityKind.init(rawValue:))
    }

    /// Deletes the signed-in user's account at the provider (`DELETE /v1/me`: every grant, token, profile and
    /// identity; App Store guideline 5.1.1(v)), then signs out on the device: the session and the cached profile are
    /// cleared, and the field-encryption key as ``Configuration/encryptionKeyOnSignOut`` says.
    ///
    /// An account change: the provider asks for a recent sign-in (Limen Server: within `account_change_max_age`, 5
    /// minutes by default; guests need none). With `reauthentication` the SDK answers that step-up challenge itself:
    /// the person signs in again that way (the same person, or nothing is deleted), and the deletion is tried once
    /// more. Without it, the challenge is thrown as ``AccountError/reauthenticationRequired(maxAge:)`` and nothing is
    /// deleted.
    ///
    /// ```swift
    /// try await client.deleteAccount(reauthenticating: .browser(webSession))
    /// ```
    /// - Throws: ``LimenError/account(_:)`` with ``AccountError/reauthenticationRequired(maxAge:)``,
    ///   ``AccountError/reauthenticatedAsAnotherUser`` or ``AccountError/changeNotAllowed(code:)`` (a third-party
    ///   app's token), ``LimenError/notSignedIn`` without a session, the network's ``LimenError``s (the session is
    ///   kept).
    public func deleteAccount(reauthenticating reauthentication: Reauthentication? = nil) async throws(LimenError) {
        _ = try await changingAccount(reauthenticating: reauthentication) { () throws(LimenError) in
            try await accountRequest("DELETE", profiles.url("v1/me"))
        }
        logger.notice("account deleted at the provider; signing out")
        _ = await signOutSession(revoke: false)
    }
}
