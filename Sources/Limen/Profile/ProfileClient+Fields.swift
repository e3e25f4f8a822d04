import Foundation
import LimenWire

/// The encrypted fields of a profile: a field the app schema flags `encrypted` travels and is stored as a compact JWE
/// made with the user's key (see ``CurrentUser/encrypt(plaintext:)``). A string value is encrypted as its UTF-8 text
/// (so any JOSE library with the key reads the text itself); any other value as its JSON text. Decrypted, a `string`
/// or `date` field (or one of a type this SDK does not know) is that text as a string; other types are the JSON value
/// the text holds.
extension ProfileClient {
    /// `snapshot`'s data with every encrypted field decrypted.
    /// - Throws: ``ProfileError/undecryptableField(field:reason:)`` for the first field that cannot be decrypted.
    func plaintext(of snapshot: ProfileSnapshot) async throws(LimenError) -> [String: JSONValue] {
        var data = snapshot.data
        for (name, field) in snapshot.schema.fields where field.isEncrypted {
            guard case .string(let ciphertext)? = data[name] else { continue }
            data[name] = try await decryptField(name, ciphertext, type: field.type)
        }
        return data
    }

    /// `values` as they are sent: the fields `schema` flags encrypted encrypted, `null` (a removal) as it is.
    func encryptedFields(_ values: [String: JSONValue], schema: AppSchema) async throws(LimenError)
        -> [String: JSONValue]
    {
        var sent = values
        for (name, value) in values where value != .null && schema.fields[name]?.isEncrypted == true {
            sent[name] = try await encryptField(value)
        }
        return sent
    }

    /// `value` encrypted with the signed-in user's key (created first if they have none).
    func encryptField(_ value: JSONValue) async throws(LimenError) -> JSONValue {
        let plaintext = if case .string(let text) = value { Array(text.utf8) } else { value.serialized() }
        let key = try await fieldEncryptionKey(creating: true)
        do {
            return .string(try key.encrypt(plaintext))
        } catch {
            throw .encryption(error)
        }
    }

    /// The value of the encrypted field `name` (of `type`) whose stored value is `ciphertext`.
    /// - Throws: ``ProfileError/undecryptableField(field:reason:)`` when this device cannot decrypt it.
    func decryptField(_ name: String, _ ciphertext: String, type: AppSchema.FieldType?)
        async throws(LimenError) -> JSONValue
    {
        let undecryptable = { (reason: EncryptionError) in
            LimenError.profile(.undecryptableField(field: name, reason: reason))
        }
        let key: FieldEncryptionKey
        do {
            key = try await fieldEncryptionKey(creating: false)
        } catch {
            if case .encryption(let reason) = error { throw undecryptable(reason) }
            throw error
        }
        let bytes: [UInt8]
        do {
            bytes = try key.decrypt(ciphertext)
        } catch {
            throw undecryptable(error)
        }
        guard let text = String(strictUTF8: bytes) else {
            throw undecryptable(.malformed(.invalidPayload))
        }
        switch type {
        case .string?, .date?, nil:
            return .string(text)
        case .number?, .boolean?, .object?, .array?:
            guard let value = try? JSONValue(parsing: bytes) else { throw undecryptable(.malformed(.invalidPayload)) }
            return value
        }
    }
}
