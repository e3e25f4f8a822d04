import Foundation

/// Reads the strict subset of CBOR (RFC 8949) that WebAuthn needs: attestation objects, COSE keys and authenticator
/// extensions.
///
/// Hand-written, as DESIGN.md §1 item 4 allows for it: no Swift CBOR or WebAuthn library is among the packages Limen
/// may use, and the subset is small. It is fuzzed (`Server/Fuzz/CBOR`) and its results are compared with Python's
/// `cbor2` (`CBORDifferentialTests`).
///
/// What it reads: unsigned and negative integers, byte strings, text strings (valid UTF-8), arrays, maps, `false`,
/// `true` and `null`. What it refuses, each with a ``CBORError``: indefinite lengths, tags, floats, `undefined` and
/// other simple values, nesting deeper than ``maximumDepth``, lengths beyond the bytes left (checked before anything
/// is allocated), a key twice in one map, and negative integers below `Int64.min`.
///
/// What it accepts although CTAP2's canonical form forbids it: integers and lengths not in their shortest form, and map
/// keys out of canonical order. Both are well-formed CBOR with one meaning, nothing is ever re-encoded (signatures are
/// checked over the bytes as received), and refusing them would refuse authenticators that encode loosely.
///
/// ```swift
/// let (coseKey, length) = try CBORReader.readPrefix(bytesAfterCredentialID)
/// let whole = try CBORReader.read(attestationObject)   // refuses trailing bytes
/// ```
public enum CBORReader {
    /// How deeply arrays and maps may nest: a COSE key is one level, an attestation object three.
    public static let maximumDepth = 16

    /// Reads the one item at the start of `bytes`; the item, and how many bytes it took (what follows is the caller's,
    /// as the extensions after a COSE key in authenticator data).
    public static func readPrefix(_ bytes: some ContiguousBytes) throws(CBORError) -> (value: CBORValue, length: Int) {
        let result = bytes.withUnsafeBytes { buffer -> Result<(value: CBORValue, length: Int), CBORError> in
            var cursor = CBORCursor(buffer: buffer)
            do throws(CBORError) {
                let value = try cursor.readItem(depth: 0)
                return .success((value, cursor.offset))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Reads `bytes` as exactly one item; ``CBORError/trailingBytes`` when anything follows it.
    public static func read(_ bytes: some ContiguousBytes) throws(CBORError) -> CBORValue {
        let (value, length) = try readPrefix(bytes)
        let count = bytes.withUnsafeBytes { $0.count }
        guard length == count else { throw .trailingBytes }
        return value
    }
}

/// A position in the bytes ``CBORReader`` reads, and the reading of one item from it.
struct CBORCursor {
    /// The input.
    let buffer: UnsafeRawBufferPointer
    /// Where the next byte is read.
    private(set) var offset = 0

    init(buffer: UnsafeRawBufferPointer) {
        self.buffer = buffer
    }

    /// How many bytes are left.
    private var remaining: Int { buffer.count - offset }

    /// Reads one item; `depth` is how many arrays and maps enclose it.
    mutating func readItem(depth: Int) throws(CBORError) -> CBORValue {
        let initial = try readByte()
        let major = initial >> 5
        let information = initial & 0x1F
        if major == 7 { return try simpleValue(information) }
        let argument = try readArgument(information)
        switch major {
        case 0:
            return .unsigned(argument)
        case 1:
            guard argument <= UInt64(Int64.max) else { throw .integerOverflow }
            return .negative(-1 - Int64(argument))
        case 2:
            return .bytes(Array(try readBytes(count: argument)))
        case 3:
            guard let text = String(validating: try readBytes(count: argument), as: UTF8.self) else {
                throw .invalidUTF8
            }
            return .text(text)
        case 4:
            return .array(try readArray(count: argument, depth: depth))
        case 5:
            return .map(try readMap(count: argument, depth: depth))
        default:
            throw .unsupportedType
        }
    }

    /// `false`, `true` or `null`; anything else of major type 7 is refused.
    private func simpleValue(_ information: UInt8) throws(CBORError) -> CBORValue {
        switch information {
        case 20: .bool(false)
        case 21: .bool(true)
        case 22: .null
        case 28...30: throw .reservedAdditionalInformation
        case 31: throw .indefiniteLength
        default: throw .unsupportedType
        }
    }

    /// The argument that follows the initial byte (RFC 8949 §3): in the byte itself below 24, else in the next 1, 2, 4
    /// or 8 bytes, big-endian.
    private mutating func readArgument(_ information: UInt8) throws(CBORError) -> UInt64 {
        switch information {
        case 0..<24: return UInt64(information)
        case 24: return try readUnsigned(byteCount: 1)
        case 25: return try readUnsigned(byteCount: 2)
        case 26: return try readUnsigned(byteCount: 4)
        case 27: return try readUnsigned(byteCount: 8)
        case 31: throw .indefiniteLength
        default: throw .reservedAdditionalInformation
        }
    }

    private mutating func readByte() throws(CBORError) -> UInt8 {
        guard remaining >= 1 else { throw .truncated }
        defer { offset += 1 }
        return buffer[offset]
    }

    private mutating func readUnsigned(byteCount: Int) throws(CBORError) -> UInt64 {
        guard remaining >= byteCount else { throw .truncated }
        var value: UInt64 = 0
        for index in offset..<offset + byteCount {
            value = value << 8 | UInt64(buffer[index])
        }
        offset += byteCount
        return value
    }

    /// The next `count` bytes, after checking that the input holds them.
    private mutating func readBytes(count: UInt64) throws(CBORError) -> UnsafeRawBufferPointer {
        guard count <= UInt64(remaining) else { throw .tooLarge }
        let start = offset
        offset += Int(count)
        return UnsafeRawBufferPointer(rebasing: buffer[start..<offset])
    }

    /// `count` items; each takes at least one byte, so a count beyond the bytes left is refused before any storage is
    /// reserved.
    private mutating func readArray(count: UInt64, depth: Int) throws(CBORError) -> [CBORValue] {
        guard depth < CBORReader.maximumDepth else { throw .tooDeep }
        guard count <= UInt64(remaining) else { throw .tooLarge }
        var items: [CBORValue] = []
        items.reserveCapacity(Int(count))
        for _ in 0..<count {
            items.append(try readItem(depth: depth + 1))
        }
        return items
    }

    /// `count` key-value pairs, two items each, no key twice.
    private mutating func readMap(count: UInt64, depth: Int) throws(CBORError) -> [(key: CBORValue, value: CBORValue)] {
        guard depth < CBORReader.maximumDepth else { throw .tooDeep }
        guard count <= UInt64(remaining / 2) else { throw .tooLarge }
        var entries: [(key: CBORValue, value: CBORValue)] = []
        entries.reserveCapacity(Int(count))
        var keys: Set<CBORValue> = []
        for _ in 0..<count {
            let key = try readItem(depth: depth + 1)
            guard keys.insert(key).inserted else { throw .duplicateMapKey }
            entries.append((key, try readItem(depth: depth + 1)))
        }
        return entries
    }
}
