import Crypto
import Foundation
import LimenWire

/// A passkey authenticator in software (swift-crypto's P-256), as a browser and platform would answer Limen's
/// `PASSKEY` collectors: it makes discoverable credentials with `none` attestation and signs assertions, returning
/// WebAuthn's JSON forms. Its knobs make the hostile answers the tests need (another origin, UP or UV missing, a
/// counter going back).
public final class SoftwareAuthenticator: @unchecked Sendable {
    /// One credential it holds.
    public struct Credential: Sendable {
        /// The credential ID.
        public var id: [UInt8]
        /// The private key.
        public var key: P256.Signing.PrivateKey
        /// The RP ID it is for.
        public var rpID: String
        /// The user handle the RP gave at registration.
        public var userHandle: [UInt8]
        /// The signature counter of its next assertion, less one.
        public var signCount: UInt32
    }

    /// The origin its client data names.
    public var origin: String
    /// Whether its authenticator data says the user was present.
    public var userPresent = true
    /// Whether it says the user was verified.
    public var userVerified = true
    /// Whether its counters move (`false`: always 0, as synced passkeys).
    public var counts = true
    /// The credentials it made, oldest first.
    public private(set) var credentials: [Credential] = []

    /// An authenticator answering for `origin`.
    public init(origin: String) {
        self.origin = origin
    }

    /// `key` as a COSE key (EC2, ES256), as an authenticator's attested credential data carries it.
    public static func coseKey(_ key: P256.Signing.PublicKey) -> [UInt8] {
        let point = key.rawRepresentation
        return CBOR.map([
            (.int(1), .int(2)), (.int(3), .int(-7)), (.int(-1), .int(1)),
            (.int(-2), .bytes(Array(point.prefix(32)))), (.int(-3), .bytes(Array(point.suffix(32)))),
        ]).encoded
    }

    // MARK: Ceremonies

    /// `navigator.credentials.create()` on a `PASSKEY` collector's creation `options`: a new credential and its
    /// `RegistrationResponseJSON`.
    public func register(_ options: JSONValue) throws -> JSONValue {
        let rpID = try Self.text(options, "rp", "id")
        guard let userHandle = Base64URL.decode(try Self.text(options, "user", "id")).map(Array.init) else {
            throw OptionsError(path: "user.id")
        }
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
    public func authenticate(_ options: JSONValue, with index: Int? = nil) throws -> JSONValue {
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
    public func setSignCount(_ count: UInt32, of index: Int) {
        credentials[index].signCount = count
    }

    /// Options without a member the ceremony needs, or with one of the wrong kind.
    public struct OptionsError: Error, Equatable, CustomStringConvertible {
        /// The member's path (`user.id`).
        public var path: String
        public var description: String { "the options have no \(path)" }
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
        guard let text = value?.stringValue else { throw OptionsError(path: path.joined(separator: ".")) }
        return text
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
