import Crypto
import Foundation
import LimenWire

/// How secrets appear in logs: never their value, only a short fingerprint that tells two tokens apart.
enum Redaction {
    /// `sha256:` and the first 8 hex digits of the secret's SHA-256.
    static func fingerprint(_ secret: String) -> String {
        "sha256:" + SHA256.hash(data: Data(secret.utf8)).prefix(4).lowercaseHex
    }
}
