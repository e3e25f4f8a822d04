import Foundation

/// A change to an account that its owner is told about by email, whoever made it, so that a change they did not make
/// does not go unnoticed.
package enum AccountNotice: Sendable, Equatable {
    /// A way to sign in was added (`"Apple ID"`, an upstream provider's name, `"email address"`).
    case identityLinked(String)
    /// A way to sign in was removed.
    case identityUnlinked(String)
    /// The password was changed or reset.
    case passwordChanged
    /// The account's address was changed to `newAddress` (sent to the old address).
    case emailChanged(newAddress: String)
    /// The account was deleted.
    case accountDeleted
    /// Two-step sign-in was turned on (`true`) or off (`false`).
    case twoStepSignIn(enabled: Bool)
    /// New recovery codes replaced the old ones.
    case recoveryCodesReplaced
}

/// The notices of ``AccountNotice``, in plain text and HTML from ``MailTemplates``. Enqueue one with
///
/// ```swift
/// try await provider.mailOutbox.enqueue(
///     AccountNotices.message(.identityLinked("Apple ID"), to: email, issuer: provider.issuer.current))
/// ```
package enum AccountNotices {
    /// The notice of `notice` to `email`.
    package static func message(_ notice: AccountNotice, to email: String, issuer: String) -> MailMessage {
        let (subject, change) = wording(notice)
        let values = ["issuer": issuer, "change": change]
        return MailMessage(
            to: email, subject: subject, text: MailTemplates.render(values, "account-notice.text"),
            html: MailTemplates.render(values, "account-notice.html"), kind: .notice, purpose: purpose(notice))
    }

    /// The subject, and the sentence saying what changed (it ends the phrase "… on your account at ISSUER").
    private static func wording(_ notice: AccountNotice) -> (subject: String, change: String) {
        switch notice {
        case .identityLinked(let name):
            ("A way to sign in was added", "Your \(name) was linked, and can now sign in to your account")
        case .identityUnlinked(let name):
            ("A way to sign in was removed", "Your \(name) was unlinked, and no longer signs in to your account")
        case .passwordChanged:
            ("Your password was changed", "The password of your account was changed")
        case .emailChanged(let newAddress):
            ("Your email address was changed", "The address of your account was changed to \(newAddress)")
        case .accountDeleted:
            ("Your account was deleted", "Your account was deleted, with everything it held")
        case .twoStepSignIn(true):
            ("Two-step sign-in was turned on", "Two-step sign-in was turned on: signing in now takes a second step")
        case .twoStepSignIn(false):
            ("Two-step sign-in was turned off", "Two-step sign-in was turned off: your password alone signs in again")
        case .recoveryCodesReplaced:
            ("New recovery codes", "New recovery codes were made; the old ones no longer work")
        }
    }

    /// The `purpose` a webhook receives with the notice.
    private static func purpose(_ notice: AccountNotice) -> String {
        switch notice {
        case .identityLinked: "identity-linked"
        case .identityUnlinked: "identity-unlinked"
        case .passwordChanged: "password-changed"
        case .emailChanged: "email-changed"
        case .accountDeleted: "account-deleted"
        case .twoStepSignIn(let enabled): enabled ? "two-step-enabled" : "two-step-disabled"
        case .recoveryCodesReplaced: "recovery-codes-replaced"
        }
    }
}
