import Crypto
import Foundation
import LimenWire

/// The signature of a webhook POST, in the `Limen-Signature` header, in the form Stripe uses:
///
/// ```
/// Limen-Signature: t=1764072000,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd
/// ```
///
/// `t` is the time of sending in Unix seconds and `v1` the lowercase hex HMAC-SHA256, keyed with
/// `mail_webhook_secret`'s UTF-8 bytes, of `"\(t).\(body)"` (the timestamp, a dot, the exact body bytes). A receiver
/// recomputes it, compares in constant time, and refuses a `t` more than five minutes from its clock, so that a
/// captured request cannot be replayed later.
package enum WebhookSignature {
    /// The header's name.
    package static let headerName = "Limen-Signature"
    /// The shortest secret the configuration takes.
    static let minimumSecretLength = 32

    /// The header's value for `body` sent at `date`.
    package static func header(body: Data, secret: String, date: Date) -> String {
        let timestamp = Int(date.timeIntervalSince1970.rounded(.down))
        var signed = Data("\(timestamp).".utf8)
        signed.append(body)
        let mac = HMAC<SHA256>.authenticationCode(for: signed, using: SymmetricKey(data: Data(secret.utf8)))
        return "t=\(timestamp),v1=" + mac.lowercaseHex
    }
}
