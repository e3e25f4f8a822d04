import Foundation

/// Device authorizations (RFC 8628): started at `/device_authorization`, decided on the `/device` pages, polled and
/// finally redeemed at `/token`. The store sees the device code and the user code only as SHA-256 hashes.
public protocol DeviceAuthorizationStore: Sendable {
    /// Stores a new device authorization; returns `false` (storing nothing) when its user code hash is taken, so the
    /// caller draws another user code.
    func insertDeviceAuthorization(_ authorization: DeviceAuthorizationRecord) async throws(StorageError) -> Bool
    /// The authorization whose device code has this hash, whatever its status or expiry (the token endpoint tells an
    /// expired code from an unknown one).
    func deviceAuthorization(deviceCodeHash: Data) async throws(StorageError) -> DeviceAuthorizationRecord?
    /// The authorization whose user code has this hash, if it is still waiting for the user and unexpired at `now`.
    func pendingDeviceAuthorization(userCodeHash: Data, now: Date) async throws(StorageError)
        -> DeviceAuthorizationRecord?
    /// Records the user's decision if the authorization is still pending and unexpired at `now`; returns whether it
    /// was recorded (of two racing decisions, one is).
    func decideDeviceAuthorization(
        deviceCodeHash: Data,
        decision: DeviceAuthorizationDecision,
        now: Date
    ) async throws(StorageError) -> Bool
    /// Stores a poll's outcome (status, interval, time of the poll) if the row still holds what `previous` read;
    /// returns whether it did. This compare-and-swap makes an approved code redeemable once and makes the slower of
    /// two concurrent polls lose.
    func recordDevicePoll(
        replacing previous: DeviceAuthorizationRecord,
        with next: DeviceAuthorizationRecord
    ) async throws(StorageError) -> Bool
    /// Deletes authorizations that expired before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredDeviceAuthorizations(before date: Date) async throws(StorageError) -> Int
}

/// Where a device authorization stands.
public enum DeviceAuthorizationStatus: String, Sendable, Equatable {
    /// Waiting for the user to enter the code and decide.
    case pending
    /// The user allowed it; the next poll in time redeems it.
    case approved
    /// The user denied it.
    case denied
    /// Its tokens were issued: the device code is spent.
    case consumed
}

/// The user's answer on the confirmation page.
public enum DeviceAuthorizationDecision: Sendable, Equatable {
    /// Allowed by `subject`, who authenticated at `authTime` by `methods`.
    case approve(subject: String, authTime: Date, methods: AuthenticationMethods = .init())
    /// Denied.
    case deny
}

/// A device authorization request (RFC 8628 §3.1–§3.2) and its progress.
public struct DeviceAuthorizationRecord: Sendable, Equatable {
    /// SHA-256 of the device code.
    public var deviceCodeHash: Data
    /// SHA-256 of the normalised user code (see ``UserCode``).
    public var userCodeHash: Data
    /// The client that asked.
    public var clientID: String
    /// The requested scopes, space-separated, each known to the server.
    public var scope: String
    /// Where it stands.
    public var status: DeviceAuthorizationStatus
    /// The user who decided, once approved.
    public var subject: String?
    /// When that user authenticated.
    public var authTime: Date?
    /// How that user authenticated.
    public var methods: AuthenticationMethods
    /// The minimum seconds between two polls; grows by 5 with each `slow_down`.
    public var interval: Int
    /// When the client last polled.
    public var lastPolledAt: Date?
    /// When the authorization was requested.
    public var createdAt: Date
    /// When the codes stop being accepted.
    public var expiresAt: Date

    /// Creates a record.
    public init(
        deviceCodeHash: Data,
        userCodeHash: Data,
        clientID: String,
        scope: String,
        status: DeviceAuthorizationStatus = .pending,
        subject: String? = nil,
        authTime: Date? = nil,
        interval: Int,
        lastPolledAt: Date? = nil,
        createdAt: Date,
        expiresAt: Date,
        methods: AuthenticationMethods = .init()
    ) {
        self.deviceCodeHash = deviceCodeHash
        self.userCodeHash = userCodeHash
        self.clientID = clientID
        self.scope = scope
        self.status = status
        self.subject = subject
        self.authTime = authTime
        self.interval = interval
        self.lastPolledAt = lastPolledAt
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.methods = methods
    }
}
