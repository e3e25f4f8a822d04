import Foundation
import LimenWire
import Testing

@Suite("Token JSON")
struct TokenJSONTests {
    static func token(payload: String) -> String {
        let header = Base64URL.encode(Data(#"{"alg":"ES256","typ":"JWT"}"#.utf8))
        return "\(header).\(Base64URL.encode(Data(payload.utf8))).c2ln"
    }

    @Test("booleans stay booleans and 0 / 1 stay numbers; nested values, null and unicode survive")
    func kinds() throws {
        let payload = #"""
            {"t":true,"f":false,"one":1,"zero":0,"pi":3.25,"big":17000000000,"neg":-2e3,"s":"caf\u00e9 ✓",
             "n":null,"a":[true,1,"x",[]],"o":{"email_verified":false,"level":0}}
            """#
        let jwt = try UnverifiedJWT(Self.token(payload: payload))
        #expect(jwt[claim: "t"] == .bool(true))
        #expect(jwt[claim: "f"] == .bool(false))
        #expect(jwt[claim: "one"] == .number(1))
        #expect(jwt[claim: "zero"] == .number(0))
        #expect(jwt[claim: "pi"] == .number(3.25))
        #expect(jwt[claim: "big"] == .number(17_000_000_000))
        #expect(jwt[claim: "neg"] == .number(-2000))
        #expect(jwt[claim: "s"] == .string("café ✓"))
        #expect(jwt[claim: "n"] == .null)
        #expect(jwt[claim: "a"] == .array([.bool(true), .number(1), .string("x"), .array([])]))
        #expect(jwt[claim: "o"] == .object(["email_verified": .bool(false), "level": .number(0)]))
    }

    @Test("a payload that is not a JSON object is refused", arguments: ["[1,2]", "\"text\"", "{\"a\":", "42"])
    func notAnObject(payload: String) {
        #expect(throws: JWTDecodingError.invalidJSON(.payload)) { try UnverifiedJWT(Self.token(payload: payload)) }
    }

    @Test("a header naming alg twice is refused, so no two readers can pick different algorithms")
    func duplicateHeaderParameter() {
        let header = Base64URL.encode(Data(#"{"alg":"none","alg":"ES256"}"#.utf8))
        #expect(throws: JWTDecodingError.invalidJSON(.header)) { try UnverifiedJWT("\(header).e30.c2ln") }
    }

    @Test("a payload naming a claim twice is refused")
    func duplicateClaim() {
        #expect(throws: JWTDecodingError.invalidJSON(.payload)) {
            try UnverifiedJWT(Self.token(payload: #"{"sub":"alice","sub":"mallory"}"#))
        }
    }
}
