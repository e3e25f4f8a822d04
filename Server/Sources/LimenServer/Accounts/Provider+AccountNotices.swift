import LimenServerStorage

extension Provider {
    /// Mails `notice` to `user`'s address through the outbox (``MailOutbox``), when they have one: every account change
    /// is told to the account's owner, so that one they did not make does not go unnoticed.
    func notify(_ notice: AccountNotice, to user: UserRecord) async throws(StorageError) {
        guard let email = user.email else { return }
        try await mailOutbox.enqueue(AccountNotices.message(notice, to: email, issuer: issuer.current))
    }

    /// How a notice names the identities of `kinds`: "email address and password", "Apple ID", an upstream
    /// provider's display name, or another issuer's identifier.
    func identityNames(_ kinds: [String]) -> String {
        let names = kinds.map { kind in
            switch kind {
            case IdentityRecord.emailKind: "email address"
            case IdentityRecord.passwordKind: "password"
            case AppleSignIn.identityKind: "Apple ID"
            default:
                configuration.identityProviders.first { $0.identityKind == kind }?.displayName
                    ?? configuration.trustedIssuers.first { $0.identityKind == kind }?.issuer ?? kind
            }
        }
        return names.count > 1
            ? names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "") : names.first ?? ""
    }
}
