import LimenServerWire

/// The `EventCursor` harness's check, also replayed over its seed corpus by `CorpusTests`: the input read as the
/// `cursor` of `GET /admin/events` (``EventCursor``).
///
/// - A cursor read has a time of at least 0 and an id of 1–64 base64url characters, and came from at most 200 bytes.
/// - Encoded again, it reads as itself (the next page's link names the same position).
package enum EventCursorCheck {
    /// Checks one input; throws what it finds.
    package static func check(_ input: some Sequence<UInt8>) throws(FuzzFinding) {
        let text = String(decoding: Array(input), as: UTF8.self)
        guard let cursor = EventCursor(text) else { return }
        guard text.utf8.count <= EventCursor.maximumLength, cursor.seconds >= 0, EventCursor.isEventID(cursor.id)
        else { throw FuzzFinding(description: "\(text.debugDescription) read as \(cursor), which is out of shape") }
        guard EventCursor(cursor.encoded) == cursor else {
            throw FuzzFinding(description: "\(cursor) does not read as itself once encoded")
        }
    }
}
