import Foundation
import LimenWire
import Testing

@Suite("Form encoding")
struct FormEncodingTests {
    static func decoded(_ body: String) -> [String] { FormEncoding.decode(body).map { "\($0.0)=\($0.1)" } }

    @Test(
        "a body decodes into its fields in order: + is a space, %XX a byte, a malformed escape is kept as sent",
        arguments: [
            (
                "token=eyJ.a-b_c.d~e&token_type_hint=access_token",
                ["token=eyJ.a-b_c.d~e", "token_type_hint=access_token"]
            ),
            ("a=1&&b=&=c&d", ["a=1", "b=", "=c", "d="]),
            ("x=a+b&y=%2B%20%26%3D&z=%ZZ", ["x=a b", "y=+ &=", "z=%ZZ"]),
            ("name=caf%C3%A9&raw=café", ["name=café", "raw=café"]),
            ("", []),
            ("&&&", []),
            ("k=v=w", ["k=v=w"]),
        ])
    func decodes(_ body: String, _ expected: [String]) {
        #expect(Self.decoded(body) == expected)
    }

    @Test(
        "a name or value is escaped byte by byte exactly as Foundation escapes it to RFC 3986's unreserved characters",
        arguments: [
            "", "plain-text_1.2~3", "a b+c&d=e%f", "café", "🔐 key", "\u{FEFF}x", "\u{0}\u{7F}", "/?#[]@!$'()*,;:",
            "e\u{301}", "http://127.0.0.1:53124/callback",
        ])
    func escapesAsFoundation(_ text: String) {
        let unreserved = CharacterSet(
            charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        #expect(FormEncoding.escape(text) == text.addingPercentEncoding(withAllowedCharacters: unreserved))
        #expect(FormEncoding.decode("k=" + FormEncoding.escape(text)).first?.1 == text)
    }

    @Test("a combining mark right after a separator does not hide it (fields split on bytes, not characters)")
    func combiningMarkAfterSeparator() {
        #expect(Self.decoded("a=\u{301}b&\u{301}c=d") == ["a=\u{301}b", "\u{301}c=d"])
    }

    /// Found by the FormBody fuzz harness (FUZZING.md): `removingPercentEncoding` dropped a leading escaped U+FEFF, so
    /// `%EF%BB%BFcode` read as `code` and the field did not read back as it was written.
    @Test("an escaped byte order mark at the start of a name or value is kept, not dropped")
    func leadingByteOrderMark() {
        #expect(Self.decoded("%EF%BB%BFcode=%EF%BB%BFx") == ["\u{FEFF}code=\u{FEFF}x"])
        let fields = [("\u{FEFF}a", "\u{FEFF}")]
        #expect(FormEncoding.decode(FormEncoding.encode(fields)).map { "\($0.0)=\($0.1)" } == ["\u{FEFF}a=\u{FEFF}"])
    }

    @Test("escapes of bytes that are not UTF-8, or cut short, keep the part as sent")
    func malformedEscapes() {
        #expect(Self.decoded("a=%FF&b=%E2%82&c=%4&d=%") == ["a=%FF", "b=%E2%82", "c=%4", "d=%"])
    }

    @Test("what encode writes, decode reads back, whatever the characters")
    func roundTrip() {
        let fields = [
            ("redirect_uri", "http://127.0.0.1:53682/callback?x=1&y=2"), ("scope", "openid profile"),
            ("name", "Zoë + \u{301}ü=%"),
        ]
        #expect(
            FormEncoding.decode(FormEncoding.encode(fields)).map { "\($0.0)=\($0.1)" }
                == fields.map { "\($0.0)=\($0.1)" })
    }
}
