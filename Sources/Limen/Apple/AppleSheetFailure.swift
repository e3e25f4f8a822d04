/// Why Apple's Sign in with Apple sheet ended without a credential, as `ASAuthorizationError` tells it, mapped to the
/// errors every other sign-in path gives: the platform-independent part of `LimenApple`'s sheet, tested on Linux.
package enum AppleSheetFailure: Equatable, Sendable {
    /// `ASAuthorizationError.canceled`: the person closed the sheet.
    case canceled
    /// Any other failure, with its description.
    case other(String)

    /// ``UserAgentError/cancelled`` for a closed sheet (reported as ``LimenError/userCancelled``, as a closed web page
    /// is), else ``UserAgentError/presentationFailed(_:)``.
    package var userAgentError: UserAgentError {
        switch self {
        case .canceled: .cancelled
        case .other(let description): .presentationFailed(description)
        }
    }
}
