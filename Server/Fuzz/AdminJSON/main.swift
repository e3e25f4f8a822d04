import ServerFuzzSupport

// The admin API's JSON bodies as AdminJSON reads them (see AdminJSONCheck).
FuzzDriver.run { input in
    do {
        try AdminJSONCheck.check(input)
    } catch {
        fatalError("\(error)")
    }
}
