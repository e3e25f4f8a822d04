import Foundation

/// Unpadded base64url (RFC 4648 §5), as JOSE uses it (RFC 7515 §2).
enum Base64URL {
    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")

    /// Decodes unpadded base64url; `nil` for padding, characters outside the alphabet, or an impossible length.
    static func decode(_ text: some StringProtocol) -> Data? {
        guard text.allSatisfy(alphabet.contains), text.count % 4 != 1 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64.append(String(repeating: "=", count: (4 - base64.count % 4) % 4))
        return Data(base64Encoded: base64)
    }

    /// Encodes bytes as unpadded base64url.
    static func encode(_ bytes: some DataProtocol) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
