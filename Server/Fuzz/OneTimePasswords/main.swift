import ServerFuzzSupport

// Text a person types for the TOTP helper (a base32 secret, a recovery code, a TOTP code) and the provisioning URI
// made for an issuer and account name (see OneTimePasswordsCheck).
FuzzDriver.run { input in
    do {
        try OneTimePasswordsCheck.check(input)
    } catch {
        fatalError("\(error)")
    }
}
