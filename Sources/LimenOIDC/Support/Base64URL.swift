import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
///
/// Works on UTF-8 bytes rather than `Character`s: tokens are long ASCII strings on a hot path.
public enum Base64URL {
    /// Encodes bytes without padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        var encoded = Array(Data(bytes).base64EncodedData())
        while encoded.last == UInt8(ascii: "=") { encoded.removeLast() }
        for index in encoded.indices {
            switch encoded[index] {
            case UInt8(ascii: "+"): encoded[index] = UInt8(ascii: "-")
            case UInt8(ascii: "/"): encoded[index] = UInt8(ascii: "_")
            default: break
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// Decodes unpadded base64url (RFC 7515 §2); `nil` for padding, characters outside the alphabet, or an
    /// impossible length.
    public static func decode(_ text: some StringProtocol) -> Data? {
        var bytes = Array(text.utf8)
        guard bytes.count % 4 != 1 else { return nil }
        for index in bytes.indices {
            switch bytes[index] {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"):
                continue
            case UInt8(ascii: "-"): bytes[index] = UInt8(ascii: "+")
            case UInt8(ascii: "_"): bytes[index] = UInt8(ascii: "/")
            default: return nil
            }
        }
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "="), count: (4 - bytes.count % 4) % 4))
        return Data(base64Encoded: Data(bytes))
    }
}
