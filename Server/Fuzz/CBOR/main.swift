import ServerFuzzSupport

// Bytes read as CBOR, as an attestation object and as authenticator data (see CBORCheck).
FuzzDriver.run { input in
    do {
        try CBORCheck.check(input)
    } catch {
        fatalError("\(error)")
    }
}
