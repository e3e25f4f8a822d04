import Foundation
import LimenServerStorage

/// An accepted authorization request on its way through the pages: the stored record, the client it names, and the
/// random identifier the pages carry (never stored; the store keys the record by its hash).
package struct PendingAuthorization: Sendable {
    /// How long the user has to sign in and consent.
    package static let lifetime: TimeInterval = 600

    /// The identifier in the pages' URLs and forms.
    package let id: String
    /// The request as stored.
    package let record: PendingAuthorizationRecord
    /// The requesting client.
    package let client: ClientRecord

    /// A new pending request for an accepted `/authorize` call, bound to the browser whose ``BrowserState/requestBinding``
    /// is `browserBinding` (or to whatever else continues it); `hintedSubject` is the subject of the verified
    /// `id_token_hint`. It may be completed for `lifetime` seconds.
    package init(
        accepted: AuthorizationValidator.Accepted, hintedSubject: String?, browserBinding: Data, now: Date,
        lifetime: TimeInterval = lifetime
    ) {
        let id = RandomIdentifier.make()
        let prompt = AuthorizationValidator.Prompt.allCases.filter(accepted.prompt.contains).map(\.rawValue)
        self.id = id
        self.client = accepted.client
        self.record = PendingAuthorizationRecord(
            idHash: RandomIdentifier.hash(id),
            clientID: accepted.client.id,
            redirectURI: accepted.redirectURI,
            scope: accepted.scope,
            state: accepted.state,
            nonce: accepted.nonce,
            codeChallenge: accepted.codeChallenge,
            prompt: prompt.isEmpty ? nil : prompt.joined(separator: " "),
            maxAge: accepted.maxAge,
            loginHint: accepted.loginHint,
            hintedSubject: hintedSubject,
            uiLocales: accepted.uiLocales,
            browserBinding: browserBinding,
            createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime),
            acrValues: accepted.acrValues,
            proofKey: accepted.dpopJKT
        )
    }

    /// A stored pending request found again by its identifier.
    package init(id: String, record: PendingAuthorizationRecord, client: ClientRecord) {
        self.id = id
        self.record = record
        self.client = client
    }

    /// The `prompt` values.
    package var prompt: Set<AuthorizationValidator.Prompt> {
        Set(
            (record.prompt ?? "").split(separator: " ").compactMap {
                AuthorizationValidator.Prompt(rawValue: String($0))
            })
    }

    /// Whether `session` is the one that signed in for this request (so a forced sign-in is done), as recorded by
    /// ``PendingAuthorizationStore/recordPendingAuthorizationSignIn(idHash:sessionHash:now:)``.
    package func wasSignedIn(by session: BrowserSessionRecord) -> Bool {
        record.signInSessionHash == session.idHash
    }

    /// Whether this request was started by the browser whose binding is `browserBinding` (compared in constant time).
    /// A request stored without a binding continues nowhere.
    package func isBound(to browserBinding: Data) -> Bool {
        guard let stored = record.browserBinding, stored.count == browserBinding.count else { return false }
        return zip(stored, browserBinding).reduce(UInt8(0)) { $0 | ($1.0 ^ $1.1) } == 0
    }

    /// The level the sign-in must reach: the `acr_values`' or the client's (``AuthenticationLevel/required(acrValues:client:)``).
    package var requiredLevel: AuthenticationLevel? {
        AuthenticationLevel.required(acrValues: record.acrValues, client: client)
    }

    /// The requested scopes.
    package var scopes: [String] {
        record.scope.split(separator: " ").map(String.init)
    }

    /// Loads the pending request named by `id` if it is known, unexpired and its client still registered.
    package static func load(id: String?, store: any PendingAuthorizationStore & ClientStore, now: Date)
        async throws(StorageError) -> PendingAuthorization?
    {
        guard let id, !id.isEmpty,
            let record = try await store.pendingAuthorization(idHash: RandomIdentifier.hash(id), now: now),
            let client = try await store.client(id: record.clientID)
        else { return nil }
        return PendingAuthorization(id: id, record: record, client: client)
    }
}
