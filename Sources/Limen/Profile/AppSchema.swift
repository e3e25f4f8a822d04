import Foundation
import LimenOIDC

/// The app schema a Limen Server publishes at `GET /v1/app`: the fields a user's profile may have, and whether any is
/// encrypted on the device.
///
/// ```swift
/// let schema = try await client.user.schema()
/// for (name, field) in schema.fields where field.isEncrypted { print("\(name) is encrypted on this device") }
/// ```
///
/// Read leniently: members a newer server adds are ignored, so an app keeps working when the server grows.
public struct AppSchema: Sendable, Equatable {
    /// What a field holds.
    public enum FieldType: String, Sendable, Equatable {
        /// A JSON string.
        case string
        /// A JSON number.
        case number
        /// `true` or `false`.
        case boolean
        /// An RFC 3339 date or date-time, as a string.
        case date
        /// A JSON object.
        case object
        /// A JSON array.
        case array
    }

    /// One field of the schema.
    public struct Field: Sendable, Equatable {
        /// What it holds (for an encrypted field: what the device encrypts); `nil` for a type this SDK does not know.
        public var type: FieldType?
        /// Its label for people.
        public var displayName: String
        /// Whether a profile must have it once written.
        public var isRequired: Bool
        /// Whether the user may change it.
        public var isUserEditable: Bool
        /// Whether its value is encrypted on the device (see ``CurrentUser/set(field:value:)``).
        public var isEncrypted: Bool
        /// The pattern a string value must contain a match of, as the server checks it.
        public var regex: String?
        /// The least length (string), count (array) or value (number).
        public var minimum: Double?
        /// The greatest length (string), count (array) or value (number).
        public var maximum: Double?
    }

    /// The fields by name.
    public var fields: [String: Field]
    /// Whether the app encrypts fields on the device (`encryption.enabled`): each user then gets a key at sign-in.
    public var isEncryptionEnabled: Bool
    /// `GET /v1/app`'s answer as the server sent it (kept with the cached profile for offline reads).
    public let document: JSONValue

    /// Reads `GET /v1/app`'s answer: `{"schema": {"fields": {NAME: FIELD}}, "encryption": {"enabled": BOOL}}`.
    /// - Throws: ``ProfileError/malformedResponse(_:)`` when it is not of that shape.
    init(document: JSONValue) throws(ProfileError) {
        guard let root = document.objectValue, let schema = root["schema"]?.objectValue,
            let definitions = schema["fields"]?.objectValue
        else { throw .malformedResponse("the app schema has no schema.fields object") }
        var fields: [String: Field] = [:]
        for (name, definition) in definitions {
            guard let members = definition.objectValue else {
                throw .malformedResponse("the app schema's field \(name) is not an object")
            }
            let validation = members["validation"]?.objectValue ?? [:]
            fields[name] = Field(
                type: members["type"]?.stringValue.flatMap(FieldType.init(rawValue:)),
                displayName: members["display_name"]?.stringValue ?? name,
                isRequired: members["required"]?.boolValue ?? false,
                isUserEditable: members["user_editable"]?.boolValue ?? true,
                isEncrypted: members["encrypted"]?.boolValue ?? false,
                regex: validation["regex"]?.stringValue,
                minimum: validation["min"]?.numberValue,
                maximum: validation["max"]?.numberValue
            )
        }
        self.fields = fields
        self.isEncryptionEnabled =
            root["encryption"]?.objectValue?["enabled"]?.boolValue ?? fields.values.contains { $0.isEncrypted }
        self.document = document
    }
}
