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
    & WebhookStore

/// A store's life: its connections kept while it runs, the schema brought up to date, the start declared over, a
/// liveness check, the connection closed.
///
/// Whoever opens a store runs it for as long as anything uses it: the server's `ServiceGroup` does, and
/// ``running(_:)`` does for a scope.
public protocol StoreLifecycle: Sendable {
    /// Runs what the store keeps running until the task is cancelled or shut down gracefully, or ``close()`` is
    /// called. Both stores have nothing to run and return at once: SQLite's connection is open from the start, and
    /// PostgreSQL's connections open as queries need them.
    func run() async
    /// Applies every schema migration not yet applied; running it again changes nothing.
    func migrate() async throws(StorageError)
    /// Says that the provider's start — migrations, the key set, the seeded clients — is over: until then SQLite waits
    /// longer for another process's write lock (nodes starting together on one file take turns through all of it).
    func startupCompleted() async throws(StorageError)
    /// Checks that the store answers (used by `/healthz`).
    func ping() async throws(StorageError)
    /// Releases the connection (and ends ``run()``); the store is not used afterwards.
    func close() async
}

extension StoreLifecycle {
    /// Runs `body` while ``run()`` keeps the store's connections, and stops them when `body` returns or throws: how a
    /// scope (an administration command, a test) uses a store.
    public func running<Value: Sendable>(_ body: () async throws -> Value) async throws -> Value {
        try await withThrowingTaskGroup(of: Void.self, returning: Value.self) { group in
            group.addTask { await self.run() }
            defer { group.cancelAll() }
            return try await body()
        }
    }
}
