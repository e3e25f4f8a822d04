import Foundation
import Testing

@testable import LimenCLI

@Suite("profiles and output formats")
struct ProfileTests {
    @Test(
        "the credentials directory prefers LIMEN_CONFIG_DIR, then XDG_CONFIG_HOME, then ~/.config",
        arguments: [
            (["LIMEN_CONFIG_DIR": "/a", "XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/a"),
            (["XDG_CONFIG_HOME": "/x", "HOME": "/h"], "/x/limen"),
            (["LIMEN_CONFIG_DIR": "", "XDG_CONFIG_HOME": "", "HOME": "/h"], "/h/.config/limen"),
        ])
    func credentialsDirectory(environment: [String: String], expected: String) {
        #expect(Profile.credentialsDirectory(environment: environment).path == expected)
    }

    @Test("saved settings are private JSON without the client secret, which the encrypted store keeps")
    func settingsArePrivate() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("limen-profile-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let profile = try Profile(name: "work", environment: ["LIMEN_CONFIG_DIR": directory.path])
        let settings = ProfileSettings(
            issuer: try #require(URL(string: "https://issuer.example/realms/a")), clientID: "cli",
            scopes: ["openid", "email"])
        try await profile.save(settings, clientSecret: "s3cr3t-value")

        let file = directory.appendingPathComponent("work.json")
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(!text.contains("s3cr3t-value"))
        #expect(try profile.loadSettings() == settings)
        #expect(try await profile.loadClientSecret() == "s3cr3t-value")
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let data = try Data(contentsOf: directory.appendingPathComponent(name))
            #expect(!String(decoding: data, as: UTF8.self).contains("s3cr3t-value"), "\(name) holds the secret")
        }

        try await profile.save(settings, clientSecret: nil)
        #expect(try await profile.loadClientSecret() == nil)
    }

    @Test("the ExecCredential is the client.authentication.k8s.io/v1 shape with an RFC 3339 expiry")
    func execCredential() throws {
        let credential = ExecCredential(token: "abc", expiresAt: Date(timeIntervalSince1970: 1_767_225_600))
        let data = Data(try prettyJSON(credential).utf8)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["apiVersion"] as? String == "client.authentication.k8s.io/v1")
        #expect(object["kind"] as? String == "ExecCredential")
        let status = try #require(object["status"] as? [String: Any])
        #expect(status["token"] as? String == "abc")
        #expect(status["expirationTimestamp"] as? String == "2026-01-01T00:00:00Z")
    }
}
