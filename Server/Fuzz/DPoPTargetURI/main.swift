import ServerFuzzSupport

// A DPoP proof's htu, or a request's URI, normalised for comparison (see DPoPTargetURICheck).
FuzzDriver.run { input in
    do {
        try DPoPTargetURICheck.check(input)
    } catch {
        fatalError("\(error)")
    }
}
