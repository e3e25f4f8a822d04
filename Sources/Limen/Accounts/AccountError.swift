import Foundation
import LimenOIDC

/// Why a call about the account itself failed (as ``LimenError/account(_:)``): RxFireAuth's linking cases as Limen
/// Server answers them, and the refusals of the account routes (`/v1/me/identities`, `DELETE /v1/me`, two-step
/// sign-in's `/v1/me/totp` and `/v1/me/recovery-codes`).
///
/// ```swift
/// do {
///     let descriptor = try await client.login(email: email, password: password, allowMigration: nil)
/// } catch .account(.migrationRequired(let credentials)) {
///     // a guest is signed in and these credentials are another account's: ask, then answer
///     try await client.login(with: credentials, allowMigration: await askToKeepGuestData())
/// } catch .account(.credentialInUse) {
///     show("This sign-in belongs to another account. Sign out first.")
/// }
/// ```
public enum AccountError: Error, Sendable, Equatable {
    /// A guest is signed in and the credentials belong to another account: answer with
    /// ``AuthClient/login(with:allowMigration:)`` — `true` to carry the guest's data over, `false` to drop it; either
    /// way the guest is deleted once the account is signed in. The credentials are kept in memory only.
    case migrationRequired(LoginCredentials)
    /// A user with an identity is signed in and the credentials belong to another account: nothing changed. Sign
    /// out first to use that account (or ``AuthClient/loginWithoutChecking(email:password:)``).
    case credentialInUse
    /// A user with an address is signed in and tried to sign up another one: an account has one address. Sign out
    /// first to create another account.
    case accountHasEmail
    /// The call needs a guest signed in (``AuthClient/linkAnonymousAccount(toEmail:password:name:code:)``), and the
    /// signed-in user is not one (or nobody is signed in).
    case notAnonymous
    /// The identity is the user's last way to sign in, which is never unlinked (`409 last_identity`): link another
    /// first.
    case lastIdentity
    /// The user has no identity of that kind (`404 not_linked`).
    case notLinked
    /// The session's sign-in is too old for this (RFC 9470 `insufficient_user_authentication`, e.g. deleting the
    /// account): sign in again, then repeat the call within `maxAge` seconds (`nil` when the provider did not say).
    case reauthenticationRequired(maxAge: Int?)
    /// The provider does not let this app's token change the account: a third-party app's (`403
    /// insufficient_scope`), or a confidential client's sent without its secret (`401 invalid_client`). Only the
    /// provider's own apps link, unlink and delete.
    case changeNotAllowed(code: String)
    /// Asked to sign in again before an account change, someone else signed in: nothing was changed.
    case reauthenticatedAsAnotherUser
    /// A two-step sign-in code (from the authenticator app, or a recovery code) is wrong, or was used already
    /// (`invalid_code`): nothing changed. Ask the person for another code and make the same call again (a
    /// ``TOTPEnrolment`` can be confirmed again). Wrong codes count toward the account's sign-in lockout.
    case invalidCode
    /// Two-step sign-in is on already (`409 second_factor_enabled`): turn it off first to set it up again.
    case twoStepAlreadyEnabled
    /// Two-step sign-in is off (`404 not_enabled`), so there is nothing to turn off or replace.
    case twoStepNotEnabled
    /// Too many wrong codes (`429 too_many_attempts`): the account is locked for a while; try again after
    /// `retryAfter` seconds (`nil` when the provider did not say).
    case tooManyAttempts(retryAfter: TimeInterval?)
    /// The account route answered with an unexpected status; `code` is its `error`, if it sent one.
    case server(status: Int, code: String?)
    /// The account route's answer is not of the documented shape.
    case malformedResponse(String)

    /// A stable, machine-readable identifier such as `account.migration_required`.
    public var code: String {
        switch self {
        case .migrationRequired: "account.migration_required"
        case .credentialInUse: "account.credential_in_use"
        case .accountHasEmail: "account.account_has_email"
        case .notAnonymous: "account.not_anonymous"
        case .lastIdentity: "account.last_identity"
        case .notLinked: "account.not_linked"
        case .reauthenticationRequired: "account.reauthentication_required"
        case .changeNotAllowed: "account.change_not_allowed"
        case .reauthenticatedAsAnotherUser: "account.reauthenticated_as_another_user"
        case .invalidCode: "account.invalid_code"
        case .twoStepAlreadyEnabled: "account.two_step_already_enabled"
        case .twoStepNotEnabled: "account.two_step_not_enabled"
        case .tooManyAttempts: "account.too_many_attempts"
        case .server: "account.server_error"
        case .malformedResponse: "account.malformed_response"
        }
    }

