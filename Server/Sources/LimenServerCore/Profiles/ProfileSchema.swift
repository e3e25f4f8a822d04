import Foundation
import LimenWire

/// What a profile field holds.
package enum ProfileFieldType: String, Sendable, CaseIterable {
    /// A JSON string.
    case string
    /// A JSON number.
    case number
    /// `true` or `false`.
    case boolean
    /// A string in RFC 3339 form: a full date (`2024-02-29`) or a date-time (`2024-02-29T12:00:00Z`).
    case date
    /// A JSON object.
    case object
    /// A JSON array.
    case array
}

/// The checks a field's value must pass. `min`/`max` bound a string's length in Unicode code points, an array's count
/// of elements, or a number's value; they do not apply to the other types (a schema setting them there is refused).
/// `regex` applies to strings only, searched (not anchored: use `^…$`) with ``FieldPattern``.
package struct ProfileFieldValidation: Sendable, Equatable {
    /// The pattern a string must contain a match of.
    package var pattern: FieldPattern?
    /// The least length, count or value.
    package var minimum: Double?
    /// The greatest length, count or value.
    package var maximum: Double?

    /// Whether nothing is checked.
    package var isEmpty: Bool { pattern == nil && minimum == nil && maximum == nil }
}

/// One field of the app schema.
package struct ProfileField: Sendable, Equatable {
    /// What it holds (for an encrypted field: what the device encrypts).
    package var type: ProfileFieldType
    /// Its label for people; the field's name when not given.
    package var displayName: String
    /// Whether a profile must have it once written.
    package var isRequired = false
    /// Whether the user may change it (`/v1/me/data`); administrators always may.
    package var isUserEditable = true
    /// Whether its value is a JWE made on the user's device, stored as given and never readable by the server.
    package var isEncrypted = false
    /// The checks its value must pass (never for an encrypted field, whose value the server cannot see).
    package var validation = ProfileFieldValidation()
}

/// The app schema: the fields a profile may have (`GET /v1/app`, `PUT /admin/app/schema`, the `profile_schema`
/// configuration key).
///
/// ```swift
/// let schema = try ProfileSchema(parsing: .object(["fields": .object([
///     "nickname": .object(["type": .string("string"), "validation": .object(["max": .number(40)])]),
/// ])]))
/// ```
package struct ProfileSchema: Sendable, Equatable {
    /// No fields: nothing can be stored.
    package static let empty = ProfileSchema(fields: [:])

    /// The fields by name.
    package var fields: [String: ProfileField]

    /// Whether any field is encrypted on the device: `GET /v1/app`'s `encryption.enabled`.
    package var isEncryptionEnabled: Bool { fields.values.contains { $0.isEncrypted } }

    /// The `{"fields": …}` document, as `GET /v1/app` publishes it and `PUT /admin/app/schema` takes it.
    package var document: JSONValue {
        .object(["fields": .object(fields.mapValues(\.document))])
    }
}

extension ProfileField {
    /// The field as published: every flag, and the validation members that are set.
    package var document: JSONValue {
        var validation: [String: JSONValue] = [:]
        if let pattern = self.validation.pattern { validation["regex"] = .string(pattern.source) }
        if let minimum = self.validation.minimum { validation["min"] = .number(minimum) }
        if let maximum = self.validation.maximum { validation["max"] = .number(maximum) }
        return .object([
            "type": .string(type.rawValue), "display_name": .string(displayName), "required": .bool(isRequired),
            "user_editable": .bool(isUserEditable), "encrypted": .bool(isEncrypted),
            "validation": .object(validation),
        ])
    }
}
