import Foundation

/// What users allowed third-party clients to have, remembered so that the consent page is shown once per scope.
public protocol ConsentStore: Sendable {
    /// The scopes `subject` has granted to the client.
    func grantedScopes(subject: String, clientID: String) async throws(StorageError) -> Set<String>
    /// Remembers that `subject` granted `scopes` to the client (adding to what was granted before).
    func recordConsent(subject: String, clientID: String, scopes: Set<String>, at date: Date) async throws(StorageError)
}

extension ConsentStore {
    /// Whether `subject` may be spared the question before `client` gets `scopes`: the client is first-party, or every
    /// scope was allowed before. The one rule of the consent page (``AuthorizationFlow``) and of `require_consent`
    /// (``FlowConsentStep``).
    package func hasConsent(
        of subject: String,
        for client: ClientRecord,
        scopes: some Sequence<String>
    ) async throws(StorageError) -> Bool {
        if client.isFirstParty { return true }
        return Set(scopes).isSubset(of: try await grantedScopes(subject: subject, clientID: client.id))
    }
}
