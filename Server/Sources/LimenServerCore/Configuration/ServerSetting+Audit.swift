import Foundation

extension ServerSetting {
    /// How long security events are kept unless `audit_retention` says otherwise: 90 days.
    public static let defaultAuditRetention: TimeInterval = 90 * 86_400
    /// The `audit_retention` values accepted: a day to ten years.
    static let auditRetentionRange: ClosedRange<TimeInterval> = 86_400...(3_650 * 86_400)

    /// `audit_retention`: how long security events are kept.
    static let auditRetention = duration(
        "audit_retention", help: "How long security events are kept, like 90d", default: "90d",
        in: auditRetentionRange, like: "86400, 24h, 90d or 365d", setting: \.auditRetention)
}
