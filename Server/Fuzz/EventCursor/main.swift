import ServerFuzzSupport

// The admin API's events cursor as EventCursor reads it (see EventCursorCheck).
FuzzDriver.run { input in
    do {
        try EventCursorCheck.check(input)
    } catch {
        fatalError("\(error)")
    }
}
