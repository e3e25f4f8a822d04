import Foundation
import LimenWire

/// Who writes a profile: the user (through `/v1/me/data`, only `user_editable` fields) or an administrator.
package enum ProfileWriter: Sendable, Equatable {
    /// The signed-in user.
    case user
    /// The admin API.
    case administrator
}

/// Checking a write against the app schema.
///
/// Only the members a write changes are checked, so that a schema change never locks a user out of the rest of their
/// data: a changed member must be a field of the schema (removing one that no longer is, is allowed), one the writer
/// may change, and its value must pass the field's rules (an encrypted field's value must be its JWE, see
/// ``EncryptedFieldJWE``). Then every required field the writer may set must be present.
extension ProfileSchema {
    /// Checks the write that turns `old` into `new`, by `writer`; throws the first refusal, by field name.
    package func check(
        _ new: [String: JSONValue],
        replacing old: [String: JSONValue],
        by writer: ProfileWriter
    ) throws(ProfileError) {
        for name in Set(old.keys).union(new.keys).sorted() where new[name] != old[name] {
            guard let field = fields[name] else {
                if new[name] == nil { continue }
                throw .invalidField(field: name, reason: "is not a field of the app schema")
            }
            guard writer == .administrator || field.isUserEditable else {
                throw .invalidField(field: name, reason: "is not editable by the user")
            }
            if let value = new[name] { try field.check(value, named: name) }
        }
        for (name, field) in fields.sorted(by: { $0.key < $1.key })
        where field.isRequired && new[name] == nil && (writer == .administrator || field.isUserEditable) {
            throw .invalidField(field: name, reason: "is required")
        }
    }
}

extension ProfileSchema {
    /// What a user's `PUT` of `sent` makes of `current`: `sent`, with the fields the user may not edit keeping their
    /// values (the replacement need not repeat them; sent with another value, the check refuses them).
    package func userReplacement(_ sent: [String: JSONValue], of current: [String: JSONValue]) -> [String: JSONValue] {
        sent.merging(current.filter { fields[$0.key]?.isUserEditable == false }) { sent, _ in sent }
    }
}

extension ProfileField {
    /// Checks `value` as this field's (named `name`).
    package func check(_ value: JSONValue, named name: String) throws(ProfileError) {
        func refuse(_ reason: String) -> ProfileError { .invalidField(field: name, reason: reason) }
        guard value.serialized().count <= ProfileLimits.maximumFieldSize else {
            throw refuse("is larger than \(ProfileLimits.maximumFieldSize / 1024) KiB")
        }
        if isEncrypted {
            guard case .string(let jwe) = value else {
                throw refuse("is encrypted: its value must be a JWE made on the device, never plaintext")
            }
            do {
                try EncryptedFieldJWE.check(jwe)
            } catch {
                throw refuse("is encrypted: \(error.reason); a plaintext value is refused")
            }
            return
        }
        let measure: Double
        switch (type, value) {
        case (.string, .string(let text)):
            measure = Double(text.unicodeScalars.count)
            guard UserInfoClaims.accepts(text, as: name) else {
                throw refuse("is a URL claim of OpenID Connect: use an absolute https URL")
            }
            if let pattern = validation.pattern {
                switch pattern.matches(text) {
                case true?: break
                case false?: throw refuse("does not match the field's regex")
                case nil: throw refuse("is too complex to check against the field's regex")
                }
            }
        case (.number, .number(let number)) where number.isFinite: measure = number
        case (.array, .array(let elements)): measure = Double(elements.count)
        case (.boolean, .bool), (.object, .object): return
        case (.date, .string(let text)):
            guard RFC3339Date.isValid(text) else {
                throw refuse("must be an RFC 3339 date (2024-02-29) or date-time (2024-02-29T12:00:00Z)")
            }
            return
        default: throw refuse("must be of type \(type.rawValue)")
        }
        let unit = type == .number ? "" : type == .string ? " characters" : " elements"
        let prefix = type == .number ? "must be" : "must have"
        if let minimum = validation.minimum, measure < minimum {
            throw refuse("\(prefix) at least \(Self.text(minimum))\(unit)")
        }
        if let maximum = validation.maximum, measure > maximum {
            throw refuse("\(prefix) at most \(Self.text(maximum))\(unit)")
        }
    }

    /// `number` as JSON writes it (`3`, not `3.0`).
    private static func text(_ number: Double) -> String {
        String(decoding: JSONValue.number(number).serialized(), as: UTF8.self)
    }
}
