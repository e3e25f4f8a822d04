import Crypto
import Foundation
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Sign in with Apple configuration")
struct AppleConfigurationTests {
    @Test("an apple mapping is read with its defaults, and becomes Apple's trusted-issuer preset")
    func defaults() throws {
        let configuration = try ServerConfiguration.resolve(
            file: "apple: {bundle_ids: [com.example.app, com.example.app.watch]}")
        let apple = try #require(configuration.apple)
        #expect(apple == AppleSignIn(bundleIDs: ["com.example.app", "com.example.app.watch"]))
        let issuer = apple.trustedIssuer
        #expect(issuer.issuer == "https://appleid.apple.com")
        #expect(issuer.jwksURL == URL(string: "https://appleid.apple.com/auth/keys"))
        #expect(issuer.audiences == ["com.example.app", "com.example.app.watch"])
        #expect(issuer.algorithms == [.rs256])
        #expect(issuer.identityKind == "apple")
        #expect(configuration.trustedIssuers.isEmpty)
    }

    @Test("every member is read, the team key from a readable P-256 key file")
    func fullMapping() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyFile = directory.path + "/AuthKey_KEY1.p8"
        try Data(P256.Signing.PrivateKey().pemRepresentation.utf8).write(to: URL(fileURLWithPath: keyFile))
        let configuration = try ServerConfiguration.resolve(
            file: """
                apple:
                  bundle_ids: com.example.app
                  base_url: http://127.0.0.1:9999
                  link_by_verified_email: true
                  team_id: TEAM123456
                  key_id: KEY1
                  private_key_file: \(keyFile)
                """)
        #expect(
            configuration.apple
                == AppleSignIn(
                    bundleIDs: ["com.example.app"], baseURL: "http://127.0.0.1:9999", linkByVerifiedEmail: true,
                    teamKey: AppleSignIn.TeamKey(teamID: "TEAM123456", keyID: "KEY1", privateKeyFile: keyFile)))
    }

    @Test("LIMEN_APPLE (JSON) takes the place of the file's mapping")
    func environmentWins() throws {
        let configuration = try ServerConfiguration.resolve(
            file: "apple: {bundle_ids: [a.b.c]}", environment: ["LIMEN_APPLE": #"{"bundle_ids": ["x.y.z"]}"#])
        #expect(configuration.apple == AppleSignIn(bundleIDs: ["x.y.z"]))
    }

    @Test(
        "a bad apple mapping is refused at start, naming the key",
        arguments: [
            ("{}", "apple.bundle_ids"),
            ("{bundle_ids: []}", "apple.bundle_ids"),
            ("{bundle_ids: ['']}", "apple.bundle_ids"),
            ("{bundle_ids: [a.b], base_url: 'http://appleid.apple.com'}", "apple.base_url"),
            ("{bundle_ids: [a.b], base_url: 'https://appleid.apple.com/'}", "apple.base_url"),
            ("{bundle_ids: [a.b], link_by_verified_email: sometimes}", "apple.link_by_verified_email"),
            ("{bundle_ids: [a.b], team_id: T, key_id: K}", "apple.private_key_file"),
            ("{bundle_ids: [a.b], team_id: T, key_id: K, private_key_file: /nonexistent.p8}", "apple.private_key_file"),
            ("{bundle_ids: [a.b], bundle_id: a.b}", "apple.bundle_id"),
            ("[a.b]", "apple"),
        ])
    func refused(mapping: String, key: String) throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(file: "apple: \(mapping)")
        }
        #expect(error?.key.hasSuffix(": " + key) == true, "\(error?.key ?? "-")")
    }

    @Test("a bad LIMEN_APPLE is refused naming the variable and the member")
    func badEnvironment() throws {
        let error = #expect(throws: ConfigurationError.self) {
            try ServerConfiguration.resolve(
                flags: ConfigurationFlags(), environment: ["LIMEN_APPLE": #"{"bundle_ids": "a.b", "base_url": "x"}"#])
        }
        #expect(error?.key == "LIMEN_APPLE.base_url")
    }
}
