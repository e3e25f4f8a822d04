import HTTPTypes
import LimenServerCore
import LimenServerStorage

/// Deleting one's own account from the account page. The current password is asked again (OWASP: re-authenticate
/// before a change that cannot be undone, so a borrowed browser session alone cannot delete the account), and checked
/// through the sign-in's throttle: the same lockout, slowdown and hashing queue as every password check.
enum AccountDeletion {
    /// The value of the form's `intent` that asks for the deletion.
    static let intent = "delete_account"

    /// What the password check decided.
    enum Decision: Equatable {
        /// The password is the account's own: delete it.
        case confirmed
        /// Refused: the sentence to show, the page's status, and the seconds to wait when a limit refused it.
        case refused(message: String, status: HTTPResponse.Status, retryAfter: Int?)
    }

    /// Whether `password`, sent from `origin`, confirms the deletion of `user`'s account.
    static func confirm(
        _ user: UserRecord,
        password: String?,
        from origin: RequestOrigin,
        signIn: PasswordSignIn
    ) async throws(StorageError) -> Decision {
        guard let password else {
            return .refused(
                message: "Enter your password to delete your account.", status: .badRequest, retryAfter: nil)
        }
        guard let email = user.email else { return refusal(.invalidCredentials) }
        do throws(AccountError) {
            let confirmed = try await signIn.signIn(email: email, password: password, from: origin)
            return confirmed.id == user.id ? .confirmed : refusal(.invalidCredentials)
        } catch {
            if case .storage(let storage) = error { throw storage }
            return refusal(error)
        }
    }

    private static func refusal(_ error: AccountError) -> Decision {
        let message = error.errorDescription ?? "The request was refused."
        let status: HTTPResponse.Status =
            switch error {
            case .invalidCredentials: .forbidden
            case .locked, .attemptInProgress: .tooManyRequests
            case .busy: .serviceUnavailable
            default: .badRequest
            }
        return .refused(message: message, status: status, retryAfter: error.retryAfter)
    }
}
