import Foundation
import Limen
import Testing

@Suite("Certificate pinning configuration")
struct PinningConfigurationTests {
    static let first = Data(repeating: 1, count: 32).base64EncodedString()
    static let second = Data(repeating: 2, count: 32).base64EncodedString()

    @Test("a pin is accepted with or without the sha256/ prefix and the line end base64 prints")
    func prefixAccepted() throws {
        let plain = try SPKIPin(Self.first)
        #expect(try SPKIPin("sha256/\(Self.first)") == plain)
        #expect(try SPKIPin("\(Self.first)\n") == plain)
        #expect(plain.description == "sha256/\(Self.first)")
        #expect(plain.base64 == Self.first)
    }

    @Test("one pin, or the same pin twice, is refused: a backup key's pin is required")
    func onePinRefused() {
        #expect(throws: ConfigurationError.tooFewPins(host: "id.example.com", count: 1)) {
            try PinnedHost("id.example.com", pins: [Self.first])
        }
        #expect(throws: ConfigurationError.tooFewPins(host: "id.example.com", count: 1)) {
            try PinnedHost("id.example.com", pins: [Self.first, "sha256/\(Self.first)"])
        }
        #expect(throws: ConfigurationError.tooFewPins(host: "id.example.com", count: 0)) {
            try PinnedHost("id.example.com", pins: [])
        }
    }

    @Test(
        "a pin that is not base64 is refused",
        arguments: [
            "not base64!", "AQEB AQEB", String(Self.first.dropLast()), "sha256/sha256/\(first)",
            Self.first.replacingOccurrences(of: "A", with: "-"), String(repeating: "*", count: 100_000),
        ]
    )
    func notBase64Refused(pin: String) {
        #expect(throws: ConfigurationError.pinNotBase64(pin)) { try SPKIPin(pin) }
    }

    @Test("a pin of other than 32 bytes (none at all included) is refused", arguments: [0, 1, 20, 31, 33, 48, 64])
    func wrongLengthRefused(bytes: Int) {
        let pin = Data(repeating: 7, count: bytes).base64EncodedString()
        #expect(throws: ConfigurationError.pinWrongLength(pin, bytes: bytes)) { try SPKIPin(pin) }
        #expect(throws: ConfigurationError.pinWrongLength("sha256/\(pin)", bytes: bytes)) {
            try PinnedHost("id.example.com", pins: ["sha256/\(pin)", Self.second])
        }
    }

    @Test(
        "a host that is not a host name alone is refused",
        arguments: [
            "", ".", " ", "https://id.example.com", "id.example.com:443", "id.example.com/path",
            "*.example.com", "user@id.example.com", "id example.com",
        ]
    )
    func invalidHostRefused(host: String) {
        #expect(throws: ConfigurationError.invalidPinnedHost(host)) {
            try PinnedHost(host, pins: [Self.first, Self.second])
        }
    }

    @Test("an IPv6 address may be pinned")
    func ipv6Accepted() throws {
        #expect(try PinnedHost("::1", pins: [Self.first, Self.second]).host == "::1")
    }

    @Test("the same host pinned twice is refused, whatever its letter case")
    func duplicateHostRefused() throws {
        let pins = [Self.first, Self.second]
        #expect(throws: ConfigurationError.duplicatePinnedHost("id.example.com")) {
            try CertificatePinning([PinnedHost("id.example.com", pins: pins), PinnedHost("ID.example.com", pins: pins)])
        }
    }

    @Test("a configuration pins nothing by default")
    func noPinningByDefault() {
        let configuration = Configuration(issuer: URL(string: "https://id.example.com")!, clientID: "app")
        #expect(configuration.pinning.isEmpty)
    }

    @Test("a configuration file's pinning section is read: pins, expiry, mode")
    func fileSection() throws {
        let values: [String: Any] = [
            "issuer": "https://id.example.com", "clientID": "app",
            "pinning": [
                "ID.example.com": [
                    "pins": ["sha256/\(Self.first)", Self.second], "expires": "2027-06-30T00:00:00Z",
                ],
                "api.example.com": [
                    "pins": [Self.first, Self.second], "mode": "reportOnly",
                    "expires": Date(timeIntervalSince1970: 1_900_000_000),
                ],
            ],
        ]
        let configuration = try Configuration(infoDictionary: [Configuration.infoPlistKey: values])
        let expected = try CertificatePinning([
            PinnedHost(
                "api.example.com", pins: [Self.first, Self.second],
                expires: Date(timeIntervalSince1970: 1_900_000_000), mode: .reportOnly),
            PinnedHost(
                "id.example.com", pins: [Self.first, Self.second], expires: Date(timeIntervalSince1970: 1_814_313_600)),
        ])
        #expect(configuration.pinning == expected)
    }

    @Test("a configuration file's malformed pinning section is refused, naming the key or the pin")
    func fileSectionRefusals() {
        let refusals: [(Any, ConfigurationError)] = [
            (["a.example": ["pins": [Self.first]]], .tooFewPins(host: "a.example", count: 1)),
            (["a.example": ["pins": [Self.first, "nope!"]]], .pinNotBase64("nope!")),
            (
                ["a.example": ["pins": Self.first]],
                .invalidValue(key: "pinning.a.example.pins", reason: "expected an array of strings")
            ),
            (
                ["a.example": ["pins": [Self.first, Self.second], "mode": "audit"]],
                .invalidValue(key: "pinning.a.example.mode", reason: "expected enforce or reportOnly")
            ),
            (
                ["a.example": ["pins": [Self.first, Self.second], "expires": "next year"]],
                .invalidValue(key: "pinning.a.example.expires", reason: "expected a date or an ISO 8601 string")
            ),
            (
                [Self.first, Self.second],
                .invalidValue(key: "pinning", reason: "expected a dictionary from host name to its pins")
            ),
        ]
        for (section, refusal) in refusals {
            let values: [String: Any] = ["issuer": "https://id.example.com", "clientID": "app", "pinning": section]
            #expect(throws: refusal) { try Configuration(infoDictionary: [Configuration.infoPlistKey: values]) }
        }
    }
}
