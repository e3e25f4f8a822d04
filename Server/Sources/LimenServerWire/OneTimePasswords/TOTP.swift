import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238) with HMAC-SHA1, as authenticator apps compute them: by default 6 digits
/// that change every 30 seconds.
///
/// SHA-1 is the only algorithm: it is the one every authenticator app supports, and HMAC-SHA1 stays sound as a MAC
/// (RFC 6238's SHA-256 and SHA-512 options are ignored by several apps, which then show wrong codes).
///
/// ```swift
/// let secret = TOTP.newSecret()                  // store it encrypted; show it once as an OTPAuthURI
/// let totp = try TOTP(secret: secret)
/// totp.code(at: Date())                          // "492039"
/// ```
package struct TOTP: Sendable {
    /// The length of a new secret: 160 bits, the HMAC-SHA1 output size RFC 4226 §4 recommends.
    package static let secretByteCount = 20
    /// The shortest secret accepted: 128 bits (RFC 4226 §4, requirement R6).
    package static let minimumSecretByteCount = 16
    /// The numbers of digits authenticator apps show (the Key Uri Format allows 6 or 8; 7 is RFC 4226's too).
    package static let digitRange: ClosedRange<Int> = 6...8

    /// The shared secret (the HMAC key).
    package let secret: [UInt8]
    /// How many digits a code has.
    package let digits: Int
    /// How many seconds a time step lasts (RFC 6238's X); steps count from the Unix epoch (T0 = 0).
    package let period: Int

    /// A generator for `secret`; refuses a secret shorter than 128 bits, digits outside ``digitRange`` and a period
    /// below one second.
    package init(secret: [UInt8], digits: Int = 6, period: Int = 30) throws(OneTimePasswordError) {
        guard secret.count >= Self.minimumSecretByteCount else { throw .secretTooShort }
        guard Self.digitRange.contains(digits), period > 0 else { throw .invalidParameters }
        self.secret = secret
        self.digits = digits
        self.period = period
    }

    /// A new secret of ``secretByteCount`` bytes from swift-crypto's secure random generator.
    package static func newSecret() -> [UInt8] {
        SymmetricKey(size: SymmetricKeySize(bitCount: secretByteCount * 8)).withUnsafeBytes { Array($0) }
    }

    /// The time step `date` falls in (RFC 6238 §4.2: the whole periods since the epoch, rounded down, so a time before
    /// 1970 has a negative step). A date beyond what 64 bits count is held at the nearest end.
    package func timeStep(at date: Date) -> Int64 {
        let steps = (date.timeIntervalSince1970 / Double(period)).rounded(.down)
        return Int64(exactly: steps) ?? (steps > 0 ? .max : .min)
    }

    /// The code shown at `date`, zero-padded to ``digits`` digits.
    package func code(at date: Date) -> String {
        code(forStep: timeStep(at: date))
    }

    /// The code of time step `step`: HOTP (RFC 4226 §5.3) of the step as an 8-byte big-endian counter.
    package func code(forStep step: Int64) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: SymmetricKey(data: secret)))
        // Dynamic truncation (RFC 4226 §5.4): 31 bits read at the offset the last byte's low nibble gives.
        let offset = Int(mac[mac.count - 1] & 0x0F)
        let binary = mac[offset..<offset + 4].reduce(UInt32(0)) { ($0 << 8) | UInt32($1) } & 0x7FFF_FFFF
        var modulus: UInt32 = 1
        for _ in 0..<digits { modulus *= 10 }
        let number = String(binary % modulus)
        return String(repeating: "0", count: digits - number.count) + number
    }
}
