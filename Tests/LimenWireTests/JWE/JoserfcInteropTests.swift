import Foundation
import LimenWire
import Testing

/// Field values and key exports cross between Limen and Python's joserfc in both directions: the JWE is standard.
@Suite(
    "JWE interoperability with joserfc",
    .enabled(if: JoserfcPeer.unavailableReason == nil, "python3 with joserfc is missing (pip install joserfc)")
)
struct JoserfcInteropTests {
    private func jwk(of key: FieldEncryptionKey) throws -> JSONValue {
        try JSONValue(parsing: key.jwk)
    }

    @Test("joserfc decrypts a field value Limen made, and reads its header as dir, A256GCM, the thumbprint")
    func joserfcDecryptsLimen() async throws {
        let key = FieldEncryptionKey.generate()
        let plaintext = "ünïcødé card 4111 1111 1111 1111"
        let answer = try await JoserfcPeer.run([
            "op": "decrypt-field", "jwk": try jwk(of: key), "jwe": .string(try key.encrypt(Data(plaintext.utf8))),
        ])
        #expect(answer["plaintext"] == .string(plaintext))
        #expect(answer["header"] == .object(["alg": "dir", "enc": "A256GCM", "kid": .string(key.keyID)]))
    }

    @Test("Limen decrypts a field value joserfc made, and joserfc's thumbprint is Limen's key ID")
    func limenDecryptsJoserfc() async throws {
        let key = FieldEncryptionKey.generate()
        let plaintext = "a secret from Python ✓"
        let answer = try await JoserfcPeer.run([
            "op": "encrypt-field", "jwk": try jwk(of: key), "plaintext": .string(plaintext),
        ])
        #expect(answer["kid"] == .string(key.keyID))
        let field = try #require(answer["jwe"]?.stringValue)
        #expect(CompactJWE.isFieldValue(field))
        #expect(String(decoding: try key.decrypt(field), as: UTF8.self) == plaintext)
    }

    @Test("joserfc opens a key export Limen made with the passphrase and finds the key's JWK")
    func joserfcImportsLimenExport() async throws {
        let key = FieldEncryptionKey.generate()
        let passphrase = "pässphrase for the second device"
        let answer = try await JoserfcPeer.run([
            "op": "import-key", "passphrase": .string(passphrase),
            "jwe": .string(try key.exported(passphrase: passphrase)),
        ])
        #expect(answer["jwk"] == (try jwk(of: key)))
        #expect(answer["header"]?.objectValue?["p2c"] == .number(600_000))
    }

    @Test("Limen imports a key export joserfc made (PBES2-HS512+A256KW, 600,000 rounds)")
    func limenImportsJoserfcExport() async throws {
        let key = FieldEncryptionKey.generate()
        let passphrase = "pässphrase for the second device"
        let answer = try await JoserfcPeer.run([
            "op": "export-key", "passphrase": .string(passphrase), "jwk": try jwk(of: key),
        ])
        let export = try #require(answer["jwe"]?.stringValue)
        #expect(try FieldEncryptionKey(importing: export, passphrase: passphrase) == key)
        #expect(throws: EncryptionError.wrongPassphrase) {
            try FieldEncryptionKey(importing: export, passphrase: "another passphrase")
        }
    }
}
