import Foundation
import FuzzSupport
import LimenWire

/// The key every input is decrypted with: the bytes 0x00…0x1f (the seed corpus holds values made with it).
let key = try? FieldEncryptionKey(bytes: Array(0..<32) as [UInt8])

// A compact JWE taken apart (five base64url segments, the JSON header), the field-value shape check the server uses,
// and decryption with a fixed key: whatever parses serializes back to a JWE that parses equal, and a field value
// that decrypts has the shape ``CompactJWE/isFieldValue(_:)`` accepts.
FuzzDriver.run { input in
    let text = String(decoding: input, as: UTF8.self)
    let isFieldValue = CompactJWE.isFieldValue(text)
    if let jwe = try? CompactJWE(text) {
        guard (try? CompactJWE(jwe.serialized)) == jwe else { fatalError("a parsed JWE does not read back equal") }
    }
    if (try? key?.decrypt(text)) != nil, !isFieldValue {
        fatalError("a value that decrypts is not a field value")
    }
}
