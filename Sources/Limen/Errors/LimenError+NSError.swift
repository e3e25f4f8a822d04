import Foundation

/// The stable `NSError` codes of ``LimenError``'s domains (``LimenError/errorDomain``): one per case, never
/// renumbered. The finer string ``LimenError/code`` is in the user info under ``LimenError/codeUserInfoKey``.
public enum LimenErrorCode: Int, Sendable, CaseIterable {
    /// ``LimenError/configuration(_:)``.
    case configuration = 1
    /// ``LimenError/network(_:)``.
    case network = 2
    /// ``LimenError/oauth(_:)``.
    case oauth = 3
    /// ``LimenError/idToken(_:)``.
    case idToken = 4
    /// ``LimenError/protocolViolation(_:)``.
    case protocolViolation = 5
    /// ``LimenError/storage(_:)``.
    case storage = 6
    /// ``LimenError/encryption(_:)``.
    case encryption = 7
    /// ``LimenError/profile(_:)``.
    case profile = 8
    /// ``LimenError/account(_:)``.
    case account = 9
    /// ``LimenError/flow(_:)``.
    case flow = 10
    /// ``LimenError/userAgent(_:)``.
    case userAgent = 11
    /// ``LimenError/userCancelled``.
    case userCancelled = 12
    /// ``LimenError/sessionExpired``.
    case sessionExpired = 13
    /// ``LimenError/notSignedIn``.
    case notSignedIn = 14
    /// ``LimenError/pinningFailed(host:)``.
    case pinningFailed = 15
    /// ``LimenError/appToApp(_:)``.
    case appToApp = 16
    /// ``LimenError/dpop(_:)``.
    case dpop = 17
}

extension LimenError: CustomNSError {
    /// The domain of every Limen error as an `NSError` (Objective-C: `LMNAuthClient.errorDomain`).
    public static let errorDomain = "dev.limen.LimenError"
    /// The user-info key of the stable string ``code`` (such as `network.timeout`).
    public static let codeUserInfoKey = "LimenErrorCode"
    /// The user-info key of ``isRetryable`` (an `NSNumber` holding a Boolean).
    public static let retryableUserInfoKey = "LimenErrorIsRetryable"

    /// The case's number in ``LimenErrorCode``.
    public var errorCode: Int { domainCode.rawValue }

    /// The description (``errorDescription``: `localizedDescription` would ask this again), the string ``code`` and
    /// whether the error ``isRetryable``.
    public var errorUserInfo: [String: Any] {
        [
            NSLocalizedDescriptionKey: errorDescription ?? code, Self.codeUserInfoKey: code,
            Self.retryableUserInfoKey: NSNumber(value: isRetryable),
        ]
    }

    /// The case's stable number.
    public var domainCode: LimenErrorCode {
        switch self {
        case .configuration: .configuration
        case .network: .network
        case .oauth: .oauth
        case .idToken: .idToken
        case .protocolViolation: .protocolViolation
        case .storage: .storage
        case .encryption: .encryption
        case .profile: .profile
        case .account: .account
        case .flow: .flow
        case .userAgent: .userAgent
        case .userCancelled: .userCancelled
        case .sessionExpired: .sessionExpired
        case .notSignedIn: .notSignedIn
        case .pinningFailed: .pinningFailed
        case .appToApp: .appToApp
        case .dpop: .dpop
        }
    }

    /// The error as an `NSError` in ``errorDomain``, for Objective-C and completion handlers.
    public var nsError: NSError {
        NSError(domain: Self.errorDomain, code: errorCode, userInfo: errorUserInfo)
    }
}
