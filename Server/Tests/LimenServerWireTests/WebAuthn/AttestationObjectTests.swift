import Crypto
import Foundation
import LimenServerWire
import Testing

@Suite("Attestation objects: none and packed self attestation accepted, everything else refused")
struct AttestationObjectTests {
    static let clientDataHash = [UInt8](repeating: 0x5A, count: 32)
    /// Registration authenticator data: UP, UV, AT, with `COSEKeyTests.p256`'s key.
    static let authenticatorData = AuthenticatorDataTests.data(flags: 0x45, AuthenticatorDataTests.attested())

    static func object(format: String = "none", statement: CBORValue = .map([]), authData: [UInt8] = authenticatorData)
        -> [UInt8]
    {
        CBORValue.map([
            (.text("fmt"), .text(format)), (.text("attStmt"), statement), (.text("authData"), .bytes(authData)),
        ])
        .encoded
    }

    static func packed(algorithm: Int64 = -7, signature: [UInt8]? = nil, extra: [(CBORValue, CBORValue)] = []) throws
        -> [UInt8]
    {
        let signature =
            try signature
            ?? Array(COSEKeyTests.p256.signature(for: authenticatorData + clientDataHash).derRepresentation)
        return object(
            format: "packed",
            statement: .map(
                [(.text("alg"), COSEKeyTests.integer(algorithm)), (.text("sig"), .bytes(signature))] + extra))
    }

    @Test("fmt none is read and needs no check")
    func none() throws {
        let attestation = try AttestationObject(bytes: Self.object())
        #expect(attestation.statement == .none)
        #expect(attestation.credential.credentialID == AuthenticatorDataTests.credentialID)
        try attestation.verify(clientDataHash: Self.clientDataHash)
    }

    @Test("packed self attestation is verified with the credential's own key")
    func packedSelf() throws {
        let attestation = try AttestationObject(bytes: try Self.packed())
        try attestation.verify(clientDataHash: Self.clientDataHash)
        #expect(throws: WebAuthnError.attestationSignatureInvalid) {
            try attestation.verify(clientDataHash: [UInt8](repeating: 0, count: 32))
        }
    }

    @Test("a packed signature by another key, or naming another algorithm, is refused")
    func packedRefusals() throws {
        let other = try P256.Signing.PrivateKey().signature(for: Self.authenticatorData + Self.clientDataHash)
        let forged = try AttestationObject(bytes: try Self.packed(signature: Array(other.derRepresentation)))
        #expect(throws: WebAuthnError.attestationSignatureInvalid) {
            try forged.verify(clientDataHash: Self.clientDataHash)
        }
        let mislabeled = try AttestationObject(bytes: try Self.packed(algorithm: -8))
        #expect(throws: WebAuthnError.attestationAlgorithmMismatch) {
            try mislabeled.verify(clientDataHash: Self.clientDataHash)
        }
    }

    @Test("certificate chains, ECDAA and other formats are refused as unsupported")
    func unsupported() throws {
        #expect(throws: WebAuthnError.unsupportedAttestation("packed")) {
            try AttestationObject(bytes: try Self.packed(extra: [(.text("x5c"), .array([.bytes([0x30])]))]))
        }
        #expect(throws: WebAuthnError.unsupportedAttestation("packed")) {
            try AttestationObject(bytes: try Self.packed(extra: [(.text("ecdaaKeyId"), .bytes([1]))]))
        }
        for format in ["fido-u2f", "tpm", "android-key", "android-safetynet", "apple", "", "None"] {
            #expect(throws: WebAuthnError.unsupportedAttestation(format)) {
                try AttestationObject(bytes: Self.object(format: format))
            }
        }
    }

    @Test("statements without what their format requires are refused")
    func malformedStatements() throws {
        #expect(throws: WebAuthnError.attestationStatementMalformed) {
            try AttestationObject(bytes: Self.object(statement: .map([(.text("alg"), .negative(-7))])))
        }
        for statement: CBORValue in [
            .map([(.text("alg"), .negative(-7))]), .map([(.text("sig"), .bytes([1]))]),
            .map([(.text("alg"), .text("ES256")), (.text("sig"), .bytes([1]))]),
            .map([(.text("alg"), .negative(-7)), (.text("sig"), .text("x"))]),
        ] {
            #expect(throws: WebAuthnError.attestationStatementMalformed) {
                try AttestationObject(bytes: Self.object(format: "packed", statement: statement))
            }
        }
    }

    @Test("objects that are not a map of fmt, attStmt and authData are refused")
    func malformedObjects() throws {
        let objects: [[UInt8]] = [
            CBORValue.array([]).encoded,
            CBORValue.map([(.text("attStmt"), .map([])), (.text("authData"), .bytes(Self.authenticatorData))]).encoded,
            CBORValue.map([(.text("fmt"), .text("none")), (.text("authData"), .bytes(Self.authenticatorData))]).encoded,
            CBORValue.map([(.text("fmt"), .text("none")), (.text("attStmt"), .map([]))]).encoded,
            Self.object(statement: .array([])),
            CBORValue.map([
                (.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .text("x")),
            ]).encoded,
        ]
        for object in objects {
            #expect(throws: WebAuthnError.attestationObjectMalformed) { try AttestationObject(bytes: object) }
        }
        #expect(throws: WebAuthnError.malformedCBOR(.trailingBytes)) {
            try AttestationObject(bytes: Self.object() + [0])
        }
        #expect(throws: WebAuthnError.malformedCBOR(.truncated)) { try AttestationObject(bytes: []) }
    }

    @Test("registration authenticator data without attested credential data is refused")
    func noCredential() {
        #expect(throws: WebAuthnError.attestedCredentialDataMissing) {
            try AttestationObject(bytes: Self.object(authData: AuthenticatorDataTests.data(flags: 0x05)))
        }
        #expect(throws: WebAuthnError.backupStateWithoutEligibility) {
            try AttestationObject(bytes: Self.object(authData: AuthenticatorDataTests.data(flags: 0x15)))
        }
    }
}
