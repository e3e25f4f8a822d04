import Foundation

/// Why ``JSONValue/init(parsing:)`` refused a document: RFC 8259, and the limits of Limen's strict parser (at most
/// 64 levels of nesting, no member name twice in one object, no number too large for a `Double`).
public enum JSONParsingError: Error, Sendable, Equatable {
    /// The input ended inside a value, or held no value at all.
    case unexpectedEnd
    /// A byte that the grammar does not allow where it stands (a comment, a single quote, a trailing comma, `+1`,
    /// `NaN`, a byte order mark, …).
    case unexpectedCharacter
    /// Something follows the one top-level value.
    case trailingContent
    /// A number breaks the grammar of RFC 8259 §6: a leading zero, a bare `-`, or no digit after `.` or the exponent.
    case invalidNumber
    /// A number too large for a `Double` (it would become infinity).
    case numberOutOfRange
    /// A string holds an unescaped control character (below U+0020, RFC 8259 §7).
    case controlCharacterInString
    /// A backslash is followed by something RFC 8259 §7 does not define, or `\u` by fewer than four hex digits.
    case invalidEscape
    /// A `\u` escape of a UTF-16 surrogate that is not part of a high-low pair.
    case invalidSurrogate
    /// A string is not well-formed UTF-8 (RFC 8259 §8.1).
    case invalidUTF8
    /// Arrays and objects are nested deeper than Limen's parser allows (64 levels).
    case tooDeep
    /// One object names the same member twice; the associated value is that name.
    case duplicateMemberName(String)

    /// A stable, machine-readable identifier for this failure.
    public var code: String {
        switch self {
        case .unexpectedEnd: "json.unexpected_end"
        case .unexpectedCharacter: "json.unexpected_character"
        case .trailingContent: "json.trailing_content"
        case .invalidNumber: "json.invalid_number"
        case .numberOutOfRange: "json.number_out_of_range"
        case .controlCharacterInString: "json.control_character"
        case .invalidEscape: "json.invalid_escape"
        case .invalidSurrogate: "json.invalid_surrogate"
        case .invalidUTF8: "json.invalid_utf8"
        case .tooDeep: "json.too_deep"
        case .duplicateMemberName: "json.duplicate_member_name"
        }
    }
}

extension JSONParsingError: LocalizedError {
    /// A human-readable description; never contains the document's content.
    public var errorDescription: String? {
        switch self {
        case .unexpectedEnd: "The JSON ends too early."
        case .unexpectedCharacter: "The JSON holds a character its grammar does not allow there."
        case .trailingContent: "Something follows the JSON value."
        case .invalidNumber: "A JSON number is malformed."
        case .numberOutOfRange: "A JSON number is too large."
        case .controlCharacterInString: "A JSON string holds an unescaped control character."
        case .invalidEscape: "A JSON string holds an invalid escape."
        case .invalidSurrogate: "A JSON string escapes half of a UTF-16 surrogate pair."
        case .invalidUTF8: "A JSON string is not valid UTF-8."
        case .tooDeep: "The JSON is nested more than \(JSONParser.maximumDepth) levels deep."
        case .duplicateMemberName(let name): "A JSON object names the member \"\(name)\" twice."
        }
    }
}
