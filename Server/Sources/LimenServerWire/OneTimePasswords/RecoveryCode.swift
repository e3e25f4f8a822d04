/// A single-use recovery code, for when the authenticator app is lost: 12 characters from an alphabet without
/// look-alikes, shown in two groups (`7kq3mz-hw2pca`).
///
/// The alphabet is `2`–`9` and the lower-case letters but `i`, `l` and `o` (31 symbols; no `0`/`O`, `1`/`I`/`l`), so a
/// code carries 12 × log2(31) ≈ 59.4 bits of entropy. People may type it in any case, with or without spaces and
/// dashes.
///
/// ```swift
/// let codes = RecoveryCode.newSet()              // show `codes.map(\.formatted)` once
/// let stored = codes.map(\.hash)                 // keep only these
/// RecoveryCode(typed: "7KQ3MZ HW2PCA")?.formatted   // "7kq3mz-hw2pca"
/// ```
package struct RecoveryCode: Sendable {
    /// The symbols a code is made of.
    package static let alphabet = Array("23456789abcdefghjkmnpqrstuvwxyz".utf8)
    /// The characters in a code.
    package static let length = 12
    /// The characters in each of the two groups shown.
    package static let groupLength = 6
    /// The codes in a set given to a person.
    package static let setSize = 10
    /// The longest typed text read; longer text is refused unread.
    package static let maximumTypedLength = 64

    /// The code's characters, lower case, without separators: what is hashed.
    package let normalized: String

    /// The code `typed` names: upper case is read as lower case, and spaces and dashes anywhere are dropped; `nil`
    /// unless that leaves ``length`` characters of the ``alphabet``.
    package init?(typed: String) {
        guard typed.utf8.count <= Self.maximumTypedLength else { return nil }
        var characters: [UInt8] = []
        for byte in typed.utf8 where byte != UInt8(ascii: " ") && byte != UInt8(ascii: "-") {
            let lower = (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
            guard Self.alphabet.contains(lower) else { return nil }
            characters.append(lower)
        }
        guard characters.count == Self.length else { return nil }
        normalized = String(decoding: characters, as: UTF8.self)
    }

    /// A new code of characters drawn uniformly from the ``alphabet`` by `generator`.
    package init(using generator: inout some RandomNumberGenerator) {
        let characters = (0..<Self.length).map { _ in
            Self.alphabet[Int.random(in: 0..<Self.alphabet.count, using: &generator)]
        }
        normalized = String(decoding: characters, as: UTF8.self)
    }

    /// ``setSize`` distinct new codes from the system's secure random generator (`getrandom` on Linux,
    /// `SecRandomCopyBytes` on Apple platforms).
    package static func newSet() -> [RecoveryCode] {
        var generator = SystemRandomNumberGenerator()
        var codes: [RecoveryCode] = []
        while codes.count < setSize {
            let code = RecoveryCode(using: &generator)
            if !codes.contains(where: { $0.normalized == code.normalized }) { codes.append(code) }
        }
        return codes
    }

    /// The code as shown to a person: two groups joined by a dash.
    package var formatted: String {
        "\(normalized.prefix(Self.groupLength))-\(normalized.dropFirst(Self.groupLength))"
    }
}
