import Crypto
import Foundation
import LimenServerWire
import LimenWire

/// One ES256 passkey assertion as a browser sends it (`AuthenticationResponseJSON`), made with a fresh P-256 key the way
/// `LimenTestSupport`'s `SoftwareAuthenticator` makes one: authenticator data for the RP ID with UP and UV set and a
/// counter of 0 (a synced passkey), client data of a `webauthn.get` ceremony, and the signature over both.
struct AssertionFixture {
    /// The relying party's ID.
    static let rpID = "127.0.0.1"
    /// The origin the ceremony ran on.
    static let origin = "http://127.0.0.1:8080"

    /// The challenge the server issued.
    let challenge: [UInt8]
    /// The assertion as the flow's `passkey` value carries it.
    let response: [String: JSONValue]
    /// The credential's public key as the server stores it: a COSE_Key (RFC 9052 §7) in CBOR.
    let storedKey: [UInt8]
    /// The public key, for the bare check.
    let publicKey: P256.Signing.PublicKey
    /// What the authenticator signed: the authenticator data followed by the client data's SHA-256.
    let signedBytes: [UInt8]
    /// The signature, DER-encoded as WebAuthn sends it.
    let signature: [UInt8]

    init() throws {
        let key = P256.Signing.PrivateKey()
        publicKey = key.publicKey
        challenge = (0..<32).map { _ in UInt8.random(in: .min ... .max) }
        // rpIdHash, flags UP (0x01) | UV (0x04), signCount 0.
        let authenticatorData = Array(SHA256.hash(data: Array(Self.rpID.utf8))) + [0x05, 0, 0, 0, 0]
        let clientDataJSON = Array(
            #"{"type":"webauthn.get","challenge":"\#(Base64URL.encode(challenge))","origin":"\#(Self.origin)","crossOrigin":false}"#
                .utf8)
        signedBytes = authenticatorData + Array(SHA256.hash(data: clientDataJSON))
        signature = Array(try key.signature(for: signedBytes).derRepresentation)
        let point = Array(key.publicKey.rawRepresentation)
        // {1: 2 (EC2), 3: -7 (ES256), -1: 1 (P-256), -2: x, -3: y}
        storedKey =
            [0xA5, 0x01, 0x02, 0x03, 0x26, 0x20, 0x01, 0x21, 0x58, 0x20] + point[..<32] + [0x22, 0x58, 0x20]
            + point[32...]
        let credentialID = Base64URL.encode((0..<16).map { _ in UInt8.random(in: .min ... .max) })
        response = [
            "id": .string(credentialID), "rawId": .string(credentialID), "type": .string("public-key"),
            "response": .object([
                "clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
                "authenticatorData": .string(Base64URL.encode(authenticatorData)),
                "signature": .string(Base64URL.encode(signature)),
            ]),
        ]
    }

    /// The server's check of the assertion (`PasskeyCeremonies.authenticate` without the store): the response's members
    /// decoded, the client data read and checked against the ceremony, the stored COSE key read, then
    /// ``AssertionVerification/verify(authenticatorData:clientData:signature:credentialKey:storedSignCount:rpID:requiresUserVerification:)``.
    func serverCheck() throws -> Bool {
        let parsed = try AuthenticationResponseJSON(response)
        let clientData = try ClientData(json: parsed.clientDataJSON)
        try clientData.check(type: .get, challenge: challenge, allowedOrigins: [Self.origin])
        let key = try COSEKey(try CBORReader.read(storedKey))
        let data = try AssertionVerification.verify(
            authenticatorData: parsed.authenticatorData, clientData: clientData, signature: parsed.signature,
            credentialKey: key, storedSignCount: 0, rpID: Self.rpID, requiresUserVerification: true)
        return data.signCount == 0
    }

    /// The bare check: swift-crypto's P-256 verify of the same signature over the same bytes.
    func bareCheck() throws -> Bool {
        publicKey.isValidSignature(try P256.Signing.ECDSASignature(derRepresentation: signature), for: signedBytes)
    }
}
