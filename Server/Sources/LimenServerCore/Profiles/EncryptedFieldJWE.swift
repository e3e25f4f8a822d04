import Foundation
import LimenWire

/// The shape an encrypted profile field's value must have, checked without any key: a JWE in compact serialization
/// (RFC 7516 §7.1) made with direct encryption and AES-256-GCM, as the SDK makes it on the device.
///
/// Five base64url parts (no padding): a protected header that is a JSON object (read strictly: no member twice) with
/// `alg` `dir`, `enc` `A256GCM` and a non-empty `kid`, and no members but `alg`, `enc`, `kid`, `typ` and `cty` (so no
/// `zip` and no `crit` the device did not mean); an empty encrypted key (RFC 7518 §4.5: `dir` has none); a 96-bit IV
/// and a 128-bit tag (RFC 7518 §5.3). The ciphertext is opaque. The server never decrypts it, so this is all it can
/// check — and all it must, so that a plaintext value can never be stored by mistake.
///
/// Self-contained on purpose: when LimenWire gains a JWE type, this check can become a call to it.
enum EncryptedFieldJWE {
    /// Why a value is not an encrypted field's JWE.
    package enum Problem: Error, Sendable, Equatable {
        /// Not a string of five base64url parts.
        case notCompactJWE
        /// The protected header is not a JSON object of the allowed members.
        case malformedHeader
        /// `alg` is not `dir` or `enc` not `A256GCM`.
        case unsupportedAlgorithm
        /// No `kid` names the device key.
        case missingKeyID
        /// The encrypted key is not empty, or the IV or tag has the wrong length.
        case wrongPartLength

        /// What is wrong, for the refusal's description.
        package var reason: String {
            switch self {
            case .notCompactJWE: "must be a JWE in compact serialization (encrypted on the device)"
            case .malformedHeader: "the JWE protected header is not a JSON object of alg, enc, kid, typ and cty"
            case .unsupportedAlgorithm: "the JWE must use alg dir and enc A256GCM"
            case .missingKeyID: "the JWE protected header must name the key (kid)"
            case .wrongPartLength: "the JWE must have an empty encrypted key, a 12-byte IV and a 16-byte tag"
            }
        }
    }

    /// The protected header members allowed.
    static let headerMembers: Set<String> = ["alg", "enc", "kid", "typ", "cty"]

    /// Checks that `value` is such a JWE; throws what is wrong otherwise.
    package static func check(_ value: String) throws(Problem) {
        let parts = value.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, let headerBytes = Base64URL.decode(parts[0]), let iv = Base64URL.decode(parts[2]),
            Base64URL.decode(parts[3]) != nil, let tag = Base64URL.decode(parts[4])
        else { throw .notCompactJWE }
        guard case .object(let header)? = try? JSONValue(parsing: headerBytes),
            header.keys.allSatisfy(headerMembers.contains),
            header.values.allSatisfy({ $0.stringValue != nil })
        else { throw .malformedHeader }
        guard header["alg"] == .string("dir"), header["enc"] == .string("A256GCM") else {
            throw .unsupportedAlgorithm
        }
        guard let kid = header["kid"]?.stringValue, !kid.isEmpty else { throw .missingKeyID }
        guard parts[1].isEmpty, iv.count == 12, tag.count == 16 else { throw .wrongPartLength }
    }

}
