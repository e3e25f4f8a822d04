import Foundation

/// What users allowed third-party clients to have, remembered so that the consent page is shown once per scope.
public protocol ConsentStore: Sendable {
    /// The scopes `subject` has granted to the client.
    func grantedScopes(subject: String, clientID: String) async throws(StorageError) -> Set<String>
    /// Remembers that `subject` granted `scopes` to the client (adding to what was granted before).
    func recordConsent(subject: String, clientID: String, scopes: Set<String>, at date: Date) async throws(StorageError)
}
