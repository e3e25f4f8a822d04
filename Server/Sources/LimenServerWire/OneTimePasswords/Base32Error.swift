import Foundation

/// Why text was not read as base32 (RFC 4648 §6).
package enum Base32Error: Error, Sendable, Equatable {
    /// A character outside the base32 alphabet (`A`–`Z`, `2`–`7`, either case), or something other than `=` and spaces
    /// after the first `=`.
    case invalidCharacter
    /// A number of characters no whole number of bytes encodes (1, 3 or 6 more than a multiple of 8).
    case invalidLength
    /// The last character carries bits beyond the last byte that are not zero: no encoder writes that, so the text was
    /// mistyped or altered.
    case nonZeroTrailingBits

    /// A stable, machine-readable identifier for this failure.
    package var code: String {
        switch self {
        case .invalidCharacter: "base32.invalid_character"
        case .invalidLength: "base32.invalid_length"
        case .nonZeroTrailingBits: "base32.non_zero_trailing_bits"
        }
    }
}

extension Base32Error: LocalizedError {
    /// A human-readable description; never contains the text itself, which may be a secret.
    package var errorDescription: String? {
        switch self {
        case .invalidCharacter: "The text holds a character that is not base32."
        case .invalidLength: "The text's length is not one base32 produces."
        case .nonZeroTrailingBits: "The text's last character has bits set beyond the last byte."
        }
    }
}
