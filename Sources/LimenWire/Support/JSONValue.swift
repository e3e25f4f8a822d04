import Foundation

/// Any JSON value, for claims and metadata whose shape is open (custom claims, userinfo, extra parameters).
///
/// ```swift
/// if case .string(let email)? = claims["email"] { print(email) }
/// ```
public enum JSONValue: Sendable, Hashable, Codable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number.
    case number(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// Decodes any JSON value.
    ///
    /// Tries the kinds in the order claims most often have them (strings, then numbers), since every wrong guess
    /// costs a thrown decoding error.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode([String: JSONValue].self) {
            self = .object(value)
        } else {
            self = .array(try container.decode([JSONValue].self))
        }
    }

    /// Encodes the value as JSON.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }

    /// The string, when this is a string.
    public var stringValue: String? {
        if case .string(let value) = self { value } else { nil }
    }

    /// The number, when this is a number.
    public var numberValue: Double? {
        if case .number(let value) = self { value } else { nil }
    }

    /// The Boolean, when this is a Boolean (or the strings `"true"`/`"false"`, as some providers send).
    public var boolValue: Bool? {
        switch self {
        case .bool(let value): value
        case .string("true"): true
        case .string("false"): false
        default: nil
        }
    }

    /// The strings, when this is a string or an array of strings.
    public var stringArrayValue: [String]? {
        switch self {
        case .string(let value): [value]
        case .array(let values):
            values.allSatisfy { $0.stringValue != nil } ? values.compactMap(\.stringValue) : nil
        default: nil
        }
    }

    /// The members, when this is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let value) = self { value } else { nil }
    }
}
