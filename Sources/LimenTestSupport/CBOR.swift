/// The CBOR the authenticator writes (RFC 8949, definite lengths): integers, byte and text strings, maps.
public indirect enum CBOR: Sendable {
    /// An integer (major types 0 and 1).
    case int(Int)
    /// A byte string.
    case bytes([UInt8])
    /// A text string.
    case text(String)
    /// A map, its entries in the order given.
    case map([(CBOR, CBOR)])

    /// The encoding.
    public var encoded: [UInt8] {
        switch self {
        case .int(let value) where value >= 0: Self.head(0, UInt64(value))
        case .int(let value): Self.head(1, UInt64(-1 - value))
        case .bytes(let bytes): Self.head(2, UInt64(bytes.count)) + bytes
        case .text(let text): Self.head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .map(let entries): Self.head(5, UInt64(entries.count)) + entries.flatMap { $0.0.encoded + $0.1.encoded }
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24..<256: return [type | 24, UInt8(argument)]
        case 256..<65536: return [type | 25, UInt8(argument >> 8), UInt8(argument & 0xff)]
        default: return [type | 26] + (0..<4).reversed().map { UInt8(argument >> (8 * UInt64($0)) & 0xff) }
        }
    }
}
