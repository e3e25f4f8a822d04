import Foundation

/// Base64url without padding (RFC 4648 §5), as JOSE and PKCE use it.
public enum Base64URL {
    /// Encodes bytes without padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// Decodes unpadded base64url (RFC 7515 §2); `nil` for padding, characters outside the alphabet, or an
    /// impossible length.
    public static func decode(_ text: some StringProtocol) -> Data? {
        guard text.allSatisfy(alphabet.contains), text.count % 4 != 1 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64.append(String(repeating: "=", count: (4 - base64.count % 4) % 4))
        return Data(base64Encoded: base64)
    }
}
