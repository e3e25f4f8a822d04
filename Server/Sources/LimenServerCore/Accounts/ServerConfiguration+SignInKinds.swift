import LimenServerStorage

extension ServerConfiguration {
    /// Whether an identity of `kind` can sign in with this configuration: a password, an email or an SMS code always; an
    /// Apple ID while Sign in with Apple is configured; another issuer's identity while that issuer is a trusted issuer
    /// (token exchange) or an upstream identity provider. Unlinking never leaves an account without one.
    package func signsIn(withIdentityKind kind: String) -> Bool {
        switch kind {
        case IdentityRecord.passwordKind, IdentityRecord.emailKind, IdentityRecord.phoneKind: true
        case AppleSignIn.identityKind: apple != nil
        default:
            trustedIssuers.contains { $0.identityKind == kind }
                || identityProviders.contains { $0.identityKind == kind }
        }
    }
}
