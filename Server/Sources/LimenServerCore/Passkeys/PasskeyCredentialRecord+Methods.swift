import LimenServerStorage

extension PasskeyCredentialRecord {
    /// How a sign-in with this passkey authenticated the user (user verification is always required): a synced
    /// passkey's key is software's (`swk`), a device-bound one's hardware's (`hwk`); verified, so two factors in one.
    package var methods: [AuthenticationMethod] {
        [isBackupEligible ? .softwareKey : .hardwareKey, .user, .multipleFactors]
    }
}
