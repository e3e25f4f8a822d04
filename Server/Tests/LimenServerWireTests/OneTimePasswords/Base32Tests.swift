import LimenServerWire
import Testing

@Suite("Base32: RFC 4648 encoding without padding, strict decoding")
struct Base32Tests {
    /// RFC 4648 §10's test vectors, padding removed as otpauth URIs carry them.
    static let rfcTable: [(String, String)] = [
        ("", ""), ("f", "MY"), ("fo", "MZXQ"), ("foo", "MZXW6"), ("foob", "MZXW6YQ"), ("fooba", "MZXW6YTB"),
        ("foobar", "MZXW6YTBOI"),
    ]

    @Test("RFC 4648 §10's vectors encode, and decode padded, unpadded, lower case and spaced", arguments: rfcTable)
    func vectors(text: String, encoded: String) throws {
        let bytes = Array(text.utf8)
        #expect(Base32.encode(bytes) == encoded)
        let padding = String(repeating: "=", count: (8 - encoded.count % 8) % 8)
        for form in [encoded, encoded + padding, encoded.lowercased(), " " + encoded.lowercased() + " " + padding] {
            #expect(try Base32.decode(form) == bytes, "\(form)")
        }
    }

    @Test("every byte value survives a round trip")
    func roundTrip() throws {
        let bytes = (0...255).map { UInt8($0) }
        for length in 0...bytes.count {
            #expect(try Base32.decode(Base32.encode(Array(bytes.prefix(length)))) == Array(bytes.prefix(length)))
        }
    }

    @Test(
        "characters outside the alphabet, and letters after padding, are refused",
        arguments: [
            "MZXW0", "MZXW1", "MZXW8", "MZXW9", "MZ-XW", "MZ\tXW", "MZ\nXW", "MZXW6+", "MZ/W6", "MZXÉ6",
            "MZＸW6", "MY======MY", "M=Y", "=MY", "MZXW6\u{0}",
        ])
    func invalidCharacters(text: String) {
        #expect(throws: Base32Error.invalidCharacter) { try Base32.decode(text) }
    }

    @Test("lengths no whole number of bytes encodes are refused", arguments: ["M", "MZX", "MZXW6Y", "MZXW6YTBO", "A="])
    func invalidLengths(text: String) {
        #expect(throws: Base32Error.invalidLength) { try Base32.decode(text) }
    }

    @Test(
        "set bits beyond the last byte are refused", arguments: ["MZ", "MF", "MZXR", "MZXW7", "MZXW6YR", "MZXW6YTBOJ"])
    func trailingBits(text: String) {
        #expect(throws: Base32Error.nonZeroTrailingBits) { try Base32.decode(text) }
    }
}
