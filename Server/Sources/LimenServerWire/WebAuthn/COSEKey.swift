import Crypto
import Foundation
import _CryptoExtras

/// A WebAuthn credential's public key, read from its COSE_Key form (RFC 9052 §7) and able to check the credential's
/// signatures.
///
/// ```swift
/// let key = try COSEKey(try CBORReader.read(credentialPublicKeyBytes))
/// let valid = key.isValidSignature(signature, for: authenticatorData + clientDataHash)
/// ```
public struct COSEKey: Sendable {
    /// The algorithm the key signs with (its `alg` member).
    public let algorithm: COSEAlgorithm
    /// The key, in swift-crypto's type for its algorithm.
    private let publicKey: PublicKey

    private enum PublicKey: Sendable {
        case p256(P256.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
        case rsa(_RSA.Signing.PublicKey)
    }

    /// COSE key labels (RFC 9052 §7.1, RFC 9053 §7, RFC 8230 §4).
    private enum Label {
        static let keyType: Int64 = 1
        static let algorithm: Int64 = 3
        static let curve: Int64 = -1
        static let x: Int64 = -2
        static let y: Int64 = -3
        static let modulus: Int64 = -1
        static let exponent: Int64 = -2
    }

    /// The RSA modulus sizes accepted, in bits: 2,048 at least (NIST SP 800-131A), 4,096 at most, so that checking a
    /// signature stays cheap.
    public static let rsaModulusBits = RSAModulus.acceptedBits

    /// Reads a COSE_Key map: `kty`, `alg` and the members of its key type (EC2 P-256 `x` and `y` of 32 bytes; OKP
    /// Ed25519 `x` of 32 bytes; RSA `n` and `e`). Members the key type does not use are ignored, as RFC 9052 allows.
    ///
    /// - Parameter allowedAlgorithms: the algorithms the caller accepts; others are refused with
    ///   ``COSEKeyError/algorithmNotAllowed(_:)``.
    public init(_ value: CBORValue, allowedAlgorithms: Set<COSEAlgorithm> = Set(COSEAlgorithm.allCases))
        throws(COSEKeyError)
    {
        guard value.mapEntries != nil else { throw .notAMap }
        let keyType = try Self.integer(value, Label.keyType)
        guard let algorithm = COSEAlgorithm(rawValue: try Self.integer(value, Label.algorithm)) else {
            throw .unsupportedAlgorithm
        }
        guard [1, 2, 3].contains(keyType) else { throw .unsupportedKeyType }
        guard allowedAlgorithms.contains(algorithm) else { throw .algorithmNotAllowed(algorithm) }
        self.algorithm = algorithm
        switch algorithm {
        case .es256:
            guard keyType == 2 else { throw .keyTypeMismatch }
            guard try Self.integer(value, Label.curve) == 1 else { throw .unsupportedCurve }
            let x = try Self.bytes(value, Label.x, count: 32)
            let y = try Self.bytes(value, Label.y, count: 32)
            do {
                publicKey = .p256(try P256.Signing.PublicKey(rawRepresentation: x + y))
            } catch {
                throw .invalidKeyMaterial
            }
        case .edDSA:
            guard keyType == 1 else { throw .keyTypeMismatch }
            guard try Self.integer(value, Label.curve) == 6 else { throw .unsupportedCurve }
            let x = try Self.bytes(value, Label.x, count: 32)
            do {
                publicKey = .ed25519(try Curve25519.Signing.PublicKey(rawRepresentation: x))
            } catch {
                throw .invalidKeyMaterial
            }
        case .rs256:
            guard keyType == 3 else { throw .keyTypeMismatch }
            let modulus = try Self.bytes(value, Label.modulus)
            let exponent = try Self.bytes(value, Label.exponent)
            guard RSAModulus.isAccepted(modulus) else { throw .unsupportedKeySize }
            do {
                publicKey = .rsa(try _RSA.Signing.PublicKey(n: modulus, e: exponent))
            } catch {
                throw .invalidKeyMaterial
            }
        }
    }

    /// Whether `signature` is the key's signature over `data`: DER-encoded ECDSA for ES256, 64 raw bytes for EdDSA,
    /// RSASSA-PKCS1-v1_5 with SHA-256 for RS256. A signature that does not parse is not valid.
    public func isValidSignature(_ signature: some DataProtocol, for data: some DataProtocol) -> Bool {
        switch publicKey {
        case .p256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: data)
        case .ed25519(let key):
            return key.isValidSignature(Data(signature), for: Data(data))
        case .rsa(let key):
            let parsed = _RSA.Signing.RSASignature(rawRepresentation: signature)
            return key.isValidSignature(parsed, for: SHA256.hash(data: Data(data)), padding: .insecurePKCS1v1_5)
        }
    }

    /// The integer member `label`.
    private static func integer(_ map: CBORValue, _ label: Int64) throws(COSEKeyError) -> Int64 {
        guard let member = map[label] else { throw .missingMember(label: label) }
        guard let value = member.integerValue else { throw .invalidMember(label: label) }
        return value
    }

    /// The byte-string member `label`, of exactly `count` bytes when a count is given.
    private static func bytes(_ map: CBORValue, _ label: Int64, count: Int? = nil) throws(COSEKeyError) -> [UInt8] {
        guard let member = map[label] else { throw .missingMember(label: label) }
        guard let value = member.bytesValue, count.map({ value.count == $0 }) ?? !value.isEmpty else {
            throw .invalidMember(label: label)
        }
        return value
    }
}
