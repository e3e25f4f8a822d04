import Crypto
import Foundation
import LimenWire
import Testing

/// A passkey authenticator in software (swift-crypto's P-256), as a browser and platform would answer Limen's
/// `PASSKEY` collectors: it makes discoverable credentials with `none` attestation and signs assertions, returning
/// WebAuthn's JSON forms. Its knobs make the hostile answers the tests need (another origin, UP or UV missing, a
/// counter going back).
final class SoftwareAuthenticator: @unchecked Sendable {
    /// One credential it holds.
    struct Credential {
        /// The credential ID.
        var id: [UInt8]
        /// The private key.
        var key: P256.Signing.PrivateKey
        /// The RP ID it is for.
        var rpID: String
        /// The user handle the RP gave at registration.
        var userHandle: [UInt8]
        /// The signature counter of its next assertion, less one.
        var signCount: UInt32
    }

    /// The origin its client data names.
    var origin: String
    /// Whether its authenticator data says the user was present.
    var userPresent = true
    /// Whether it says the user was verified.
    var userVerified = true
    /// Whether its counters move (`false`: always 0, as synced passkeys).
    var counts = true
    /// The credentials it made, oldest first.
    private(set) var credentials: [Credential] = []

    /// An authenticator answering for `origin`.
    init(origin: String) {
        self.origin = origin
    }

    /// `key` as a COSE key (EC2, ES256), as an authenticator's attested credential data carries it.
    static func coseKey(_ key: P256.Signing.PublicKey) -> [UInt8] {
        let point = key.rawRepresentation
        return CBOR.map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
            (.int(-2), .bytes(Array(point.prefix(32)))), (.int(-3), .bytes(Array(point.suffix(32)))),
        ]).encoded
    }

    // MARK: Ceremonies

    /// `navigator.credentials.create()` on a `PASSKEY` collector's creation `options`: a new credential and its
    /// `RegistrationResponseJSON`.
    func register(_ options: JSONValue) throws -> JSONValue {
        let rpID = try Self.text(options, "rp", "id")
        let userHandle = Array(try #require(Base64URL.decode(try Self.text(options, "user", "id"))))
        let challenge = try Self.text(options, "challenge")
        let credential = Credential(
            id: Array(RandomToken.bytes(count: 16)), key: P256.Signing.PrivateKey(), rpID: rpID,
            userHandle: userHandle, signCount: 0)
        credentials.append(credential)
        var attested = Array(repeating: UInt8(0), count: 16)
        attested += [UInt8(credential.id.count >> 8), UInt8(credential.id.count & 0xff)] + credential.id
        attested += Self.coseKey(credential.key.publicKey)
        let authenticatorData =
            Self.authenticatorData(
                rpID: rpID, flags: flags | 0x40, signCount: 0) + attested
        let attestationObject = CBOR.map([
            (.text("fmt"), .text("none")), (.text("attStmt"), .map([])), (.text("authData"), .bytes(authenticatorData)),
        ])
        return Self.credentialJSON(
            id: credential.id,
            response: [
                "clientDataJSON": .string(Base64URL.encode(clientData(type: "webauthn.create", challenge: challenge))),
                "attestationObject": .string(Base64URL.encode(attestationObject.encoded)),
                "transports": .array([.string("internal")]),
            ])
    }

    /// `navigator.credentials.get()` on request `options` with credential `index` (the newest by default): its
    /// `AuthenticationResponseJSON`.
    func authenticate(_ options: JSONValue, with index: Int? = nil) throws -> JSONValue {
        let challenge = try Self.text(options, "challenge")
        let position = index ?? credentials.count - 1
        if counts { credentials[position].signCount += 1 }
        let credential = credentials[position]
        let authenticatorData = Self.authenticatorData(
            rpID: credential.rpID, flags: flags, signCount: credential.signCount)
        let clientData = clientData(type: "webauthn.get", challenge: challenge)
        let signature = try credential.key.signature(
            for: authenticatorData + Array(SHA256.hash(data: clientData)))
        return Self.credentialJSON(
            id: credential.id,
            response: [
                "clientDataJSON": .string(Base64URL.encode(clientData)),
                "authenticatorData": .string(Base64URL.encode(authenticatorData)),
                "signature": .string(Base64URL.encode(signature.derRepresentation)),
                "userHandle": .string(Base64URL.encode(credential.userHandle)),
            ])
    }

    /// Sets credential `index`'s counter (to make it go back).
    func setSignCount(_ count: UInt32, of index: Int) {
        credentials[index].signCount = count
    }

    // MARK: Parts

    /// UP and UV as set.
    private var flags: UInt8 {
        (userPresent ? 0x01 : 0) | (userVerified ? 0x04 : 0)
    }

    /// The client data JSON a browser at ``origin`` would pass.
    private func clientData(type: String, challenge: String) -> [UInt8] {
        JSONValue.object([
            "type": .string(type), "challenge": .string(challenge), "origin": .string(origin),
            "crossOrigin": .bool(false),
        ]).serialized()
    }

    /// Authenticator data without attested credential data: the RP ID's hash, flags and counter.
    private static func authenticatorData(rpID: String, flags: UInt8, signCount: UInt32) -> [UInt8] {
        Array(SHA256.hash(data: Data(rpID.utf8))) + [flags]
            + [
                UInt8(signCount >> 24), UInt8(signCount >> 16 & 0xff), UInt8(signCount >> 8 & 0xff),
                UInt8(signCount & 0xff),
            ]
    }

    /// The text at `path` in `options`.
    private static func text(_ options: JSONValue, _ path: String...) throws -> String {
        var value: JSONValue? = options
        for key in path { value = value?.objectValue?[key] }
        return try #require(value?.stringValue, "the options have no \(path.joined(separator: "."))")
    }

    /// A `PublicKeyCredential`'s `toJSON()`.
    private static func credentialJSON(id: [UInt8], response: [String: JSONValue]) -> JSONValue {
        .object([
            "id": .string(Base64URL.encode(id)), "rawId": .string(Base64URL.encode(id)), "type": .string("public-key"),
            "response": .object(response), "clientExtensionResults": .object([:]),
            "authenticatorAttachment": .string("platform"),
        ])
    }
}

/// The CBOR the authenticator writes (RFC 8949, definite lengths): integers, byte and text strings, maps.
indirect enum CBOR {
    case int(Int)
    case bytes([UInt8])
    case text(String)
    case map([(CBOR, CBOR)])

    /// The encoding.
    var encoded: [UInt8] {
        switch self {
        case .int(let value) where value >= 0: Self.head(0, UInt64(value))
        case .int(let value): Self.head(1, UInt64(-1 - value))
        case .bytes(let bytes): Self.head(2, UInt64(bytes.count)) + bytes
        case .text(let text): Self.head(3, UInt64(text.utf8.count)) + Array(text.utf8)
        case .map(let entries): Self.head(5, UInt64(entries.count)) + entries.flatMap { $0.0.encoded + $0.1.encoded }
        }
    }

    private static func head(_ major: UInt8, _ argument: UInt64) -> [UInt8] {
        let type = major << 5
        switch argument {
        case 0..<24: return [type | UInt8(argument)]
        case 24..<256: return [type | 24, UInt8(argument)]
        case 256..<65536: return [type | 25, UInt8(argument >> 8), UInt8(argument & 0xff)]
        default: return [type | 26] + (0..<4).reversed().map { UInt8(argument >> (8 * UInt64($0)) & 0xff) }
        }
    }
}
