import Crypto
import Foundation

/// A webhook's signing secret as the Standard Webhooks specification writes it: `whsec_` and the standard base64 of 32
/// random bytes. The bytes are the HMAC key; the string is shown once, when the webhook is created or its secret
/// rotated, and kept sealed at rest (``Webhooks``), since the server must read it back to sign.
package struct WebhookSecret: Sendable, Equatable {
    package static func == (lhs: WebhookSecret, rhs: WebhookSecret) -> Bool {
        lhs.rawValue == rhs.rawValue
    }

    /// The prefix the specification gives secrets.
    static let prefix = "whsec_"
    /// How many random bytes a new secret has.
    static let byteCount = 32

    /// The `whsec_…` string.
    package let rawValue: String
    /// The HMAC key: the base64-decoded part after the prefix.
    let key: SymmetricKey

    /// The secret spelled `rawValue`, or `nil` when it is not `whsec_` and base64.
    package init?(rawValue: String) {
        guard rawValue.hasPrefix(Self.prefix), let bytes = Data(base64Encoded: String(rawValue.dropFirst(6))),
            !bytes.isEmpty
        else { return nil }
        self.rawValue = rawValue
        key = SymmetricKey(data: bytes)
    }

    /// A new random secret.
    package static func random() -> WebhookSecret {
        let bytes = SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) }
        // A prefix and base64 always make a secret.
        return WebhookSecret(bytes: bytes)
    }

    private init(bytes: Data) {
        rawValue = Self.prefix + bytes.base64EncodedString()
        key = SymmetricKey(data: bytes)
    }

    /// The `webhook-signature` header of the message `id` sent at `timestamp` (Unix seconds) with `body`: `v1,` and the
    /// base64 HMAC-SHA256 of `id.timestamp.body` (Standard Webhooks, "Signature scheme").
    package func signature(id: String, timestamp: Int64, body: Data) -> String {
        var signed = Data("\(id).\(timestamp).".utf8)
        signed.append(body)
        return "v1," + Data(HMAC<SHA256>.authenticationCode(for: signed, using: key)).base64EncodedString()
    }
}
