import Foundation
import LimenServerStorage
import LimenServerWire

/// The opaque `cursor` of a page of events (``EventCursor``): the last event's time and id. A cursor that is not one
/// this server made is refused; a well-formed one only moves where a page starts, which the admin token may read anyway.
public enum SecurityEventCursor {
    /// The cursor of the page after `position`.
    public static func encode(_ position: SecurityEventPosition) -> String {
        EventCursor(seconds: Int64(position.time.timeIntervalSince1970), id: position.id).encoded
    }

    /// The position `cursor` stands for, or `nil` when it is not one ``encode(_:)`` makes.
    public static func decode(_ cursor: String) -> SecurityEventPosition? {
        guard let cursor = EventCursor(cursor) else { return nil }
        return SecurityEventPosition(time: Date(timeIntervalSince1970: Double(cursor.seconds)), id: cursor.id)
    }
}
