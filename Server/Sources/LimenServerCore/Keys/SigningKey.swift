import Crypto
import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire
import _CryptoExtras

/// A private signing key the provider signs tokens with.
public struct SigningKey: Sendable {
    /// The key material, per algorithm.
    package enum Material: Sendable {
        case es256(P256.Signing.PrivateKey)
        case rs256(_RSA.Signing.PrivateKey)
    }

    /// The key ID: the RFC 7638 thumbprint of the public key.
    public let kid: String
    /// When the key was created (and published).
    public let createdAt: Date
    /// When the key starts signing.
    public let activatesAt: Date
    /// When the key stopped signing, if it has been rotated out.
    public let retiredAt: Date?
    package let material: Material

    /// The algorithm the key signs with.
    public var algorithm: SigningAlgorithm {
        switch material {
        case .es256: .es256
        case .rs256: .rs256
        }
    }

    package init(material: Material, createdAt: Date, activatesAt: Date? = nil, retiredAt: Date? = nil) throws {
        self.material = material
        self.createdAt = createdAt
        self.activatesAt = activatesAt ?? createdAt
        self.retiredAt = retiredAt
        self.kid = try Self.thumbprint(of: material)
    }

    /// A new key for `algorithm` (`ES256`: P-256; `RS256`: RSA 2048), signing from `activatesAt`.
    static func generate(algorithm: SigningAlgorithm, now: Date, activatesAt: Date? = nil) throws -> SigningKey {
        switch algorithm {
        case .es256:
            try SigningKey(material: .es256(P256.Signing.PrivateKey()), createdAt: now, activatesAt: activatesAt)
        case .rs256:
            try SigningKey(
                material: .rs256(_RSA.Signing.PrivateKey(keySize: .bits2048)),
                createdAt: now,
                activatesAt: activatesAt
            )
        }
    }

    /// Whether the key may sign at `date`.
    public func signs(at date: Date) -> Bool {
        activatesAt <= date && (retiredAt.map { date < $0 } ?? true)
    }

    /// The private key's bytes: P-256 raw scalar, or RSA PKCS#1 DER.
    var privateKeyBytes: Data {
        switch material {
        case .es256(let key): key.rawRepresentation
        case .rs256(let key): key.derRepresentation
        }
    }

    /// The public key as a JWK with `kid`, `alg` and `use: sig`.
    public var publicJWK: [String: JSONValue] {
        var jwk: [String: JSONValue] = ["kid": .string(kid), "alg": .string(algorithm.rawValue), "use": .string("sig")]
        for (name, value) in Self.publicMembers(of: material) {
            jwk[name] = .string(value)
        }
        return jwk
    }

    // MARK: Storage

    /// The record to store: the private key sealed under `masterKey`, bound to its kid.
    package func record(sealedWith masterKey: MasterKey) throws -> SigningKeyRecord {
        SigningKeyRecord(
            kid: kid,
            algorithm: algorithm.rawValue,
            encryptedPrivateKey: try masterKey.encrypt(privateKeyBytes, context: Self.context(kid: kid)),
            createdAt: createdAt,
            activatesAt: activatesAt,
            retiredAt: retiredAt
        )
    }

    /// Opens a stored record; fails if the ciphertext was altered, moved or sealed under another master key.
    package init(record: SigningKeyRecord, masterKey: MasterKey) throws {
        guard let bytes = try? masterKey.decrypt(record.encryptedPrivateKey, context: Self.context(kid: record.kid))
        else { throw KeyError.wrongMasterKey(record.kid) }
        let material: Material =
            switch SigningAlgorithm(rawValue: record.algorithm) {
            case .es256: .es256(try P256.Signing.PrivateKey(rawRepresentation: bytes))
            case .rs256: .rs256(try _RSA.Signing.PrivateKey(derRepresentation: bytes))
            case nil: throw KeyError.unsupportedAlgorithm(record.algorithm)
            }
        try self.init(
            material: material,
            createdAt: record.createdAt,
            activatesAt: record.activatesAt,
            retiredAt: record.retiredAt
        )
        guard kid == record.kid else { throw KeyError.kidMismatch(record.kid) }
    }

    private static func context(kid: String) -> String { "limen.signing-key.v1:\(kid)" }

    // MARK: JWK

    /// The members RFC 7638 §3.2 requires, by name.
    private static func publicMembers(of material: Material) -> [(String, String)] {
        switch material {
        case .es256(let key):
            let raw = key.publicKey.rawRepresentation  // x ‖ y, 32 bytes each
            return [
                ("crv", "P-256"), ("kty", "EC"), ("x", Base64URL.encode(raw.prefix(32))),
                ("y", Base64URL.encode(raw.suffix(32))),
            ]
        case .rs256(let key):
            guard let primitives = try? key.publicKey.getKeyPrimitives() else { return [("kty", "RSA")] }
            return [
                ("e", Base64URL.encode(primitives.publicExponent)), ("kty", "RSA"),
                ("n", Base64URL.encode(primitives.modulus)),
            ]
        }
    }

    /// RFC 7638: SHA-256 over the required members in lexicographic order, no whitespace.
    private static func thumbprint(of material: Material) throws -> String {
        let members = publicMembers(of: material)
        guard members.count > 1 else { throw KeyError.unsupportedAlgorithm("RSA key without primitives") }
        let json = "{" + members.map { "\"\($0.0)\":\"\($0.1)\"" }.joined(separator: ",") + "}"
        return Base64URL.encode(SHA256.hash(data: Data(json.utf8)))
    }
}

/// Why a signing key could not be used.
public enum KeyError: Error, Sendable, Equatable, LocalizedError {
    /// A stored key names an algorithm this server does not sign with.
    case unsupportedAlgorithm(String)
    /// A stored key's material does not match its kid.
    case kidMismatch(String)
    /// A stored key cannot be opened with this node's master key (another node created it with another one).
    case wrongMasterKey(String)

    /// A stable code for logs and tests.
    public var code: String {
        switch self {
        case .unsupportedAlgorithm: "keys.unsupported_algorithm"
        case .kidMismatch: "keys.kid_mismatch"
        case .wrongMasterKey: "keys.wrong_master_key"
        }
    }

    /// A human message.
    public var errorDescription: String? {
        switch self {
        case .unsupportedAlgorithm(let algorithm): "Unsupported signing key algorithm \(algorithm)"
        case .kidMismatch(let kid): "The stored signing key \(kid) does not match its key ID"
        case .wrongMasterKey(let kid):
            "The stored signing key \(kid) cannot be opened with this master key: every node of one database needs "
                + "the same master.key (copy it from the node that started first)"
        }
    }
}
