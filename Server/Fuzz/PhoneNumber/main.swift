import ServerFuzzSupport

// A phone number as a person types it, read as E.164 (see PhoneNumberCheck).
FuzzDriver.run { input in
    do {
        try PhoneNumberCheck.check(input)
    } catch {
        fatalError("\(error)")
    }
}
