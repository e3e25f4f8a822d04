/// The type of a security event: a stable string such as `user.signed_in`, one of the constants here (an unknown string
/// is no type: ``init(rawValue:)`` refuses it).
public struct SecurityEventType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The stable string.
    public let rawValue: String

    /// The known type spelled `rawValue`, or `nil`.
    public init?(rawValue: String) {
        guard Self.all.contains(where: { $0.rawValue == rawValue }) else { return nil }
        self.rawValue = rawValue
    }

    private init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// An account was created.
    public static let userCreated = Self("user.created")
    /// A user signed in (details: `method`).
    public static let userSignedIn = Self("user.signed_in")
    /// A sign-in was refused (details: `reason`).
    public static let userSignInFailed = Self("user.sign_in_failed")
    /// Too many failed sign-ins locked an account for a while.
    public static let userLockedOut = Self("user.locked_out")
    /// A user's password was set or replaced.
    public static let userPasswordChanged = Self("user.password_changed")
    /// An account was deleted.
    public static let userDeleted = Self("user.deleted")
    /// A user's email address was shown to be theirs.
    public static let userVerified = Self("user.verified")
    /// An identity was linked to an account (details: `identity`).
    public static let identityLinked = Self("identity.linked")
    /// An identity was unlinked from an account (details: `identity`).
    public static let identityUnlinked = Self("identity.unlinked")
    /// A second factor was enrolled.
    public static let mfaEnrolled = Self("mfa.enrolled")
    /// A second factor was removed.
    public static let mfaRemoved = Self("mfa.removed")
    /// A passkey was registered.
    public static let passkeyRegistered = Self("passkey.registered")
    /// A passkey was removed.
    public static let passkeyRemoved = Self("passkey.removed")
    /// A spent refresh token was presented again: its grant is revoked.
    public static let tokenReuseDetected = Self("token.reuse_detected")
    /// A grant (and its tokens) was revoked.
    public static let grantRevoked = Self("grant.revoked")
    /// A browser session ended.
    public static let sessionEnded = Self("session.ended")
    /// A signing key was created or retired.
    public static let keyRotated = Self("key.rotated")
    /// The admin API registered a client.
    public static let adminClientCreated = Self("admin.client_created")
    /// The admin API changed a client (details: `fields`).
    public static let adminClientUpdated = Self("admin.client_updated")
    /// The admin API removed a client.
    public static let adminClientDeleted = Self("admin.client_deleted")
    /// An admin gave a confidential client a new secret (never in the event); the old one no longer authenticates.
    public static let adminClientSecretRotated = Self("admin.client_secret_rotated")
    /// The admin API created a user.
    public static let adminUserCreated = Self("admin.user_created")
    /// The admin API changed a user (details: `fields`).
    public static let adminUserUpdated = Self("admin.user_updated")
    /// The admin API removed a user.
    public static let adminUserDeleted = Self("admin.user_deleted")
    /// The admin API registered an event webhook (details: `webhook`).
    public static let adminWebhookCreated = Self("admin.webhook_created")
    /// The admin API changed an event webhook (details: `webhook`, `fields`).
    public static let adminWebhookUpdated = Self("admin.webhook_updated")
    /// The admin API removed an event webhook (details: `webhook`).
    public static let adminWebhookDeleted = Self("admin.webhook_deleted")
    /// The admin API replaced an event webhook's signing secret (details: `webhook`).
    public static let adminWebhookSecretRotated = Self("admin.webhook_secret_rotated")
    /// The admin API sent a webhook delivery again (details: `webhook`, `delivery`).
    public static let adminWebhookDeliveryRetried = Self("admin.webhook_delivery_retried")
    /// A user was given a role (details: `role`).
    public static let adminRoleGranted = Self("admin.role_granted")
    /// A role was taken from a user (details: `role`).
    public static let adminRoleRevoked = Self("admin.role_revoked")
    /// An admin disabled a user: no sign-in or refresh until enabled, their sessions and grants ended.
    public static let adminUserDisabled = Self("admin.user_disabled")
    /// An admin enabled a disabled user again.
    public static let adminUserEnabled = Self("admin.user_enabled")
    /// An admin signed a user out everywhere: their browser sessions, grants, codes and device authorizations ended.
    public static let adminSessionsRevoked = Self("admin.sessions_revoked")

    /// Every type, in the order of the issue.
    public static let all: [SecurityEventType] = [
        userCreated, userSignedIn, userSignInFailed, userLockedOut, userPasswordChanged, userDeleted, userVerified,
        identityLinked, identityUnlinked, mfaEnrolled, mfaRemoved, passkeyRegistered, passkeyRemoved,
        tokenReuseDetected, grantRevoked, sessionEnded, keyRotated, adminClientCreated, adminClientUpdated,
        adminClientDeleted, adminClientSecretRotated, adminUserCreated, adminUserUpdated, adminUserDeleted,
        adminWebhookCreated, adminWebhookUpdated, adminWebhookDeleted, adminWebhookSecretRotated,
        adminWebhookDeliveryRetried, adminRoleGranted, adminRoleRevoked, adminUserDisabled, adminUserEnabled,
        adminSessionsRevoked,
    ]
}
