import LimenServerStorage

/// Tells account owners by email what changed on their account (``AccountNotice``), through the outbox
/// (``MailOutbox``), never inside the request: every account change is told to the account's owner, so that one they
/// did not make does not go unnoticed.
package struct AccountNotifier: Sendable {
    /// Where the notices wait for the outbox's worker.
    package let outbox: MailOutbox
    /// The issuer the notices name.
    package let issuer: IssuerBox
    /// The upstream providers, whose display names name their identities.
    package let identityProviders: [IdentityProvider]
    /// The trusted issuers, whose identifiers name their identities.
    package let trustedIssuers: [TrustedIssuer]

    /// A notifier through `outbox`, naming `issuer` and the identities of `identityProviders` and `trustedIssuers`.
    package init(
        outbox: MailOutbox, issuer: IssuerBox, identityProviders: [IdentityProvider], trustedIssuers: [TrustedIssuer]
    ) {
        (self.outbox, self.issuer) = (outbox, issuer)
        (self.identityProviders, self.trustedIssuers) = (identityProviders, trustedIssuers)
    }

    /// Mails `notice` to `user`'s address, when they have one.
    package func notify(_ notice: AccountNotice, to user: UserRecord) async throws(StorageError) {
        guard let email = user.email else { return }
        try await outbox.enqueue(AccountNotices.message(notice, to: email, issuer: issuer.current))
    }

    /// How a notice names the identities of `kinds`: "email address and password", "Apple ID", an upstream
    /// provider's display name, or another issuer's identifier.
    package func identityNames(_ kinds: [String]) -> String {
        let names = kinds.map { kind in
            switch kind {
            case IdentityRecord.emailKind: "email address"
            case IdentityRecord.passwordKind: "password"
            case AppleSignIn.identityKind: "Apple ID"
            default:
                identityProviders.first { $0.identityKind == kind }?.displayName
                    ?? trustedIssuers.first { $0.identityKind == kind }?.issuer ?? kind
            }
        }
        return names.count > 1
            ? names.dropLast().joined(separator: ", ") + " and " + (names.last ?? "") : names.first ?? ""
    }
}
