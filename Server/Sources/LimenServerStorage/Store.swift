import Foundation

/// The server's persistence seam: every table the provider needs, behind one small async protocol per aggregate.
///
/// Implementations: ``SQLiteStore`` (embedded default, one file). Secrets never reach a store in clear:
/// client secrets, authorization codes and refresh tokens arrive as SHA-256 hashes, signing keys as AES-GCM
/// ciphertext.
///
/// Each service is given only the role protocols it uses (``UserStore``, ``GrantStore``, …); the whole store is for
/// the composition root, which opens it, builds the services and closes it at the end.
public typealias Store = StoreLifecycle & ClientStore & SigningKeyStore & UserStore & SignInThrottleStore
    & PendingAuthorizationStore & BrowserSessionStore & ConsentStore & GrantStore & RefreshTokenStore
    & DeviceAuthorizationStore & AdministrationStore & FirstRunStore & ProfileStore & AccessTokenStateStore
    & FlowInteractionStore & EmailCodeStore & IdentityStore & AppleAccountStore & MailOutboxStore & EmailCodeBudgetStore
    & ExchangedTokenStore & RateCountStore & PasskeyStore & SecondFactorStore & SecurityEventStore & UsedChallengeStore
    & WebhookStore & UserRoleStore & UserDisablementStore & UserSessionStore

/// A store's life: the schema brought up to date, the start declared over, a liveness check, the connections closed.
///
/// A store needs nothing running beside it (SQLite's connection is open from the start, PostgreSQL's connections open
/// as queries need them): whoever opens one closes it once nothing uses it, as the server's `StoreService` does when
/// the server stops.
public protocol StoreLifecycle: Sendable {
    /// Applies every schema migration not yet applied; running it again changes nothing.
    func migrate() async throws(StorageError)
    /// Says that the provider's start — migrations, the key set, the seeded clients — is over: until then SQLite waits
    /// longer for another process's write lock (nodes starting together on one file take turns through all of it).
    func startupCompleted() async throws(StorageError)
    /// Checks that the store answers (used by `/healthz`).
    func ping() async throws(StorageError)
    /// Releases the connections; the store is not used afterwards.
    func close() async
}
