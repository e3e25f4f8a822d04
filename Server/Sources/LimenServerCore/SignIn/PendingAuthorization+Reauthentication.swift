import Foundation
import LimenServerStorage

extension PendingAuthorization {
    /// A pending sign-in again of the person signed in with `session` (whose address is `email`), made for the hosted
    /// account page (`client`, ``SeedClients/account(now:)``) when the session's sign-in is too old for a change: it
    /// runs the hosted sign-in pages in the browser whose ``BrowserState/requestBinding`` is `browserBinding` (the
    /// address filled in, a fresh sign-in required), and ends not with a code but back at `returnTo`, a path under
    /// `/account` or `/admin/console` (``reauthenticationReturnPath(_:)``), with the session renewed, when the same
    /// person signed in. Without a `session` (the admin console's first sign-in) anyone may sign in, into a new session.
    package init(
        reauthenticating session: BrowserSessionRecord?, email: String?, returnTo: String, client: ClientRecord,
        browserBinding: Data, now: Date
    ) {
        let id = RandomIdentifier.make()
        self.init(
            id: id,
            record: PendingAuthorizationRecord(
                idHash: RandomIdentifier.hash(id), clientID: client.id, redirectURI: returnTo, scope: "openid",
                prompt: AuthorizationValidator.Prompt.login.rawValue, maxAge: 0, loginHint: email,
                hintedSubject: session?.subject, browserBinding: browserBinding, createdAt: now,
                expiresAt: now.addingTimeInterval(Self.lifetime)),
            client: client)
    }

    /// Whether this is a sign-in again for the hosted account page rather than an authorization request.
    package var isReauthentication: Bool { client.id == SeedClients.accountClientID }

    /// The pages a sign-in again may return to: the account page and the admin console, each with the paths below it.
    package static let reauthenticationReturnRoots = ["/account", "/admin/console"]

    /// `text` when it is a path a sign-in again may return to: one of ``reauthenticationReturnRoots``, or a path below
    /// it, with an optional query of plain characters; `nil` for anything else (another site, another page, a scheme,
    /// `//`, `..`, a backslash, an escape, a fragment), so a sign-in again is never an open redirect.
    package static func reauthenticationReturnPath(_ text: String) -> String? {
        let parts = text.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard text.count <= 256,
            let root = reauthenticationReturnRoots.first(where: { parts[0] == $0 || parts[0].hasPrefix($0 + "/") })
        else { return nil }
        // Empty for the root itself, otherwise `/` and the segments below it.
        let below = parts[0].dropFirst(root.count)
        guard
            below.isEmpty
                || below.dropFirst().split(separator: "/", omittingEmptySubsequences: false).allSatisfy({
                    !$0.isEmpty && $0.allSatisfy(isPathCharacter)
                }),
            parts.dropFirst().allSatisfy({ $0.allSatisfy { isPathCharacter($0) || $0 == "=" || $0 == "&" } })
        else { return nil }
        return text
    }

    /// A letter, a digit, `-` or `_` (ASCII).
    private static func isPathCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "-" || character == "_")
    }
}
