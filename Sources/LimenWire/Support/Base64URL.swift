import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
///
/// Works on UTF-8 bytes rather than `Character`s: tokens are long ASCII strings on a hot path.
public enum Base64URL {
    /// Encodes bytes without padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var encoded: [UInt8] = []
        append(bytes, to: &encoded)
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Appends the unpadded base64url of `bytes` to `output`, three bytes to four characters through the alphabet:
    /// several segments can go into one buffer (a compact JWE is written this way).
    static func append<Bytes: Sequence>(_ bytes: Bytes, to output: inout [UInt8]) where Bytes.Element == UInt8 {
        let input = Array(bytes)
        output.reserveCapacity(output.count + (input.count * 4 + 2) / 3)
        alphabet.withUnsafeBufferPointer { table in
            var index = 0
            while index + 3 <= input.count {
                let group = UInt32(input[index]) << 16 | UInt32(input[index + 1]) << 8 | UInt32(input[index + 2])
                output.append(table[Int(group >> 18)])
                output.append(table[Int(group >> 12 & 0x3F)])
                output.append(table[Int(group >> 6 & 0x3F)])
                output.append(table[Int(group & 0x3F)])
                index += 3
            }
            let remaining = input.count - index
            guard remaining > 0 else { return }
            let group = UInt32(input[index]) << 16 | (remaining == 2 ? UInt32(input[index + 1]) << 8 : 0)
            output.append(table[Int(group >> 18)])
            output.append(table[Int(group >> 12 & 0x3F)])
            if remaining == 2 { output.append(table[Int(group >> 6 & 0x3F)]) }
        }
    }

    /// The 64 characters, indexed by the six bits each stands for.
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Decodes unpadded base64url (RFC 7515 §2); `nil` for padding, characters outside the alphabet, or an
    /// impossible length.
    ///
    /// Like `Data(base64Encoded:)`, it ignores the unused low bits of the last character.
    public static func decode(_ text: some StringProtocol) -> Data? {
        byteArray(text).map { Data($0) }
    }

    /// Decodes unpadded base64url, as ``decode(_:)`` does, into an array.
    static func byteArray(_ text: some StringProtocol) -> [UInt8]? {
        text.utf8.withContiguousStorageIfAvailable { bytes(utf8: $0) }
            ?? Array(text.utf8).withUnsafeBufferPointer { bytes(utf8: $0) }
    }

    /// Decodes unpadded base64url held as UTF-8 bytes, as ``decode(_:)`` does, into an array.
    ///
    /// Four characters at a time through a lookup table, without a branch per character: the characters of a
    /// signature are random, so branching on their class would mispredict often. An array rather than `Data`, whose
    /// storage checks exclusive access at run time on every resize, access and release.
    static func bytes(utf8: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard utf8.count % 4 != 1 else { return nil }
        let count = utf8.count * 3 / 4
        var isValid = false
        let decoded = [UInt8](unsafeUninitializedCapacity: count) { output, initializedCount in
            initializedCount = count
            isValid = sextets.withUnsafeBufferPointer { table -> Bool in
                var flags: UInt8 = 0
                var input = 0
                var written = 0
                while input + 4 <= utf8.count {
                    let first = table[Int(utf8[input])]
                    let second = table[Int(utf8[input + 1])]
                    let third = table[Int(utf8[input + 2])]
                    let fourth = table[Int(utf8[input + 3])]
                    flags |= first | second | third | fourth
                    let group = UInt32(first) << 18 | UInt32(second) << 12 | UInt32(third) << 6 | UInt32(fourth)
                    output[written] = UInt8(truncatingIfNeeded: group >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: group)
                    input += 4
                    written += 3
                }
                var group: UInt32 = 0
                for character in utf8[input...] {
                    let sextet = table[Int(character)]
                    flags |= sextet
                    group = group << 6 | UInt32(sextet)
                }
                switch utf8.count - input {
                case 2:
                    output[written] = UInt8(truncatingIfNeeded: group >> 4)
                case 3:
                    output[written] = UInt8(truncatingIfNeeded: group >> 10)
                    output[written + 1] = UInt8(truncatingIfNeeded: group >> 2)
                default:
                    break
                }
                return flags & invalid == 0
            }
        }
        return isValid ? decoded : nil
    }

    /// Marks a byte outside the alphabet in ``sextets``.
    private static let invalid: UInt8 = 0x80

    /// The six bits each byte stands for, indexed by the byte; ``invalid`` for bytes outside the alphabet.
    private static let sextets: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (value, character) in alphabet.enumerated() {
            table[Int(character)] = UInt8(value)
        }
        return table
    }()
}
