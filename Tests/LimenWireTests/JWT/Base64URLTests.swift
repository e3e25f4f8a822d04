import Foundation
import LimenWire
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    /// What Foundation decodes from the same text turned into padded standard base64 (RFC 4648 §4).
    static func foundationDecode(_ text: String) -> Data? {
        var standard = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        standard += String(repeating: "=", count: (4 - standard.count % 4) % 4)
        return Data(base64Encoded: standard)
    }

    /// Foundation's padded standard base64 of `bytes`, turned into unpadded base64url.
    static func foundationEncode(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    @Test(
        "every length encodes as Foundation does, round-trips, and decodes as Foundation decodes it", arguments: 0..<70)
    func roundTrip(length: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        let encoded = Base64URL.encode(bytes)
        #expect(encoded == Self.foundationEncode(bytes))
        #expect(Base64URL.decode(encoded) == Data(bytes))
        #expect(Base64URL.decode(encoded) == Self.foundationDecode(encoded))
    }

    @Test("all 64 characters of the alphabet decode to their values")
    func alphabet() throws {
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        let decoded = try #require(Base64URL.decode(alphabet))
        #expect(Base64URL.encode(decoded) == alphabet)
        #expect(decoded == Self.foundationDecode(alphabet))
    }

    @Test("a substring of a token decodes on its own characters")
    func substring() {
        let token = "e30.QUJD.c2ln"
        let middle = token.split(separator: ".")[1]
        #expect(Base64URL.decode(middle) == Data("ABC".utf8))
    }

    @Test(
        "padding, standard base64 characters, whitespace, non-ASCII and impossible lengths are refused",
        arguments: ["QQ==", "QUI=", "Q", "QUJDR", "a+bc", "a/bc", "QU JD", "QUJ\n", "QUJé", "QUJ."]
    )
    func refused(text: String) {
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("the unused low bits of the last character are ignored, as Foundation ignores them")
    func unusedBits() {
        #expect(Base64URL.decode("QR") == Data("A".utf8))
        #expect(Base64URL.decode("QUJ") == Data("AB".utf8))
        #expect(Base64URL.decode("QR") == Self.foundationDecode("QR"))
    }
}
