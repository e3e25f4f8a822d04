import Foundation
import LimenServerStorage

extension PendingAuthorization {
    /// A pending sign-in again of the person signed in with `session` (whose address is `email`), made for the hosted
    /// account page (`client`, ``SeedClients/account(now:)``) when the session's sign-in is too old for a change: it
    /// runs the hosted sign-in pages in the browser whose ``BrowserState/requestBinding`` is `browserBinding` (the
    /// address filled in, a fresh sign-in required), and ends not with a code but back at `returnTo`, a path under
    /// `/account` (``reauthenticationReturnPath(_:)``), with the session renewed, when the same person signed in.
    package init(
        reauthenticating session: BrowserSessionRecord, email: String?, returnTo: String, client: ClientRecord,
        browserBinding: Data, now: Date
    ) {
        let id = RandomIdentifier.make()
        self.init(
            id: id,
            record: PendingAuthorizationRecord(
                idHash: RandomIdentifier.hash(id), clientID: client.id, redirectURI: returnTo, scope: "openid",
                prompt: AuthorizationValidator.Prompt.login.rawValue, maxAge: 0, loginHint: email,
                hintedSubject: session.subject, browserBinding: browserBinding, createdAt: now,
                expiresAt: now.addingTimeInterval(Self.lifetime)),
            client: client)
    }

    /// Whether this is a sign-in again for the hosted account page rather than an authorization request.
    package var isReauthentication: Bool { client.id == SeedClients.accountClientID }

    /// `text` when it is a path the account page may be returned to: `/account`, or a path below it, with an optional
    /// query of plain characters; `nil` for anything else (another site, another page, a scheme, `//`, `..`, a
    /// backslash, an escape, a fragment), so a sign-in again is never an open redirect.
    package static func reauthenticationReturnPath(_ text: String) -> String? {
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let below = parts[0].hasPrefix("/account/") ? parts[0].dropFirst("/account/".count) : nil
        guard text.count <= 256,
            parts[0] == "/account"
                || below?.split(separator: "/", omittingEmptySubsequences: false).allSatisfy({
                    !$0.isEmpty && $0.allSatisfy(isPathCharacter)
                }) == true,
            parts.dropFirst().allSatisfy({ $0.allSatisfy { isPathCharacter($0) || $0 == "=" || $0 == "&" } })
        else { return nil }
        return text
    }

    /// A letter, a digit, `-` or `_` (ASCII).
    private static func isPathCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }
}
