import ServerFuzzSupport

// A form body (or query string) as the server reads it, and the same bytes as a Content-Type (see FormBodyCheck).
FuzzDriver.run { input in
    do {
        try FormBodyCheck.check(input)
    } catch {
        fatalError("\(error)")
    }
}
