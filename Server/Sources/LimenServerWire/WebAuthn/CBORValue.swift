/// One CBOR data item (RFC 8949) of the subset WebAuthn uses, as ``CBORReader`` reads it.
///
/// Maps keep their entries in the order they were written; the two subscripts find a member by an integer key (COSE
/// labels) or a text key (attestation objects).
///
/// ```swift
/// let key = try CBORReader.read(coseKeyBytes)
/// let curve = key[-1]?.integerValue   // 1 for P-256
/// ```
public enum CBORValue: Sendable {
    /// An unsigned integer (major type 0).
    case unsigned(UInt64)
    /// A negative integer (major type 1), as its value: the encoded argument `n` stands for `-1 - n`.
    case negative(Int64)
    /// A byte string (major type 2).
    case bytes([UInt8])
    /// A text string (major type 3), valid UTF-8.
    case text(String)
    /// An array (major type 4).
    case array([CBORValue])
    /// A map (major type 5), its entries in the order they were written; no key appears twice.
    case map([(key: CBORValue, value: CBORValue)])
    /// `false` or `true` (simple values 20 and 21).
    case bool(Bool)
    /// `null` (simple value 22).
    case null

    /// The integer, when this is an integer that fits an `Int64`.
    public var integerValue: Int64? {
        switch self {
        case .unsigned(let value): Int64(exactly: value)
        case .negative(let value): value
        default: nil
        }
    }

    /// The bytes, when this is a byte string.
    public var bytesValue: [UInt8]? {
        if case .bytes(let value) = self { value } else { nil }
    }

    /// The text, when this is a text string.
    public var textValue: String? {
        if case .text(let value) = self { value } else { nil }
    }

    /// The entries, when this is a map.
    public var mapEntries: [(key: CBORValue, value: CBORValue)]? {
        if case .map(let entries) = self { entries } else { nil }
    }

    /// The value of the map member whose key is the integer `key`; `nil` when this is not a map or has no such key.
    public subscript(_ key: Int64) -> CBORValue? {
        mapEntries?.first { $0.key.integerValue == key }?.value
    }

    /// The value of the map member whose key is the text `key`; `nil` when this is not a map or has no such key.
    public subscript(_ key: String) -> CBORValue? {
        mapEntries?.first { $0.key.textValue == key }?.value
    }
}

extension CBORValue: Hashable {
    /// Whether two items are the same value: same type, same content, map entries in the same order.
    public static func == (lhs: CBORValue, rhs: CBORValue) -> Bool {
        switch (lhs, rhs) {
        case (.unsigned(let left), .unsigned(let right)): left == right
        case (.negative(let left), .negative(let right)): left == right
        case (.bytes(let left), .bytes(let right)): left == right
        case (.text(let left), .text(let right)): left == right
        case (.array(let left), .array(let right)): left == right
        case (.map(let left), .map(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        case (.bool(let left), .bool(let right)): left == right
        case (.null, .null): true
        default: false
        }
    }

    /// Hashes the item's content (items of different types that hash alike are still told apart by `==`).
    public func hash(into hasher: inout Hasher) {
        switch self {
        case .unsigned(let value): hasher.combine(value)
        case .negative(let value): hasher.combine(value)
        case .bytes(let value): hasher.combine(value)
        case .text(let value): hasher.combine(value)
        case .array(let value): hasher.combine(value)
        case .map(let entries):
            hasher.combine(entries.count)
            for entry in entries {
                hasher.combine(entry.key)
                hasher.combine(entry.value)
            }
        case .bool(let value): hasher.combine(value)
        case .null: hasher.combine(0 as UInt8)
        }
    }
}
