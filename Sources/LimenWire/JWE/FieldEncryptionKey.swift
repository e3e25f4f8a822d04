import Crypto
import Foundation

/// A 256-bit key that encrypts profile fields on the device as standard JWE: compact serialization (RFC 7516) with
/// `alg: dir`, `enc: A256GCM`, and `kid` = the key's RFC 7638 thumbprint. Any JOSE library given the key as an `oct`
/// JWK decrypts the values.
///
/// ```swift
/// let key = FieldEncryptionKey.generate()
/// let field = try key.encrypt(Data("4111 1111 1111 1111".utf8))   // "eyJhbGciOiJkaXIi….….….…"
/// let card = String(decoding: try key.decrypt(field), as: UTF8.self)
/// ```
///
/// The key's bytes are kept in a `SymmetricKey`; its description shows only ``keyID``.
public struct FieldEncryptionKey: Sendable {
    /// The key's ID: its RFC 7638 JWK thumbprint (base64url of the SHA-256 of `{"k":…,"kty":"oct"}`).
    public let keyID: String
    /// The key itself.
    let key: SymmetricKey
    /// The protected header every field encrypted with this key carries: `{"alg":"dir","enc":"A256GCM","kid":…}`.
    let fieldHeader: [String: JSONValue]
    /// ``fieldHeader``'s base64url, made once.
    let encodedFieldHeader: String

    /// The size of the key: 256 bits.
    public static let byteCount = 32

    /// The `alg` of field values: direct use of the key as the content encryption key.
    public static let algorithm = "dir"

    /// The `enc` of field values and key exports: AES-256-GCM.
    public static let encryption = "A256GCM"

    /// A fresh random key from the system's secure generator.
    public static func generate() -> FieldEncryptionKey {
        FieldEncryptionKey(validKey: SymmetricKey(size: .bits256))
    }

    /// The key in `bytes`, which must be exactly 32 bytes.
    /// - Throws: ``EncryptionError/malformed(_:)`` (``JWEMalformation/invalidPayload``) for any other length.
    public init(bytes: some ContiguousBytes) throws(EncryptionError) {
        let key = SymmetricKey(data: bytes)
        guard key.bitCount == Self.byteCount * 8 else { throw .malformed(.invalidPayload) }
        self.init(validKey: key)
    }

    /// The key in an `oct` JWK (RFC 7517 §6.4) held as JSON text, such as ``jwk`` writes; members other than `kty`
    /// and `k` are ignored.
    /// - Throws: ``EncryptionError/malformed(_:)`` (``JWEMalformation/invalidPayload``) unless `json` is a JSON
    ///   object with `"kty": "oct"` and a base64url `k` of 32 bytes.
    public init(jwk json: some ContiguousBytes) throws(EncryptionError) {
        guard let members = JSONObject.decode(json), members["kty"]?.stringValue == "oct",
            let encoded = members["k"]?.stringValue, let bytes = Base64URL.byteArray(encoded)
        else { throw .malformed(.invalidPayload) }
        try self.init(bytes: bytes)
    }

    private init(validKey key: SymmetricKey) {
        self.key = key
        let encoded = key.withUnsafeBytes { Base64URL.encode($0) }
        let thumbprintInput = JSONValue.object(["k": .string(encoded), "kty": .string("oct")]).serialized()
        keyID = Base64URL.encode(SHA256.hash(data: thumbprintInput))
        fieldHeader = ["alg": .string(Self.algorithm), "enc": .string(Self.encryption), "kid": .string(keyID)]
        encodedFieldHeader = Base64URL.encode(JSONValue.object(fieldHeader).serialized())
    }

    /// The key as an `oct` JWK, JSON text: `{"k":…,"kid":…,"kty":"oct"}`. It holds the secret: store it only in
    /// secure storage, or export it with ``exported(passphrase:)``.
    public var jwk: Data {
        let encoded = key.withUnsafeBytes { Base64URL.encode($0) }
        return Data(
            JSONValue.object(["k": .string(encoded), "kid": .string(keyID), "kty": .string("oct")]).serialized())
    }

    /// Encrypts `plaintext` as a compact JWE (`dir`, `A256GCM`, this key's `kid`) with a fresh random IV.
    /// - Throws: ``EncryptionError/malformed(_:)`` only for a plaintext over AES-GCM's 64 GiB limit.
    public func encrypt(_ plaintext: some DataProtocol) throws(EncryptionError) -> String {
        try ContentEncryption.seal(
            plaintext, protectedHeader: encodedFieldHeader, header: fieldHeader, contentKey: key
        ).serialized
    }

    /// Decrypts a compact JWE made with this key (by Limen or any JOSE library).
    /// - Throws: What ``CompactJWE/init(fieldValue:)`` throws for a text without the shape of a field value
    ///   (``EncryptionError/malformed(_:)``, ``EncryptionError/unsupportedAlgorithm(_:)`` unless `alg` is `dir`,
    ///   ``EncryptionError/unsupportedEncryption(_:)`` unless `enc` is `A256GCM`), then
    ///   ``EncryptionError/wrongKeyID(_:)`` when `kid` is not ``keyID``, ``EncryptionError/tampered`` when the tag
    ///   does not verify.
    public func decrypt(_ compact: String) throws(EncryptionError) -> [UInt8] {
        let jwe = try CompactJWE(fieldValue: compact, knownHeader: (encodedFieldHeader, fieldHeader))
        guard jwe.keyID == keyID else { throw .wrongKeyID(jwe.keyID) }
        return try ContentEncryption.open(jwe, contentKey: key)
    }
}

extension FieldEncryptionKey: Equatable {
    /// Whether both are the same key (their thumbprints, SHA-256 of the key, are equal).
    public static func == (lhs: FieldEncryptionKey, rhs: FieldEncryptionKey) -> Bool {
        lhs.keyID == rhs.keyID
    }
}

extension FieldEncryptionKey: CustomStringConvertible {
    /// A description that never contains the key: only its ID.
    public var description: String { "FieldEncryptionKey(kid: \(keyID))" }
}
