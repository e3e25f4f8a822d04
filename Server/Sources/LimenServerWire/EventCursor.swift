import Foundation
import LimenWire

/// The opaque `cursor` of a page of security events, as text: base64url of `<seconds>.<id>`, the last event's time in
/// whole seconds since 1970 and its id. Read from the admin API's query, so from untrusted bytes: a cursor that is not
/// one ``encode(seconds:id:)`` makes (bad base64, a time or an id of another shape, more than 200 bytes) is `nil`.
public struct EventCursor: Sendable, Equatable {
    /// The longest cursor read.
    public static let maximumLength = 200

    /// The last event's time, in whole seconds since 1970 (never negative).
    public var seconds: Int64
    /// The last event's id: 1–64 base64url characters.
    public var id: String

    /// The cursor of the event at `seconds` with `id`.
    public init(seconds: Int64, id: String) {
        self.seconds = seconds
        self.id = id
    }

    /// The cursor's text.
    public var encoded: String {
        Base64URL.encode(Array("\(seconds).\(id)".utf8))
    }

    /// The cursor `text` stands for, or `nil` when it is not one ``encoded`` makes.
    public init?(_ text: String) {
        guard text.utf8.count <= Self.maximumLength, let bytes = Base64URL.decode(text),
            let decoded = String(bytes: bytes, encoding: .utf8)
        else { return nil }
        let parts = decoded.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, let seconds = Int64(parts[0]), seconds >= 0, Self.isEventID(parts[1]) else {
            return nil
        }
        self.init(seconds: seconds, id: String(parts[1]))
    }

    /// Whether `id` has the shape of an event id: 1–64 base64url characters.
    public static func isEventID(_ id: some StringProtocol) -> Bool {
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
