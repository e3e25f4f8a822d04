import Foundation
import LimenServerStorage
import Logging
import ServiceLifecycle

/// Deletes expired rows (authorization codes, grants, refresh tokens, access-token revocations, forgotten sign-in
/// failures, pending authorization requests, browser sessions, device authorizations, undelivered mail, spent email-code
/// budgets, exchanged subject tokens, used challenges, security events older than the `audit_retention`) and
/// anonymous users unused for ``TokenLifetimes/anonymousUser`` at start and then every ``interval``, until the service
/// group shuts down.
public struct ExpirySweeper: Service {
    /// The tables it sweeps.
    public typealias SweptStore = GrantStore & RefreshTokenStore & SignInThrottleStore & PendingAuthorizationStore
        & BrowserSessionStore & DeviceAuthorizationStore & MailOutboxStore & EmailCodeStore & EmailCodeBudgetStore
        & ExchangedTokenStore & FlowInteractionStore & IdentityStore & SecurityEventStore & UsedChallengeStore

    /// The time between two sweeps.
    public let interval: Duration
    private let store: any SweptStore
    private let forgetFailuresAfter: TimeInterval
    private let keepAnonymousUsersFor: TimeInterval
    private let keepSecurityEventsFor: TimeInterval
    private let clock: any Clock<Duration>
    private let now: @Sendable () -> Date
    private let logger: Logger

    /// Creates a sweeper; time is injected so tests need not wait.
    public init(
        store: any SweptStore,
        interval: Duration = .seconds(60),
        forgetFailuresAfter: TimeInterval = SignInLockout().memory,
        keepAnonymousUsersFor: TimeInterval = TokenLifetimes().anonymousUser,
        keepSecurityEventsFor: TimeInterval = ServerSetting.defaultAuditRetention,
        clock: any Clock<Duration> = ContinuousClock(),
        now: @escaping @Sendable () -> Date = Date.init,
        logger: Logger = Logger(label: "limen.sweeper")
    ) {
        self.store = store
        self.interval = interval
        self.forgetFailuresAfter = forgetFailuresAfter
        self.keepAnonymousUsersFor = keepAnonymousUsersFor
        self.keepSecurityEventsFor = keepSecurityEventsFor
        self.clock = clock
        self.now = now
        self.logger = logger
    }

    public func run() async throws {
        await PeriodicTask.run(every: interval, on: clock, immediately: true) { await sweepOnce() }
    }

    /// One sweep; returns how many rows were removed. A failing store is logged and retried next time.
    @discardableResult
    public func sweepOnce() async -> Int {
        let now = now()
        let sweeps: [(table: String, sweep: @Sendable () async throws(StorageError) -> Int)] = [
            (
                "authorization codes",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredAuthorizationCodes(before: now)
                }
            ),
            (
                "refresh tokens",
                { [store] () throws(StorageError) in try await store.deleteExpiredRefreshTokens(before: now) }
            ),
            ("grants", { [store] () throws(StorageError) in try await store.deleteExpiredGrants(before: now) }),
            (
                "access token revocations",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredAccessTokenRevocations(before: now)
                }
            ),
            (
                "failed sign-ins",
                { [store, forgetFailuresAfter] () throws(StorageError) in
                    try await store.deleteSignInFailures(before: now.addingTimeInterval(-forgetFailuresAfter))
                }
            ),
            (
                "pending authorization requests",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredPendingAuthorizations(before: now)
                }
            ),
            (
                "device authorizations",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredDeviceAuthorizations(before: now)
                }
            ),
            (
                "flow interactions",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredFlowInteractions(before: now)
                }
            ),
            (
                "email codes",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredEmailCodes(before: now)
                }
            ),
            (
                "email code budgets",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredEmailCodeBudgets(before: now)
                }
            ),
            (
                "mail outbox",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredOutboxMail(before: now)
                }
            ),
            (
                "exchanged subject tokens",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredExchangedTokens(before: now)
                }
            ),
            (
                "used challenges",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredUsedChallenges(before: now)
                }
            ),
            (
                "anonymous users",
                { [store, keepAnonymousUsersFor] () throws(StorageError) in
                    try await store.deleteAnonymousUsers(inactiveSince: now.addingTimeInterval(-keepAnonymousUsersFor))
                }
            ),
            (
                "security events",
                { [store, keepSecurityEventsFor] () throws(StorageError) in
                    try await store.deleteSecurityEvents(before: now.addingTimeInterval(-keepSecurityEventsFor))
                }
            ),
            (
                "browser sessions",
                { [store] () throws(StorageError) in
                    try await store.deleteExpiredBrowserSessions(before: now)
                }
            ),
        ]
        var total = 0
        for (table, sweep) in sweeps {
            do {
                let removed = try await sweep()
                if removed > 0 {
                    logger.debug("Swept expired rows", metadata: ["table": "\(table)", "count": "\(removed)"])
                }
                total += removed
            } catch {
                logger.warning("Expiry sweep failed", metadata: ["table": "\(table)", "error": "\(error.code)"])
            }
        }
        return total
    }
}
