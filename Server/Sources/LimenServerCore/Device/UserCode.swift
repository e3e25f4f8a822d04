import Crypto
import Foundation

/// The short code a person types on the verification page (RFC 8628 §6.1): 8 characters drawn from 20 consonants
/// without vowels (no words can form) or look-alikes (no `0`/`O`, `1`/`I`), shown as `XXXX-XXXX`; about 34.5 bits.
/// It is compared case-insensitively, ignoring the dash and spaces, and stored only as an HMAC-SHA256 of its normalised
/// form under a key derived from the master key (a plain hash of 34.5 bits is reversed by trying them all). Guessing is bounded by its 10-minute life, the per-address POST rate limit and ``DeviceCodeAttempts``.
package enum UserCode {
    /// The characters a user code is made of.
    static let alphabet = Array("BCDFGHJKLMNPQRSTVWXZ")
    /// Characters in a user code (the dash not counted).
    package static let length = 8

    /// A new random user code, as shown: `XXXX-XXXX`.
    package static func make() -> String {
        var generator = SystemRandomNumberGenerator()
        let characters = (0..<length).map { _ in alphabet.randomElement(using: &generator) ?? "B" }
        return String(characters.prefix(length / 2)) + "-" + String(characters.suffix(length / 2))
    }

    /// The code as typed, upper-cased without dashes and spaces; `nil` when it cannot be a user code.
    package static func normalise(_ typed: String) -> String? {
        let normalised = typed.uppercased().filter { $0 != "-" && !$0.isWhitespace }
        guard normalised.count == length, normalised.allSatisfy(alphabet.contains) else { return nil }
        return normalised
    }

    /// The stored form of a normalised code.
    package static func hash(normalised: String, keys: DerivedKeys) -> Data {
        Data(HMAC<SHA256>.authenticationCode(for: Data(normalised.utf8), using: keys.key(for: .deviceUserCode)))
    }
}
