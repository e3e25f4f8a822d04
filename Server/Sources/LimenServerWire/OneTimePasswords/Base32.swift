/// RFC 4648 §6 base32, as `otpauth` URIs carry TOTP secrets: upper case, without `=` padding.
///
/// ```swift
/// Base32.encode(Array("foobar".utf8))     // "MZXW6YTBOI"
/// try Base32.decode("mzxw 6ytb oi======") // the bytes of "foobar"
/// ```
package enum Base32 {
    /// RFC 4648 Table 3.
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567".utf8)

    /// `bytes` in base32, upper case, without padding.
    package static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count * 8 + 4) / 5)
        var buffer: UInt32 = 0
        var bitCount = 0
        for byte in bytes {
            buffer = (buffer << 8) | UInt32(byte)
            bitCount += 8
            while bitCount >= 5 {
                bitCount -= 5
                output.append(alphabet[Int((buffer >> UInt32(bitCount)) & 0x1F)])
            }
        }
        if bitCount > 0 {
            output.append(alphabet[Int((buffer << UInt32(5 - bitCount)) & 0x1F)])
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The bytes `text` encodes. Lower case is read as upper case; spaces anywhere and `=` padding at the end are
    /// ignored (so grouped `ABCD EFGH` and padded `MY======` both read). Anything else is refused: another character,
    /// `=` followed by a letter, a length no bytes encode, or set bits after the last byte.
    package static func decode(_ text: String) throws(Base32Error) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count * 5 / 8)
        var buffer: UInt32 = 0
        var bitCount = 0
        var characterCount = 0
        var padded = false
        for byte in text.utf8 {
            if byte == UInt8(ascii: " ") { continue }
            if byte == UInt8(ascii: "=") {
                padded = true
                continue
            }
            guard !padded, let value = value(of: byte) else { throw .invalidCharacter }
            characterCount += 1
            buffer = (buffer << 5) | UInt32(value)
            bitCount += 5
            if bitCount >= 8 {
                bitCount -= 8
                output.append(UInt8(truncatingIfNeeded: buffer >> UInt32(bitCount)))
            }
            buffer &= (1 << UInt32(bitCount)) - 1
        }
        // RFC 4648 §6: a final quantum has 2, 4, 5 or 7 characters, so 1, 3 or 6 characters encode no whole byte.
        guard ![1, 3, 6].contains(characterCount % 8) else { throw .invalidLength }
        guard buffer == 0 else { throw .nonZeroTrailingBits }
        return output
    }

    /// The five bits `byte` stands for; `nil` when it is not in the alphabet (either case).
    private static func value(of byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a")
        case UInt8(ascii: "2")...UInt8(ascii: "7"): byte - UInt8(ascii: "2") + 26
        default: nil
        }
    }
}
