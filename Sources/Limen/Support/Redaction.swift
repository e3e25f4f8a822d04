import Crypto
import Foundation

/// How secrets appear in logs: never their value, only a short fingerprint that tells two tokens apart.
enum Redaction {
    /// `sha256:` and the first 8 hex digits of the secret's SHA-256.
    static func fingerprint(_ secret: String) -> String {
        "sha256:" + SHA256.hash(data: Data(secret.utf8)).prefix(4).map { String(format: "%02x", $0) }.joined()
    }
}
