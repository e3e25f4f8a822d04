/// The RSA public keys the server checks signatures with (WebAuthn credential keys, DPoP proof keys): how large their
/// modulus may be.
enum RSAModulus {
    /// The modulus sizes accepted, in bits: 2,048 at least (NIST SP 800-131A), 4,096 at most, so that checking a
    /// signature stays cheap whoever chose the key.
    static let acceptedBits: ClosedRange<Int> = 2048...4096

    /// Whether the big-endian unsigned integer `modulus` has an accepted number of significant bits.
    static func isAccepted(_ modulus: some Collection<UInt8>) -> Bool {
        acceptedBits.contains(bitLength(modulus))
    }

    /// The number of significant bits of a big-endian unsigned integer.
    static func bitLength(_ bytes: some Collection<UInt8>) -> Int {
        guard let first = bytes.firstIndex(where: { $0 != 0 }) else { return 0 }
        return bytes.distance(from: first, to: bytes.endIndex) * 8 - bytes[first].leadingZeroBitCount
    }
}
