import Foundation
import LimenWire
import Testing

@Suite("JSON value serialization")
struct JSONValueSerializationTests {
    static func text(_ value: JSONValue) -> String { String(decoding: value.serialized(), as: UTF8.self) }

    @Test("members are written in the byte order of their names, whatever order the dictionary keeps")
    func sortedMembers() {
        let value = JSONValue.object(["b": .null, "a": .bool(true), "B": .bool(false), "é": .null, "aa": .array([])])
        #expect(Self.text(value) == #"{"B":false,"a":true,"aa":[],"b":null,"é":null}"#)
    }

    @Test("whole numbers have no fraction; others keep theirs; beyond 2^53 and non-finite ones stay valid JSON")
    func numbers() {
        #expect(Self.text(.number(1_700_000_000)) == "1700000000")
        #expect(Self.text(.number(-2000)) == "-2000")
        #expect(Self.text(.number(0)) == "0")
        #expect(Self.text(.number(3.25)) == "3.25")
        #expect(Self.text(.number(0.1)) == "0.1")
        #expect(Self.text(.number(1e21)) == "1e+21")
        #expect(Self.text(.number(.infinity)) == "null")
        #expect(Self.text(.number(.nan)) == "null")
    }

    @Test("quotes, backslashes and control characters are escaped; slashes and non-ASCII text are not")
    func strings() {
        #expect(Self.text(.string("a\"b\\c")) == #""a\"b\\c""#)
        #expect(Self.text(.string("\n\r\t\u{08}\u{0C}\u{01}\u{1F}")) == #""\n\r\t\b\f\u0001\u001f""#)
        #expect(Self.text(.string("https://id.example/x")) == #""https://id.example/x""#)
        #expect(Self.text(.string("café ✓ 🔑")) == "\"café ✓ 🔑\"")
    }

    @Test("what is written reads back as the same value through Foundation's decoder")
    func roundTrip() throws {
        let value = JSONValue.object([
            "active": .bool(true), "exp": .number(1_800_000_000), "scope": .string("openid \"profile\"\n"),
            "aud": .array([.string("a"), .string("b")]), "nested": .object(["n": .null, "x": .number(-0.5)]),
        ])
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(value.serialized()))
        #expect(decoded == value)
    }
}
