import Foundation
import LimenServerWire
import Testing

/// What `Tests/Peers/totp/vectors.py` reads on its standard input.
private struct PeerRequest: Encodable {
    struct Code: Encodable {
        let secret: String
        let time: Int64
        let digits: Int
        let period: Int
    }

    struct URI: Encodable {
        let uri: String
    }

    struct Provisioning: Encodable {
        let secret: String
        let issuer: String
        let name: String
    }

    var totp: [Code] = []
    var uris: [URI] = []
    var provisioning: [Provisioning] = []
    var base32: [String] = []
}

/// What the script answers, each list in the order of the request's.
private struct PeerAnswer: Decodable {
    struct Parsed: Decodable {
        let secret: String
        let secretHex: String
        let issuer: String?
        let name: String
        let digits: Int
        let period: Int
        let algorithm: String
    }

    let totp: [String]
    let uris: [Parsed]
    let provisioning: [String]
    let base32: [String]
}

@Suite(
    "TOTP, otpauth URIs and base32 agree with Python's pyotp and base64",
    .disabled(
        if: PythonVectors.oneTimePasswords.unavailableReason != nil,
        "\(PythonVectors.oneTimePasswords.unavailableReason ?? "")"))
struct OneTimePasswordDifferentialTests {
    /// Issuers and account names that a careless URI would break: colons, spaces, `@`, URI delimiters, non-ASCII.
    static let issuers = ["Example", "Ex Co: Ltd", "Limen & Sons", "Société Générale", "名前", "a+b%20c", ""]
    static let accounts = [
        "ada@example.com", "Ada Lovelace", "ada:lovelace", "ünïcødé ✓", "q?x#y&z=1", "100%", "tab\there", "a/b",
    ]

    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    private static func ask(_ request: PeerRequest) async throws -> PeerAnswer {
        try await PythonVectors.oneTimePasswords.run([], input: JSONEncoder().encode(request), as: PeerAnswer.self)
    }

    @Test("codes for random secrets, times, digits and periods are pyotp's")
    func codes() async throws {
        var generator = SystemRandomNumberGenerator()
        var totps: [TOTP] = []
        var request = PeerRequest()
        for _ in 0..<400 {
            let length = Int.random(in: 16...64, using: &generator)
            let secret = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let digits = Int.random(in: 6...8, using: &generator)
            let period = [30, 30, 60, 15, 1].randomElement(using: &generator) ?? 30
            let time = Int64.random(in: 0...(1 << 35), using: &generator)
            totps.append(try TOTP(secret: secret, digits: digits, period: period))
            request.totp.append(.init(secret: Self.hex(secret), time: time, digits: digits, period: period))
        }
        let answer = try await Self.ask(request)
        try #require(answer.totp.count == totps.count)
        for (index, totp) in totps.enumerated() {
            let item = request.totp[index]
            #expect(
                totp.code(at: Date(timeIntervalSince1970: TimeInterval(item.time))) == answer.totp[index],
                "secret \(item.secret) at \(item.time), \(item.digits) digits every \(item.period) s")
        }
    }

    @Test("pyotp reads our URIs back to the same secret, issuer, name and parameters")
    func urisReadBack() async throws {
        var request = PeerRequest()
        var expected: [(secret: [UInt8], issuer: String, account: String, digits: Int, period: Int)] = []
        for issuer in Self.issuers {
            for account in Self.accounts {
                let secret = TOTP.newSecret()
                let digits = [6, 8].randomElement() ?? 6
                let period = [30, 60].randomElement() ?? 30
                let totp = try TOTP(secret: secret, digits: digits, period: period)
                request.uris.append(.init(uri: OTPAuthURI.make(for: totp, issuer: issuer, account: account)))
                expected.append((secret, issuer, account, digits, period))
            }
        }
        let answer = try await Self.ask(request)
        try #require(answer.uris.count == expected.count)
        for (parsed, want) in zip(answer.uris, expected) {
            #expect(parsed.secretHex == Self.hex(want.secret))
            #expect(parsed.secret == Base32.encode(want.secret))
            #expect(parsed.issuer == (want.issuer.isEmpty ? nil : want.issuer), "\(want.issuer)")
            #expect(parsed.name == want.account)
            #expect(parsed.digits == want.digits)
            #expect(parsed.period == want.period)
            #expect(parsed.algorithm == "sha1")
        }
    }

    @Test("our URIs are pyotp's provisioning URIs with the defaults written out")
    func provisioningURIs() async throws {
        var request = PeerRequest()
        var ours: [String] = []
        // pyotp leaves `/` unescaped in the label (Python's quote keeps it by default); everything else matches.
        for issuer in Self.issuers {
            for account in Self.accounts where !account.contains("/") {
                let secret = TOTP.newSecret()
                ours.append(OTPAuthURI.make(for: try TOTP(secret: secret), issuer: issuer, account: account))
                request.provisioning.append(.init(secret: Self.hex(secret), issuer: issuer, name: account))
            }
        }
        let answer = try await Self.ask(request)
        try #require(answer.provisioning.count == ours.count)
        for (uri, theirs) in zip(ours, answer.provisioning) {
            #expect(uri == theirs + "&algorithm=SHA1&digits=6&period=30")
        }
    }

    @Test("base32 of random bytes is base64.b32encode's without padding, and its padded form decodes")
    func base32() async throws {
        var generator = SystemRandomNumberGenerator()
        let inputs = (0..<200).map { index in
            (0..<(index < 50 ? index : Int.random(in: 0...80, using: &generator))).map { _ in
                UInt8.random(in: 0...255, using: &generator)
            }
        }
        let answer = try await Self.ask(PeerRequest(base32: inputs.map(Self.hex)))
        try #require(answer.base32.count == inputs.count)
        for (bytes, theirs) in zip(inputs, answer.base32) {
            #expect(Base32.encode(bytes) == String(theirs.prefix { $0 != "=" }))
            #expect(try Base32.decode(theirs) == bytes)
            #expect(try Base32.decode(theirs.lowercased()) == bytes)
        }
    }
}
