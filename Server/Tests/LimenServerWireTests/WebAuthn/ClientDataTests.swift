import Foundation
import LimenServerWire
import LimenWire
import Testing

@Suite("Client data: read strictly, checked against the ceremony, challenge and origins")
struct ClientDataTests {
    static let challenge = [UInt8](repeating: 0x42, count: 32)
    static let origins: Set<String> = ["https://example.com"]

    static func json(_ text: String) -> [UInt8] { Array(text.utf8) }

    static func clientData(type: String = "webauthn.get", challenge: [UInt8] = challenge, extra: String = "") -> [UInt8]
    {
        json(
            #"{"type":"\#(type)","challenge":"\#(Base64URL.encode(challenge))","origin":"https://example.com"\#(extra)}"#
        )
    }

    @Test("a browser's client data is read, unknown members ignored")
    func reads() throws {
        let data = try ClientData(
            json: Self.clientData(extra: #","crossOrigin":false,"other_keys_can_be_added_here":"x""#))
        #expect(data.type == "webauthn.get")
        #expect(data.challenge == Self.challenge)
        #expect(data.origin == "https://example.com")
        #expect(!data.crossOrigin)
        #expect(data.topOrigin == nil)
        try data.check(type: .get, challenge: Self.challenge, allowedOrigins: Self.origins)
    }

    @Test(
        "client data that is not the JSON WebAuthn specifies is refused",
        arguments: [
            "", "[]", "{}", #"{"type":"webauthn.get","challenge":"QkJC","origin":"https://example.com""#,
            #"{"type":1,"challenge":"QkJC","origin":"https://example.com"}"#,
            #"{"type":"webauthn.get","challenge":"QkJC+/==","origin":"https://example.com"}"#,
            #"{"type":"webauthn.get","challenge":"QkJC","origin":"https://example.com","crossOrigin":"no"}"#,
            #"{"type":"webauthn.get","challenge":"QkJC","origin":"https://example.com","topOrigin":1}"#,
            #"{"type":"webauthn.get","type":"webauthn.get","challenge":"QkJC","origin":"https://example.com"}"#,
            #"{"type":"webauthn.get","challenge":"QkJC"}"#,
        ])
    func malformed(text: String) {
        #expect(throws: WebAuthnError.clientDataMalformed) { try ClientData(json: Self.json(text)) }
    }

    @Test("another ceremony's type is refused")
    func type() throws {
        let data = try ClientData(json: Self.clientData(type: "webauthn.create"))
        #expect(throws: WebAuthnError.clientDataTypeMismatch) {
            try data.check(type: .get, challenge: Self.challenge, allowedOrigins: Self.origins)
        }
        try data.check(type: .create, challenge: Self.challenge, allowedOrigins: Self.origins)
    }

    @Test("a challenge other than the one issued is refused, whatever its length")
    func challenge() throws {
        let data = try ClientData(json: Self.clientData())
        for other in [Self.challenge.dropLast() + [0x43], Array(Self.challenge.dropLast()), Self.challenge + [0], []] {
            #expect(throws: WebAuthnError.challengeMismatch) {
                try data.check(type: .get, challenge: Array(other), allowedOrigins: Self.origins)
            }
        }
    }

    @Test("an origin not allowed is refused, compared exactly")
    func origin() throws {
        let data = try ClientData(json: Self.clientData())
        for allowed: Set<String> in [
            [], ["https://example.com/"], ["https://evil.example.com"], ["http://example.com"],
        ] {
            #expect(throws: WebAuthnError.originNotAllowed) {
                try data.check(type: .get, challenge: Self.challenge, allowedOrigins: allowed)
            }
        }
    }

    @Test("a cross-origin ceremony is refused unless allowed")
    func crossOrigin() throws {
        let data = try ClientData(
            json: Self.clientData(extra: #","crossOrigin":true,"topOrigin":"https://embedder.example""#))
        #expect(data.topOrigin == "https://embedder.example")
        #expect(throws: WebAuthnError.crossOriginNotAllowed) {
            try data.check(type: .get, challenge: Self.challenge, allowedOrigins: Self.origins)
        }
        try data.check(type: .get, challenge: Self.challenge, allowedOrigins: Self.origins, allowsCrossOrigin: true)
    }
}
