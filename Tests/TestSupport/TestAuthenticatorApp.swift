import Crypto
import Foundation

/// An authenticator app for tests: the RFC 6238 codes (HMAC-SHA1, 6 digits, 30-second steps, as `otpauth://totp`
/// URIs without parameters for them mean) of a base32 secret, such as the one Limen Server's `totp-enrol` hands out.
public struct TestAuthenticatorApp: Sendable {
    /// The shared secret's bytes.
    public let secret: [UInt8]

    /// The app holding `secret`'s bytes.
    public init(secret: [UInt8]) {
        self.secret = secret
    }

    /// The app holding the base32 (RFC 4648 §6) `secret`, in any case and with or without padding; `nil` when it is
    /// not base32.
    public init?(base32 secret: String) {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567")
        var (bytes, buffer, bits) = ([UInt8](), 0, 0)
        for character in secret.uppercased() where character != "=" {
            guard let index = alphabet.firstIndex(of: character) else { return nil }
            (buffer, bits) = ((buffer << 5) | index, bits + 5)
            if bits >= 8 {
                bits -= 8
                bytes.append(UInt8((buffer >> bits) & 0xFF))
            }
        }
        self.init(secret: bytes)
    }

    /// The code the app shows at `date`, or `steps` 30-second steps after it (RFC 6238 §4, RFC 4226 §5.3).
    public func code(at date: Date = Date(), steps: Int = 0) -> String {
        let counter = UInt64(date.timeIntervalSince1970 / 30) &+ UInt64(bitPattern: Int64(steps))
        let message = withUnsafeBytes(of: counter.bigEndian) { Data($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: message, using: SymmetricKey(data: secret)))
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let truncated = mac[offset..<offset + 4].reduce(UInt32(0)) { ($0 << 8) | UInt32($1) } & 0x7FFF_FFFF
        let code = String(truncated % 1_000_000)
        return String(repeating: "0", count: 6 - code.count) + code
    }
}
