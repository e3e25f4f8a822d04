import Crypto
import Foundation
import LimenServerWire
import Testing

/// Registrations and assertions made by Python's cryptography and cbor2 (`vectors.py webauthn`).
struct WebAuthnVectors: Decodable {
    struct Ceremony: Decodable {
        struct Registration: Decodable {
            let challenge: String
            let clientDataJSON: String
            let attestationObject: String
        }

        struct Assertion: Decodable {
            let challenge: String
            let clientDataJSON: String
            let authenticatorData: String
            let signature: String
        }

        let algorithm: Int64
        let format: String
        let credentialID: String
        let credentialPublicKey: String
        let registration: Registration
        let assertion: Assertion
    }

    let rpID: String
    let origin: String
    let ceremonies: [Ceremony]
    let rsa1024Key: String
}

@Suite(
    "WebAuthn ceremonies made by Python's cryptography and cbor2: accepted as made, refused when tampered with",
    .disabled(if: PythonVectors.webAuthn.unavailableReason != nil, "\(PythonVectors.webAuthn.unavailableReason ?? "")"))
struct WebAuthnVectorTests {
    static func vectors() async throws -> WebAuthnVectors {
        try await PythonVectors.webAuthn.run(["webauthn"], as: WebAuthnVectors.self)
    }

    /// Registers `ceremony` as a server would; the credential.
    static func register(_ ceremony: WebAuthnVectors.Ceremony, rpID: String, origin: String) throws
        -> AttestedCredentialData
    {
        let clientData = try ClientData(json: [UInt8](hex: ceremony.registration.clientDataJSON))
        try clientData.check(
            type: .create, challenge: [UInt8](hex: ceremony.registration.challenge), allowedOrigins: [origin])
        let attestation = try RegistrationVerification.verify(
            attestationObject: [UInt8](hex: ceremony.registration.attestationObject), clientData: clientData,
            rpID: rpID, requiresUserVerification: true)
        return attestation.credential
    }

    /// Verifies `ceremony`'s assertion, with parts changed by the caller.
    static func assert(
        _ ceremony: WebAuthnVectors.Ceremony, key: COSEKey, rpID: String, origin: String,
        authenticatorData: ([UInt8]) -> [UInt8] = { $0 }, signature: ([UInt8]) -> [UInt8] = { $0 }
    ) throws -> AuthenticatorData {
        let clientData = try ClientData(json: [UInt8](hex: ceremony.assertion.clientDataJSON))
        try clientData.check(
            type: .get, challenge: [UInt8](hex: ceremony.assertion.challenge), allowedOrigins: [origin])
        return try AssertionVerification.verify(
            authenticatorData: authenticatorData([UInt8](hex: ceremony.assertion.authenticatorData)),
            clientData: clientData, signature: signature([UInt8](hex: ceremony.assertion.signature)),
            credentialKey: key,
            storedSignCount: 0, rpID: rpID, requiresUserVerification: true)
    }

    static func flipLast(_ bytes: [UInt8]) -> [UInt8] {
        var changed = bytes
        changed[changed.count - 1] ^= 0x01
        return changed
    }

    @Test("every registration (none and packed; ES256, EdDSA, RS256) and its assertion are accepted")
    func accepted() async throws {
        let vectors = try await Self.vectors()
        #expect(vectors.ceremonies.count == 6)
        for ceremony in vectors.ceremonies {
            let credential = try Self.register(ceremony, rpID: vectors.rpID, origin: vectors.origin)
            #expect(credential.credentialID == [UInt8](hex: ceremony.credentialID))
            #expect(credential.publicKeyBytes == [UInt8](hex: ceremony.credentialPublicKey))
            #expect(credential.publicKey.algorithm.rawValue == ceremony.algorithm)
            // The key as a server stores it (its COSE bytes), read back.
            let stored = try COSEKey(try CBORReader.read(credential.publicKeyBytes))
            let data = try Self.assert(ceremony, key: stored, rpID: vectors.rpID, origin: vectors.origin)
            #expect(data.signCount == 7)
            #expect(data.flags.contains([.userPresent, .userVerified, .backupEligible, .backedUp]))
        }
    }

