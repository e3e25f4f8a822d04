import Foundation
import Testing

@testable import LimenWire

@Suite("JSON parser")
struct JSONParserTests {
    static func parse(_ document: String) throws(JSONParsingError) -> JSONValue {
        try JSONParser.parse(Data(document.utf8))
    }

    static func parse(bytes: [UInt8]) throws(JSONParsingError) -> JSONValue {
        try JSONParser.parse(Data(bytes))
    }

    /// Documents RFC 8259 allows, with the values they hold.
    static let accepted: [(String, JSONValue)] = [
        ("{}", .object([:])),
        ("[]", .array([])),
        (" \t\r\n{ \"a\" : [ 1 , 2 ] } \n", .object(["a": .array([.number(1), .number(2)])])),
        (
            #"{"a":{"b":[null,true,false,{"c":"d"}]}}"#,
            .object(["a": .object(["b": .array([.null, .bool(true), .bool(false), .object(["c": .string("d")])])])])
        ),
        (#""top-level string""#, .string("top-level string")),
        ("true", .bool(true)),
        ("false", .bool(false)),
        ("null", .null),
        ("0", .number(0)),
        ("-1", .number(-1)),
        ("1700000000", .number(1_700_000_000)),
        ("3.25", .number(3.25)),
        ("12.5e-1", .number(1.25)),
        ("1E2", .number(100)),
        ("1e+2", .number(100)),
        ("-2e3", .number(-2000)),
        ("0.0", .number(0)),
        (#""\"\\\/\b\f\n\r\t""#, .string("\"\\/\u{8}\u{C}\n\r\t")),
        (#""\u00e9\u00E9\u0041""#, .string("ééA")),
        (#""\ud83d\ude00 \uD83D\uDE00""#, .string("😀 😀")),
        (#""a\u0000b""#, .string("a\u{0}b")),
        ("\"café ✓ 😀 \u{7F}\"", .string("café ✓ 😀 \u{7F}")),
        (#"{"escaped\n":"x\ty"}"#, .object(["escaped\n": .string("x\ty")])),
        (#"{"a":1,"b":1}"#, .object(["a": .number(1), "b": .number(1)])),
    ]

    @Test("documents RFC 8259 allows are read to the values they hold", arguments: accepted)
    func accepts(document: String, expected: JSONValue) throws {
        #expect(try Self.parse(document) == expected)
    }

    /// A document RFC 8259 (or a limit of the parser) forbids, with the reason it is refused.
    struct Refused: Sendable, CustomTestStringConvertible {
        let testDescription: String
        let document: [UInt8]
        let reason: JSONParsingError

        init(_ testDescription: String, _ document: [UInt8], _ reason: JSONParsingError) {
            self.testDescription = testDescription
            self.document = document
            self.reason = reason
        }
    }

    static let refused: [Refused] = [
        Refused("empty input", [], .unexpectedEnd),
        Refused("only whitespace", bytes(" \n"), .unexpectedEnd),
        Refused("trailing garbage", bytes(#"{"a":1} x"#), .trailingContent),
        Refused("a second value", bytes("[1] [2]"), .trailingContent),
        Refused("an extra closing brace", bytes(#"{"a":1}}"#), .trailingContent),
        Refused("a leading zero", bytes("01"), .invalidNumber),
        Refused("a negative leading zero", bytes("-012"), .invalidNumber),
        Refused("a plus sign", bytes("+1"), .unexpectedCharacter),
        Refused("no digit before the point", bytes(".5"), .unexpectedCharacter),
        Refused("no digit after the point", bytes("1."), .invalidNumber),
        Refused("no digit between point and exponent", bytes("1.e5"), .invalidNumber),
        Refused("no exponent digit", bytes("1e"), .invalidNumber),
        Refused("no exponent digit after its sign", bytes("1e+"), .invalidNumber),
        Refused("a bare minus", bytes("-"), .invalidNumber),
        Refused("a minus before a letter", bytes("[-a]"), .invalidNumber),
        Refused("NaN", bytes("NaN"), .unexpectedCharacter),
        Refused("Infinity", bytes("Infinity"), .unexpectedCharacter),
        Refused("-Infinity", bytes("-Infinity"), .invalidNumber),
        Refused("a hex number", bytes("0x10"), .trailingContent),
        Refused("a number beyond Double", bytes("1e400"), .numberOutOfRange),
        Refused("a negative number beyond Double", bytes("-1e400"), .numberOutOfRange),
        Refused("an unescaped control character", bytes("\"a\u{1}b\""), .controlCharacterInString),
        Refused("an unescaped tab", bytes("\"a\tb\""), .controlCharacterInString),
        Refused("an unescaped newline after an escape", bytes("\"\\n\n\""), .controlCharacterInString),
        Refused("an undefined escape", bytes(#""\x41""#), .invalidEscape),
        Refused("an escaped single quote", bytes(#""\'""#), .invalidEscape),
        Refused("an upper-case U escape", bytes(#""\U0041""#), .invalidEscape),
        Refused("a short \\u escape", bytes(#""\u12""#), .invalidEscape),
        Refused("a non-hex \\u escape", bytes(#""\u00g0""#), .invalidEscape),
        Refused("a lone high surrogate", bytes(#""\ud800""#), .invalidSurrogate),
        Refused("a high surrogate before text", bytes(#""\ud800abcdef""#), .invalidSurrogate),
        Refused("a lone low surrogate", bytes(#""\udc00""#), .invalidSurrogate),
        Refused("a high surrogate before a non-surrogate", bytes(#""\ud800\u0041""#), .invalidSurrogate),
        Refused("two high surrogates", bytes(#""\ud800\ud800""#), .invalidSurrogate),
        Refused("a truncated UTF-8 sequence", [0x22, 0xC3, 0x22], .invalidUTF8),
        Refused("an overlong UTF-8 slash", [0x22, 0xC0, 0xAF, 0x22], .invalidUTF8),
        Refused("an overlong three-byte UTF-8 form", [0x22, 0xE0, 0x80, 0xAF, 0x22], .invalidUTF8),
        Refused("a surrogate encoded in UTF-8", [0x22, 0xED, 0xA0, 0x80, 0x22], .invalidUTF8),
        Refused("UTF-8 beyond U+10FFFF", [0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], .invalidUTF8),
        Refused("a lone UTF-8 continuation byte", [0x22, 0x80, 0x22], .invalidUTF8),
        Refused("the byte 0xFF", [0x22, 0xFF, 0x22], .invalidUTF8),
        Refused("invalid UTF-8 after an escape", [0x22, 0x5C, 0x6E, 0xC3, 0x28, 0x22], .invalidUTF8),
        Refused("a block comment", bytes(#"{"a":1 /* no */}"#), .unexpectedCharacter),
        Refused("a line comment", bytes("// no\n{}"), .unexpectedCharacter),
        Refused("a trailing comma in an array", bytes("[1,]"), .unexpectedCharacter),
        Refused("a trailing comma in an object", bytes(#"{"a":1,}"#), .unexpectedCharacter),
        Refused("single-quoted names", bytes("{'a':1}"), .unexpectedCharacter),
        Refused("single-quoted strings", bytes("['a']"), .unexpectedCharacter),
        Refused("an unquoted name", bytes("{a:1}"), .unexpectedCharacter),
        Refused("a missing colon", bytes(#"{"a" 1}"#), .unexpectedCharacter),
        Refused("a missing comma", bytes("[1 2]"), .unexpectedCharacter),
        Refused("a byte order mark", [0xEF, 0xBB, 0xBF] + bytes("{}"), .unexpectedCharacter),
        Refused("a form feed as whitespace", bytes("\u{C}{}"), .unexpectedCharacter),
        Refused("a no-break space as whitespace", bytes("{\u{A0}}"), .unexpectedCharacter),
        Refused("a misspelt literal", bytes("trUe"), .unexpectedCharacter),
        Refused("a truncated literal", bytes("nul"), .unexpectedEnd),
        Refused("an unterminated string", bytes(#""abc"#), .unexpectedEnd),
        Refused("an unterminated object", bytes(#"{"a":1"#), .unexpectedEnd),
        Refused("an unterminated array", bytes("[1,2"), .unexpectedEnd),
        Refused("a duplicate member name", bytes(#"{"a":1,"a":2}"#), .duplicateMemberName("a")),
        Refused(
            "a duplicate name with equal values", bytes(#"{"alg":"ES256","alg":"ES256"}"#),
            .duplicateMemberName("alg")
        ),
        Refused(
            "a duplicate name spelt with an escape", bytes(#"{"alg":1,"\u0061lg":2}"#), .duplicateMemberName("alg")),
        Refused("a duplicate name in a nested object", bytes(#"[{"k":{"x":1,"x":1}}]"#), .duplicateMemberName("x")),
    ]

    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test("documents outside RFC 8259 are refused, each for its reason", arguments: refused)
    func refuses(_ refused: Refused) {
        #expect(throws: refused.reason) { try Self.parse(bytes: refused.document) }
    }

    @Test("-0 keeps its sign")
    func negativeZero() throws {
        let value = try #require(try Self.parse("-0").numberValue)
        #expect(value == 0 && value.sign == .minus)
    }

    @Test(
        "numbers read exactly as Double(String) reads them",
        arguments: [
            "9007199254740992", "9007199254740993", "-9007199254740993", "12345678901234567890", "0.1", "1e-7",
            "123456789012345678901234567890e-10", "1.7976931348623157e308", "5e-324", "2.2250738585072011e-308",
            "1e-400", "-1e-400", "0.30000000000000004", "1234567890123456789012345678901234567890",
        ]
    )
    func numbersMatchSwift(text: String) throws {
        let expected = try #require(Double(text))
        let value = try #require(try Self.parse(text).numberValue)
        #expect(value.bitPattern == expected.bitPattern)
    }

    @Test("names Swift compares as equal (precomposed and decomposed é) are duplicates")
    func canonicallyEquivalentNames() {
        #expect(throws: JSONParsingError.duplicateMemberName("e\u{301}")) { try Self.parse(#"{"é":1,"e\u0301":2}"#) }
    }

    static func nested(depth: Int) -> String {
        String(repeating: #"{"a":["#, count: depth / 2) + (depth.isMultiple(of: 2) ? "" : "[") + "1"
            + (depth.isMultiple(of: 2) ? "" : "]") + String(repeating: "]}", count: depth / 2)
    }

    @Test("containers nest up to the maximum depth")
    func maximumDepth() throws {
        #expect(JSONParser.maximumDepth == 64)
        var value = try Self.parse(Self.nested(depth: 64))
        var depth = 0
        while true {
            if case .object(let members) = value, let inner = members["a"] {
                value = inner
            } else if case .array(let elements) = value, let inner = elements.first {
                value = inner
            } else {
                break
            }
            depth += 1
        }
        #expect(depth == 64 && value == .number(1))
    }

    @Test("one container deeper than the maximum is refused", arguments: [65, 66])
    func tooDeep(depth: Int) {
        #expect(throws: JSONParsingError.tooDeep) { try Self.parse(Self.nested(depth: depth)) }
    }

    @Test("a hostile million nested brackets is refused without exhausting the stack")
    func hostileNesting() {
        #expect(throws: JSONParsingError.tooDeep) { try Self.parse(String(repeating: "[", count: 1_000_000)) }
    }

    @Test("a 1 MB string survives intact, with and without escapes")
    func megabyteString() throws {
        let text = String(repeating: "abcdéf✓😀", count: 75_000)
        #expect(try Self.parse("\"\(text)\"") == .string(text))
        #expect(try Self.parse("\"\\n\(text)\"") == .string("\n" + text))
    }

    @Test("a 1 MB string with a control character near its end is refused")
    func megabyteStringWithControlCharacter() {
        let text = String(repeating: "a", count: 1_048_576) + "\u{1F}"
        #expect(throws: JSONParsingError.controlCharacterInString) { try Self.parse("\"\(text)\"") }
    }

    @Test("a slice of a larger buffer is parsed on its own bytes")
    func dataSlice() throws {
        let data = Data(#"xx{"a":1}yy"#.utf8)
        #expect(try JSONParser.parse(data[2..<9]) == .object(["a": .number(1)]))
    }

    @Test("JSONObject gives the members of an object and nil for anything else")
    func objects() {
        #expect(JSONObject.decode(Data(#"{"a":"b"}"#.utf8)) == ["a": .string("b")])
        #expect(JSONObject.decode(Data("[1]".utf8)) == nil)
        #expect(JSONObject.decode(Data(#"{"a":1,"a":1}"#.utf8)) == nil)
    }

    @Test("what JSONValue.serialized() writes reads back as the same value")
    func serializedRoundTrip() throws {
        let value = JSONValue.object([
            "exp": .number(1_800_000_000), "x": .number(-0.5), "s": .string("a\"b\\c\n\u{1}/é 😀"),
            "aud": .array([.string("a"), .null, .bool(false)]), "o": .object(["n": .object([:])]),
        ])
        #expect(try JSONParser.parse(Data(value.serialized())) == value)
    }

    @Test("every refusal has its own stable code")
    func codes() {
        let reasons = Self.refused.map(\.reason) + [.tooDeep]
        let codes = Set(reasons.map(\.code))
        #expect(codes.count == 11)
        #expect(codes.allSatisfy { $0.hasPrefix("json.") })
        #expect(JSONParsingError.tooDeep.errorDescription?.contains("64") == true)
    }
}