    /// Whether repeating the call later may succeed without any change: a server error (5xx), or the lockout after
    /// too many wrong codes once it is over.
    public var isRetryable: Bool {
        switch self {
        case .server(let status, _): status >= 500
        case .tooManyAttempts: true
        default: false
        }
    }

    /// Whether the person has to sign in again before the call can succeed.
    public var requiresReauthentication: Bool {
        if case .reauthenticationRequired = self { return true }
        return false
    }

    /// The linking case a flow's error node names in its details (`migration_required`, `credential_in_use`,
    /// `account_has_email`), if any; `credentials` are what a migration would sign in with.
    init?(details: [FlowErrorDetail], credentials: LoginCredentials?) {
        for detail in details {
            switch detail.code {
            case "migration_required":
                guard let credentials else { continue }
                self = .migrationRequired(credentials)
            case "credential_in_use": self = .credentialInUse
            case "account_has_email": self = .accountHasEmail
            default: continue
            }
            return
        }
        return nil
    }
}

extension AccountError: LocalizedError {
    /// A human-readable description; never contains a password.
    public var errorDescription: String? {
        switch self {
        case .migrationRequired(let credentials):
            "\(credentials.email ?? "This sign-in") has an account: signing in to it replaces the guest account on this "
                + "device."
        case .credentialInUse: "This sign-in belongs to another account. Sign out first to use that account."
        case .accountHasEmail: "This account has an email address already. Sign out first to create another account."
        case .notAnonymous: "Only a guest account can be linked; sign in anonymously first."
        case .lastIdentity: "This is the account's last way to sign in; link another one first."
        case .notLinked: "The account has no identity of this kind."
        case .reauthenticationRequired(let maxAge):
            "Sign in again first"
                + (maxAge.map { ": this needs a sign-in from the last \(Self.duration($0))." } ?? ".")
        case .changeNotAllowed(let code): "This app may not change the account (\(code)); use the provider's own app."
        case .reauthenticatedAsAnotherUser:
            "Another account signed in when this one was asked to sign in again; nothing was changed."
        case .invalidCode: "The code is not correct, or was used already."
        case .twoStepAlreadyEnabled: "Two-step sign-in is on already: turn it off first."
        case .twoStepNotEnabled: "Two-step sign-in is off."
        case .tooManyAttempts(let retryAfter):
            "Too many wrong codes: try again"
                + (retryAfter.map { " in \(Self.duration(Int($0.rounded(.up))))." } ?? " later.")
        case .server(let status, let code): "The account server answered \(status)\(code.map { " (\($0))" } ?? "")."
        case .malformedResponse(let reason): "The account server's answer is malformed: \(reason)"
        }
    }

    /// `seconds` as minutes when whole, else seconds.
    private static func duration(_ seconds: Int) -> String {
        seconds % 60 == 0 ? "\(seconds / 60) minute\(seconds == 60 ? "" : "s")" : "\(seconds) seconds"
    }
}

extension AccountError {
    /// The error an account route's non-2xx `response` means, by its Bearer `challenge` or its `{"error"}`.
    init(response: HTTPResponse, challenge: BearerChallenge?) {
        let code = (try? JSONValue(parsing: response.body))?.objectValue?["error"]?.stringValue
        switch (response.status, challenge?.error ?? code) {
        case (401, "insufficient_user_authentication"): self = .reauthenticationRequired(maxAge: challenge?.maxAge)
        case (403, "insufficient_scope"), (401, "invalid_client"):
            self = .changeNotAllowed(code: challenge?.error ?? code ?? "")
        case (409, "last_identity"): self = .lastIdentity
        case (404, "not_linked"): self = .notLinked
        case (403, "invalid_code"): self = .invalidCode
        case (404, "not_enabled"): self = .twoStepNotEnabled
        case (429, "too_many_attempts"): self = .tooManyAttempts(retryAfter: response.retryAfter())
        default: self = .server(status: response.status, code: challenge?.error ?? code)
        }
    }
}
