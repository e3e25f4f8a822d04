import Crypto
import Foundation
import LimenWire

/// The nonce of one Sign in with Apple request: a fresh random value whose SHA-256 goes to Apple
/// (`ASAuthorizationAppleIDRequest.nonce`), so that the identity token Apple returns carries the hash and the server,
/// given the raw value, can tell that the token was made for this request and not replayed from another.
///
/// ```swift
/// let nonce = AppleSignInNonce()
/// request.nonce = nonce.sha256          // to Apple
/// try await client.signInWithApple(credential, nonce: nonce, allowMigration: nil)  // the raw value to Limen
/// ```
public struct AppleSignInNonce: Sendable, Equatable {
    /// The raw value, sent only to Limen Server: 32 random bytes, base64url.
    public let raw: String

    /// A new random nonce.
    public init() {
        raw = RandomToken.make()
    }

    /// A nonce with a value chosen elsewhere (one the app made before, or a test's).
    public init(raw: String) {
        self.raw = raw
    }

    /// The lowercase hexadecimal SHA-256 of ``raw``'s UTF-8 bytes: what Apple is given and puts in the token.
    public var sha256: String {
        String(
            SHA256.hash(data: Data(raw.utf8)).flatMap { byte in
                [Self.hexDigits[Int(byte >> 4)], Self.hexDigits[Int(byte & 0x0f)]]
            })
    }

    private static let hexDigits = Array("0123456789abcdef")
}

extension AppleSignInNonce: CustomStringConvertible, CustomDebugStringConvertible {
    /// Redacted: the raw value is a one-time secret of the request.
    public var description: String { "AppleSignInNonce(<redacted>)" }
    /// The same as ``description``.
    public var debugDescription: String { description }
}
