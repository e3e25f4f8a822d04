import Foundation
import LimenOIDC

/// Whether the signed-in user's two-step sign-in is on (``AuthClient/twoStepStatus()``).
///
/// ```swift
/// if case .enabled(_, let left) = try await client.twoStepStatus(), left < 3 {
///     suggest("Few recovery codes left: make new ones.")
/// }
/// ```
public enum TwoStepStatus: Sendable, Equatable {
    /// Off: signing in takes one step. Turn it on with ``AuthClient/enrolTOTP(reauthenticating:)``.
    case disabled
    /// On since `since`, with `recoveryCodesLeft` recovery codes not yet used (at most 10).
    case enabled(since: Date, recoveryCodesLeft: Int)

    /// Whether two-step sign-in is on.
    public var isEnabled: Bool {
        if case .enabled = self { return true }
        return false
    }

    /// The status `GET /v1/me/totp` answers: `{"enabled": false}` or `{"enabled": true, "enabled_at": SECONDS,
    /// "recovery_codes_left": N}`.
    init(document: JSONValue) throws(AccountError) {
        let members = document.objectValue
        switch members?["enabled"]?.boolValue {
        case false?: self = .disabled
        case true?:
            guard let since = members?["enabled_at"]?.numberValue,
                let left = members?["recovery_codes_left"]?.numberValue.flatMap(Int.init(exactly:))
            else { throw .malformedResponse("the two-step status has no enabled_at or recovery_codes_left") }
            self = .enabled(since: Date(timeIntervalSince1970: since), recoveryCodesLeft: left)
        case nil: throw .malformedResponse("the two-step status has no enabled")
        }
    }
}
