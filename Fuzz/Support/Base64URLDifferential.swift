import Foundation
import LimenWire

/// The differential check of ``Base64URL`` against Foundation's base64 decoder (RFC 4648 §4), a well-kept one.
///
/// Base64url (§5) is base64 with `-` and `_` for `+` and `/`, and JOSE leaves out the padding. So a text of the
/// base64url alphabet, translated and padded, must be accepted by both or refused by both, with the same bytes; a text
/// with any other character must be refused by ``Base64URL``. And any bytes must come back from
/// `decode(encode(bytes))`.
///
/// ```swift
/// try Base64URLDifferential.check(text: "aGk")
/// ```
public enum Base64URLDifferential {
    /// A way in which ``Base64URL`` and Foundation (or ``Base64URL`` and itself) disagree.
    public enum Disagreement: Error, Equatable, CustomStringConvertible {
        /// One decoder accepted the text and the other refused it, or they read different bytes.
        case decodersDiffer(String)
        /// A character outside the base64url alphabet was accepted.
        case outsideAlphabetAccepted(String)
        /// `decode(encode(bytes))` did not give the bytes back.
        case roundTripDiffers(Data)

        /// What disagrees, with the input involved.
        public var description: String {
            switch self {
            case .decodersDiffer(let text): "Base64URL and Foundation disagree on \(text.debugDescription)"
            case .outsideAlphabetAccepted(let text): "Base64URL accepts \(text.debugDescription)"
            case .roundTripDiffers(let bytes): "decode(encode(x)) != x for \(Array(bytes))"
            }
        }
    }

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Checks the decoding of `text` against Foundation's.
    /// - Throws: ``Disagreement`` when the check fails.
    public static func check(text: String) throws(Disagreement) {
        let decoded = Base64URL.decode(text)
        guard text.utf8.allSatisfy(alphabet.contains) else {
            guard decoded == nil else { throw .outsideAlphabetAccepted(text) }
            return
        }
        var base64 = String(text.map { $0 == "-" ? "+" : $0 == "_" ? "/" : $0 })
        base64 += String(repeating: "=", count: (4 - base64.utf8.count % 4) % 4)
        guard Data(base64Encoded: base64) == decoded else { throw .decodersDiffer(text) }
    }

    /// Checks that `bytes` survive encoding and decoding.
    /// - Throws: ``Disagreement/roundTripDiffers(_:)`` when they do not.
    public static func check(roundTrip bytes: Data) throws(Disagreement) {
        guard Base64URL.decode(Base64URL.encode(bytes)) == bytes else { throw .roundTripDiffers(bytes) }
    }
}
