import Foundation
import LimenServerStorage
import LimenWire

/// The opaque `cursor` of a page of events: base64url of the last event's time and id. A cursor that is not one this
/// server made (bad base64, a time or an id of another shape) is refused; a well-formed one only moves where a page
/// starts, which the admin token may read anyway.
public enum SecurityEventCursor {
    /// The cursor of the page after `position`.
    public static func encode(_ position: SecurityEventPosition) -> String {
        Base64URL.encode(Array("\(Int64(position.time.timeIntervalSince1970)).\(position.id)".utf8))
    }

    /// The position `cursor` stands for, or `nil` when it is not one ``encode(_:)`` makes.
    public static func decode(_ cursor: String) -> SecurityEventPosition? {
        guard cursor.utf8.count <= 200, let bytes = Base64URL.decode(cursor),
            let text = String(bytes: bytes, encoding: .utf8)
        else { return nil }
        let parts = text.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let seconds = Int64(parts[0]), seconds >= 0, isEventID(parts[1]) else { return nil }
        return SecurityEventPosition(time: Date(timeIntervalSince1970: Double(seconds)), id: String(parts[1]))
    }

    /// Whether `id` has the shape of an event id: 1–64 base64url characters.
    static func isEventID(_ id: some StringProtocol) -> Bool {
        (1...64).contains(id.utf8.count)
            && id.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"):
                    true
                default: false
                }
            }
    }
}
