import FuzzSupport

// Limen's strict JSON parser against Foundation's, and serialized() read back (see JSONDifferential).
FuzzDriver.run { input in
    do {
        try JSONDifferential.check(input)
    } catch {
        fatalError("\(error)")
    }
}