    @Test("a packed attestation with a flipped signature byte is refused")
    func tamperedAttestation() async throws {
        let vectors = try await Self.vectors()
        for ceremony in vectors.ceremonies where ceremony.format == "packed" {
            let clientData = try ClientData(json: [UInt8](hex: ceremony.registration.clientDataJSON))
            let object = try CBORReader.read([UInt8](hex: ceremony.registration.attestationObject))
            let statement = try #require(object["attStmt"])
            let signature = try #require(statement["sig"]?.bytesValue)
            let tampered = CBORValue.map([
                (.text("fmt"), .text("packed")),
                (
                    .text("attStmt"),
                    .map([
                        (.text("alg"), try #require(statement["alg"])),
                        (.text("sig"), .bytes(Self.flipLast(signature))),
                    ])
                ),
                (.text("authData"), try #require(object["authData"])),
            ])
            let attestation = try AttestationObject(bytes: tampered.encoded)
            #expect(throws: WebAuthnError.attestationSignatureInvalid) {
                try attestation.verify(clientDataHash: clientData.hash)
            }
            #expect(throws: WebAuthnError.attestationSignatureInvalid) {
                try AttestationObject(bytes: [UInt8](hex: ceremony.registration.attestationObject))
                    .verify(clientDataHash: Self.flipLast(clientData.hash))
            }
        }
    }

    @Test("assertions with a flipped signature byte, another RP ID hash, or UP cleared are refused")
    func tamperedAssertions() async throws {
        let vectors = try await Self.vectors()
        for ceremony in vectors.ceremonies {
            let key = try COSEKey(try CBORReader.read([UInt8](hex: ceremony.credentialPublicKey)))
            let (rpID, origin) = (vectors.rpID, vectors.origin)
            #expect(throws: WebAuthnError.signatureInvalid) {
                try Self.assert(ceremony, key: key, rpID: rpID, origin: origin, signature: Self.flipLast)
            }
            #expect(throws: WebAuthnError.rpIDHashMismatch) {
                try Self.assert(ceremony, key: key, rpID: "example.org", origin: origin)
            }
            #expect(throws: WebAuthnError.rpIDHashMismatch) {
                try Self.assert(ceremony, key: key, rpID: rpID, origin: origin) { data in
                    Array(SHA256.hash(data: Data("evil.example".utf8))) + data[32...]
                }
            }
            #expect(throws: WebAuthnError.userNotPresent) {
                try Self.assert(ceremony, key: key, rpID: rpID, origin: origin) { data in
                    var changed = data
                    changed[32] &= ~0x01
                    return changed
                }
            }
            #expect(throws: WebAuthnError.signatureInvalid) {
                try Self.assert(ceremony, key: key, rpID: rpID, origin: origin) { data in
                    var changed = data
                    changed[36] ^= 0x01
                    return changed
                }
            }
            #expect(throws: WebAuthnError.originNotAllowed) {
                try Self.assert(ceremony, key: key, rpID: rpID, origin: "https://example.org")
            }
        }
    }

    @Test("an assertion verified with another credential's key is refused")
    func otherKey() async throws {
        let vectors = try await Self.vectors()
        let keys = try vectors.ceremonies.map { try COSEKey(try CBORReader.read([UInt8](hex: $0.credentialPublicKey))) }
        for (index, ceremony) in vectors.ceremonies.enumerated() {
            let other = keys[(index + 2) % keys.count]
            #expect(throws: WebAuthnError.signatureInvalid) {
                try Self.assert(ceremony, key: other, rpID: vectors.rpID, origin: vectors.origin)
            }
        }
    }

    @Test("a 1,024-bit RSA key made by cryptography is refused")
    func smallRSA() async throws {
        let vectors = try await Self.vectors()
        #expect(throws: COSEKeyError.unsupportedKeySize) {
            try COSEKey(try CBORReader.read([UInt8](hex: vectors.rsa1024Key)))
        }
    }
}
