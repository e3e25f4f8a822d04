import ServerFuzzSupport

// Bytes read as a passkey's JSON answer, as a registration and as an assertion, then checked (see
// WebAuthnResponseCheck).
FuzzDriver.run { input in
    do {
        try WebAuthnResponseCheck.check(input)
    } catch {
        fatalError("\(error)")
    }
}
