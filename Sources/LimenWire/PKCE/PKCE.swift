import Crypto
import Foundation

/// A Proof Key for Code Exchange pair (RFC 7636), always with the `S256` method.
///
/// ```swift
/// let pkce = PKCE()
/// request.codeChallenge = pkce.challenge   // sent with the authorization request
/// exchange(code, verifier: pkce.verifier)   // sent with the token request
/// ```
public struct PKCE: Sendable, Equatable {
    /// The secret kept by the client until the token request (43 to 128 unreserved characters).
    public let verifier: String
    /// `BASE64URL(SHA256(ASCII(verifier)))`, sent in the authorization request.
    public let challenge: String
    /// The challenge method; Limen only uses `S256` (RFC 9700 §2.1.1 forbids `plain` where S256 is possible).
    public var method: String { "S256" }

    /// Makes a fresh pair from 32 random bytes (a 43-character verifier).
    public init() {
        self.init(uncheckedVerifier: RandomToken.make(byteCount: 32))
    }

    /// Rebuilds a pair from a known verifier; `nil` when the verifier breaks RFC 7636 §4.1.
    public init?(verifier: String) {
        let allowed = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
        guard (43...128).contains(verifier.count), verifier.allSatisfy(allowed.contains) else { return nil }
        self.init(uncheckedVerifier: verifier)
    }

    private init(uncheckedVerifier verifier: String) {
        self.verifier = verifier
        self.challenge = Base64URL.encode(SHA256.hash(data: Data(verifier.utf8)))
    }
}
