import Foundation
import LimenWire

/// The differential check of Limen's strict JSON parser against Foundation's `JSONSerialization`, a well-kept parser.
///
/// Limen is stricter (it refuses a member name twice, nesting deeper than 64 and numbers beyond a `Double`, all of
/// which Foundation accepts), so the check runs one way: whatever Limen accepts, Foundation accepts too, and the two
/// read the same value. Then the value must survive ``JSONValue/serialized()``: Limen reads the text it writes back to
/// an equal value, and Foundation accepts that text too.
///
/// ```swift
/// let accepted = try JSONDifferential.check(Data("[1,2]".utf8))   // true
/// ```
public enum JSONDifferential {
    /// A way in which Limen and Foundation (or Limen and itself) disagree about a document.
    public enum Disagreement: Error, Equatable, CustomStringConvertible {
        /// Limen accepted a document Foundation refuses.
        case foundationRefused(Data)
        /// Both accepted the document but read different values.
        case valuesDiffer(limen: String, foundation: String)
        /// Limen cannot read back the text ``JSONValue/serialized()`` wrote, or reads another value.
        case roundTripDiffers(Data)
        /// Foundation refuses the text ``JSONValue/serialized()`` wrote.
        case serializationRefused(Data)

        /// What disagrees, with the documents involved (escaped, so control bytes stay readable).
        public var description: String {
            switch self {
            case .foundationRefused(let document): "Foundation refuses what Limen accepts: \(Self.show(document))"
            case .valuesDiffer(let limen, let foundation): "values differ: Limen \(limen), Foundation \(foundation)"
            case .roundTripDiffers(let text): "serialized() does not read back: \(Self.show(text))"
            case .serializationRefused(let text): "Foundation refuses serialized(): \(Self.show(text))"
            }
        }

        private static func show(_ data: Data) -> String {
            String(decoding: data, as: UTF8.self).debugDescription
        }
    }

    /// Checks one document; returns whether Limen accepts it.
    /// - Throws: ``Disagreement`` when the check fails.
    @discardableResult
    public static func check(_ document: some ContiguousBytes) throws(Disagreement) -> Bool {
        guard let value = try? JSONValue(parsing: document) else { return false }
        let data = document.withUnsafeBytes { Data($0) }
        guard let foundation = try? JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed]) else {
            throw .foundationRefused(data)
        }
        guard agree(value, foundation) else {
            throw .valuesDiffer(limen: "\(value)", foundation: "\(foundation)")
        }
        let text = Data(value.serialized())
        guard (try? JSONValue(parsing: text)) == value else { throw .roundTripDiffers(text) }
        guard (try? JSONSerialization.jsonObject(with: text, options: [.fragmentsAllowed])) != nil else {
            throw .serializationRefused(text)
        }
        return true
    }

    /// Whether Limen's value and Foundation's object are the same JSON value.
    static func agree(_ value: JSONValue, _ object: Any) -> Bool {
        switch value {
        case .null: return object is NSNull
        case .bool(let bool):
            guard let number = object as? NSNumber, isBoolean(number) else { return false }
            return number.boolValue == bool
        case .number(let double):
            guard let number = object as? NSNumber, !isBoolean(number) else { return false }
            return agree(double, number)
        case .string(let string): return (object as? String) == string
        case .array(let elements):
            guard let objects = object as? [Any], objects.count == elements.count else { return false }
            return zip(elements, objects).allSatisfy { agree($0, $1) }
        case .object(let members):
            guard let objects = object as? [String: Any], objects.count == members.count else { return false }
            return members.allSatisfy { name, member in objects[name].map { agree(member, $0) } ?? false }
        }
    }

    /// Foundation marks JSON's `true` and `false` as numbers of C type `char`, which it makes for nothing else.
    private static func isBoolean(_ number: NSNumber) -> Bool {
        String(cString: number.objCType) == "c"
    }

    /// How far apart, relative to their size, the two readings of a number too long for `Int64`, `UInt64` and `Double`
    /// may be. Foundation reads such a number as an `NSDecimalNumber` (38 significant digits) whose `doubleValue` is
    /// not always correctly rounded; Limen reads it as `Double(String)` does. Measured gaps are one unit in the last
    /// place (about 2.2e-16 relative); anything past this bound is a real disagreement.
    static let decimalTolerance = 1e-13

    private static func agree(_ double: Double, _ number: NSNumber) -> Bool {
        let other = number.doubleValue
        guard number is NSDecimalNumber, other != double else { return other == double }
        return abs(other - double) <= decimalTolerance * max(abs(other), abs(double))
    }
}
