import Foundation
import ServerFuzzSupport
import Testing

/// The seed corpora of the server's fuzz harnesses (Server/Fuzz/Corpus), replayed through the harnesses' own checks:
/// a check that changes, or a seed it no longer passes, fails here without a sanitizer build.
@Suite("Server fuzz corpora")
struct CorpusTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Corpus")

    static func seeds(_ harness: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(harness).path))
        return (names ?? []).sorted()
    }

    static func seed(_ harness: String, _ name: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(harness).appendingPathComponent(name))
    }

    @Test(
        "each harness has seeds",
        arguments: ["FormBody", "AdminJSON", "PhoneNumber", "CBOR", "DPoPTargetURI", "WebAuthnResponse"])
    func corpusIsThere(_ harness: String) {
        #expect(Self.seeds(harness).count >= 5, "too few seeds for \(harness)")
    }

    @Test("every FormBody seed passes the FormBody check", arguments: seeds("FormBody"))
    func formBody(_ name: String) throws {
        try FormBodyCheck.check(Self.seed("FormBody", name))
    }

    @Test("every AdminJSON seed passes the AdminJSON check", arguments: seeds("AdminJSON"))
    func adminJSON(_ name: String) throws {
        try AdminJSONCheck.check(Self.seed("AdminJSON", name))
    }

    @Test("every PhoneNumber seed passes the PhoneNumber check", arguments: seeds("PhoneNumber"))
    func phoneNumber(_ name: String) throws {
        try PhoneNumberCheck.check(Self.seed("PhoneNumber", name))
    }

    @Test("every CBOR seed passes the CBOR check", arguments: seeds("CBOR"))
    func cbor(_ name: String) throws {
        try CBORCheck.check(Self.seed("CBOR", name))
    }

    @Test("every WebAuthnResponse seed passes the WebAuthnResponse check", arguments: seeds("WebAuthnResponse"))
    func webAuthnResponseSeeds(_ name: String) throws {
        try WebAuthnResponseCheck.check(Self.seed("WebAuthnResponse", name))
    }

    @Test("every DPoPTargetURI seed passes the DPoPTargetURI check", arguments: seeds("DPoPTargetURI"))
    func dpopTargetURI(_ name: String) throws {
        try DPoPTargetURICheck.check(Self.seed("DPoPTargetURI", name))
    }
}
