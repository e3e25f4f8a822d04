import Foundation

/// Why ``CBORReader`` refused its input: something outside the strict subset of CBOR (RFC 8949) that WebAuthn needs,
/// or beyond the reader's limits.
public enum CBORError: Error, Sendable, Hashable {
    /// The input ends inside an item, or holds no item at all.
    case truncated
    /// An indefinite-length string, array or map (additional information 31), or a stray "break" byte (`0xff`):
    /// CTAP2's canonical CBOR never uses them.
    case indefiniteLength
    /// Additional information 28, 29 or 30, which RFC 8949 §3 reserves: the item is not well-formed.
    case reservedAdditionalInformation
    /// A tag (major type 6), a float, `undefined`, or a simple value other than `false`, `true` and `null`.
    case unsupportedType
    /// A text string that is not valid UTF-8.
    case invalidUTF8
    /// Arrays and maps nested deeper than ``CBORReader/maximumDepth``.
    case tooDeep
    /// A string, array or map declares more bytes or items than the input has left.
    case tooLarge
    /// One map holds the same key twice.
    case duplicateMapKey
    /// A negative integer below `Int64.min`.
    case integerOverflow
    /// Bytes follow the one item that ``CBORReader/read(_:)`` expects.
    case trailingBytes

    /// A stable, machine-readable identifier for this failure.
    public var code: String {
        switch self {
        case .truncated: "cbor.truncated"
        case .indefiniteLength: "cbor.indefinite_length"
        case .reservedAdditionalInformation: "cbor.reserved_additional_information"
        case .unsupportedType: "cbor.unsupported_type"
        case .invalidUTF8: "cbor.invalid_utf8"
        case .tooDeep: "cbor.too_deep"
        case .tooLarge: "cbor.too_large"
        case .duplicateMapKey: "cbor.duplicate_map_key"
        case .integerOverflow: "cbor.integer_overflow"
        case .trailingBytes: "cbor.trailing_bytes"
        }
    }
}

extension CBORError: LocalizedError {
    /// A human-readable description; never contains the input.
    public var errorDescription: String? {
        switch self {
        case .truncated: "The CBOR ends inside an item."
        case .indefiniteLength: "The CBOR holds an indefinite-length item."
        case .reservedAdditionalInformation: "The CBOR uses reserved additional information (28 to 30)."
        case .unsupportedType: "The CBOR holds a tag, a float or a simple value other than false, true and null."
        case .invalidUTF8: "A CBOR text string is not valid UTF-8."
        case .tooDeep: "The CBOR is nested more than \(CBORReader.maximumDepth) levels deep."
        case .tooLarge: "A CBOR item declares more content than the input holds."
        case .duplicateMapKey: "A CBOR map holds the same key twice."
        case .integerOverflow: "A CBOR negative integer is below the 64-bit range."
        case .trailingBytes: "Bytes follow the CBOR item."
        }
    }
}
