import Crypto
import Foundation
import SwiftASN1
import X509

/// The SHA-256 digest of a certificate's SubjectPublicKeyInfo: what certificate pinning compares (RFC 7469 §2.4).
///
/// A pin names a key, not a certificate, so it survives the certificate's renewal as long as the key is kept. Compute
/// one from a certificate with OpenSSL:
///
/// ```sh
/// openssl x509 -in cert.pem -pubkey -noout | openssl pkey -pubin -outform der \
///     | openssl dgst -sha256 -binary | base64
/// ```
///
/// Its text is that base64, with or without HPKP's `sha256/` prefix (as `limen login --pin sha256/…` writes it).
public struct SPKIPin: Hashable, Sendable, CustomStringConvertible {
    /// The prefix HPKP and `limen` write before the base64 digest (optional in ``init(_:)``).
    public static let prefix = "sha256/"

    /// The 32 bytes of the SHA-256 digest.
    public let digest: Data

    /// Reads a pin: the base64 of a SHA-256 digest (44 characters), optionally after ``prefix``; surrounding white
    /// space (the line end `openssl … | base64` prints) is ignored.
    /// - Throws: ``ConfigurationError/pinNotBase64(_:)`` or ``ConfigurationError/pinWrongLength(_:bytes:)``.
    public init(_ text: String) throws(ConfigurationError) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let base64 = trimmed.hasPrefix(Self.prefix) ? String(trimmed.dropFirst(Self.prefix.count)) : trimmed
        guard let digest = Data(base64Encoded: base64) else { throw .pinNotBase64(text) }
        guard digest.count == SHA256.byteCount else { throw .pinWrongLength(text, bytes: digest.count) }
        self.digest = digest
    }

    /// The pin of a certificate's public key, or `nil` when `certificate` is not a DER certificate with a key that
    /// swift-certificates reads (P-256, P-384, P-521, RSA, Ed25519).
    /// - Parameter certificate: The certificate in DER, as a TLS handshake presents it.
    public init?(certificate: Data) {
        do {
            let parsed = try Certificate(derEncoded: Array(certificate))
            var serializer = DER.Serializer()
            try serializer.serialize(parsed.publicKey)
            digest = Data(SHA256.hash(data: serializer.serializedBytes))
        } catch {
            return nil
        }
    }

    /// The digest in base64, without prefix.
    public var base64: String { digest.base64EncodedString() }

    /// The pin as HPKP writes it: `sha256/` and the base64 digest.
    public var description: String { Self.prefix + base64 }
}
