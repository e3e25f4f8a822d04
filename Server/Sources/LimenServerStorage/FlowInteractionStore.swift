import Foundation

/// One interaction with a flow (`POST /flows/{flow}` … `/flows/interactions/{id}`): where it stands, the authorization
/// request it will answer, and what it has learnt. Stored by the SHA-256 of its ID only.
public struct FlowInteractionRecord: Sendable, Equatable {
    /// Whether the interaction can go on.
    public enum Status: String, Sendable, Equatable {
        /// Waiting for the next submission.
        case active
        /// Ended with an authorization code: cannot be continued.
        case succeeded
        /// Ended without one (too many attempts): cannot be continued.
        case failed
    }

    /// SHA-256 of the interaction ID.
    public var idHash: Data
    /// The flow it is in (a button may move it to another).
    public var flow: String
    /// The node it is on.
    public var node: String
    /// The client it was started for; nobody else's submission continues it.
    public var clientID: String
    /// The authorization request it answers, as JSON (redirect URI, scope, state, nonce, PKCE challenge, hints).
    public var request: Data
    /// What the interaction has learnt, as JSON (the email entered, the user identified).
    public var context: Data
    /// Refused submissions so far.
    public var attempts: Int
    /// Increases with every change: a change applies only to the revision it was made from.
    public var revision: Int
    /// Active or ended.
    public var status: Status
    /// When it started.
    public var createdAt: Date
    /// When it can no longer be continued.
    public var expiresAt: Date

    /// Creates a record.
    public init(
        idHash: Data, flow: String, node: String, clientID: String, request: Data, context: Data, attempts: Int = 0,
        revision: Int = 0, status: Status = .active, createdAt: Date, expiresAt: Date
    ) {
        self.idHash = idHash
        self.flow = flow
        self.node = node
        self.clientID = clientID
        self.request = request
        self.context = context
        self.attempts = attempts
        self.revision = revision
        self.status = status
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// The flow-interaction part of the ``Store``.
public protocol FlowInteractionStore: Sendable {
    /// Stores a new interaction.
    func insertFlowInteraction(_ interaction: FlowInteractionRecord) async throws(StorageError)
    /// The interaction with this ID hash, expired or not (the caller tells an expired one from an unknown one).
    func flowInteraction(idHash: Data) async throws(StorageError) -> FlowInteractionRecord?
    /// Replaces the interaction with `interaction` (whose revision is one more) if it is still at `interaction`'s
    /// previous revision; returns whether it was replaced, so that of two racing submissions one applies. Its
    /// `attempts` are left as they are: only ``countFlowInteractionAttempt(idHash:maximum:)`` changes them.
    /// `events` are written with the change, in one unit, when it applies (the sign-in a completed interaction ends).
    func updateFlowInteraction(_ interaction: FlowInteractionRecord, recording events: [SecurityEventRecord])
        async throws(StorageError) -> Bool
    /// Counts an attempt on the active interaction, in one statement, unless it already has `maximum`; returns the
    /// new count, or `nil` when none was counted (no attempts left, or the interaction is over).
    func countFlowInteractionAttempt(idHash: Data, maximum: Int) async throws(StorageError) -> Int?
    /// Takes back an attempt counted for a submission that was not refused.
    func refundFlowInteractionAttempt(idHash: Data) async throws(StorageError)
    /// Deletes interactions that expired before `date`; returns how many were removed.
    @discardableResult
    func deleteExpiredFlowInteractions(before date: Date) async throws(StorageError) -> Int
}
