import LimenServerWire

extension CBORValue {
    /// The item in CBOR's shortest form: test inputs are built with it (the server never encodes CBOR).
    var encoded: [UInt8] {
        switch self {
        case .unsigned(let value): Self.head(0, value)
        case .negative(let value): Self.head(1, UInt64(-1 - value))
        case .bytes(let bytes): Self.head(2, UInt64(bytes.count)) + bytes
        case .text(let text): Self.head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .array(let items): Self.head(4, UInt64(items.count)) + items.flatMap(\.encoded)
        case .map(let entries):
            Self.head(5, UInt64(entries.count)) + entries.flatMap { $0.key.encoded + $0.value.encoded }
        case .bool(let value): [value ? 0xf5 : 0xf4]
        case .null: [0xf6]
        }
    }

    /// The initial byte of major type `major` and its argument, in the fewest bytes.
    private static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24...0xFF: return [type | 24, UInt8(argument)]
        case 0x100...0xFFFF: return [type | 25] + bigEndian(argument, count: 2)
        case 0x1_0000...0xFFFF_FFFF: return [type | 26] + bigEndian(argument, count: 4)
        default: return [type | 27] + bigEndian(argument, count: 8)
        }
    }

    private static func bigEndian(_ value: UInt64, count: Int) -> [UInt8] {
        (0..<count).reversed().map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
