import Foundation
import LimenWire

/// Why an app schema is refused: the member at fault (`fields.email.encrypted`) and what is wrong with it.
package struct ProfileSchemaError: Error, Sendable, Equatable, LocalizedError {
    /// The path of the member at fault, dot-separated from the document's root; empty for the document itself.
    package var path: String
    /// What is wrong.
    package var reason: String

    /// A stable code for logs and tests.
    package var code: String { "profile.invalid_schema" }

    /// `path: reason` (the reason alone for the document itself).
    package var errorDescription: String? { path.isEmpty ? reason : "\(path): \(reason)" }
}

/// Reading an app schema strictly: every member known, of its type, each rule applicable to the field's type.
extension ProfileSchema {
    /// The most fields a schema has.
    static let maximumFieldCount = 100
    /// The longest display name, in characters.
    static let maximumDisplayNameLength = 200
    /// Fields that identify the user (indexed, shown to administrators): never encrypted.
    static let identifyingFields: Set<String> = ["email", "phone_number"]
    /// Names the server fills itself: `id` (the user's `sub`, as the SDK's `user.get(field: "id")` answers) and
    /// `updated_at` (the profile's last write, the OpenID claim).
    static let reservedNames: Set<String> = ["id", "updated_at"]

    /// Reads a `{"fields": {NAME: FIELD}}` document.
    package init(parsing document: JSONValue) throws(ProfileSchemaError) {
        let root = try Self.members(of: document, at: "", allowed: ["fields"])
        guard let fieldsValue = root["fields"] else { throw ProfileSchemaError(path: "fields", reason: "is required") }
        guard case .object(let definitions) = fieldsValue else {
            throw ProfileSchemaError(path: "fields", reason: "must be an object of fields by name")
        }
        guard definitions.count <= Self.maximumFieldCount else {
            throw ProfileSchemaError(path: "fields", reason: "has more than \(Self.maximumFieldCount) fields")
        }
        var fields: [String: ProfileField] = [:]
        for (name, definition) in definitions {
            fields[name] = try ProfileField(name: name, parsing: definition)
        }
        self.init(fields: fields)
    }

    /// Whether `name` may name a field: a letter or `_`, then letters, digits or `_`, at most 64 in all.
    static func isValidName(_ name: String) -> Bool {
        let scalars = Array(name.unicodeScalars)
        guard (1...64).contains(scalars.count), scalars.allSatisfy({ $0.isASCII }) else { return false }
        let isLetter: (Unicode.Scalar) -> Bool = { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || $0 == "_" }
        return isLetter(scalars[0]) && scalars.dropFirst().allSatisfy { isLetter($0) || ("0"..."9").contains($0) }
    }

    /// The members of the object `value` at `path`, refusing any not in `allowed`.
    package static func members(
        of value: JSONValue,
        at path: String,
        allowed: Set<String>
    ) throws(ProfileSchemaError) -> [String: JSONValue] {
        guard case .object(let members) = value else {
            throw ProfileSchemaError(
                path: path, reason: path.isEmpty ? "the schema must be an object" : "must be an object")
        }
        if let unknown = members.keys.filter({ !allowed.contains($0) }).min() {
            throw ProfileSchemaError(
                path: path.isEmpty ? unknown : "\(path).\(unknown)",
                reason: "is not a member; known: \(allowed.sorted().joined(separator: ", "))")
        }
        return members
    }
}

extension ProfileField {
    /// The members a field definition may have.
    package static let members: Set<String> = [
        "type", "display_name", "required", "user_editable", "encrypted", "validation",
    ]

    /// Reads the definition of the field `name`.
    package init(name: String, parsing definition: JSONValue) throws(ProfileSchemaError) {
        let path = "fields.\(name)"
        guard ProfileSchema.isValidName(name) else {
            throw ProfileSchemaError(
                path: path, reason: "a field name is 1 to 64 ASCII letters, digits or _, not starting with a digit")
        }
        guard !ProfileSchema.reservedNames.contains(name) else {
            throw ProfileSchemaError(path: path, reason: "is set by the server and cannot be a field")
        }
        let members = try ProfileSchema.members(of: definition, at: path, allowed: Self.members)
        guard case .string(let typeName)? = members["type"], let type = ProfileFieldType(rawValue: typeName) else {
            throw ProfileSchemaError(
                path: "\(path).type",
                reason: "must be one of \(ProfileFieldType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        self.init(type: type, displayName: name)
        if let value = members["display_name"] {
            guard case .string(let displayName) = value, !displayName.isEmpty,
                displayName.count <= ProfileSchema.maximumDisplayNameLength
            else {
                throw ProfileSchemaError(
                    path: "\(path).display_name",
                    reason: "must be a string of 1 to \(ProfileSchema.maximumDisplayNameLength) characters")
            }
            self.displayName = displayName
        }
        isRequired = try Self.flag(members["required"], at: "\(path).required") ?? false
        isUserEditable = try Self.flag(members["user_editable"], at: "\(path).user_editable") ?? true
        isEncrypted = try Self.flag(members["encrypted"], at: "\(path).encrypted") ?? false
        if isEncrypted, ProfileSchema.identifyingFields.contains(name) {
            throw ProfileSchemaError(
                path: "\(path).encrypted",
                reason: "an identifying field (\(ProfileSchema.identifyingFields.sorted().joined(separator: ", "))) "
                    + "cannot be encrypted")
        }
        if let value = members["validation"] {
            validation = try ProfileFieldValidation(parsing: value, for: type, at: "\(path).validation")
            if isEncrypted, !validation.isEmpty {
                throw ProfileSchemaError(
                    path: "\(path).validation",
                    reason: "cannot apply to an encrypted field: the server never sees its value")
            }
        }
    }

    private static func flag(_ value: JSONValue?, at path: String) throws(ProfileSchemaError) -> Bool? {
        guard let value else { return nil }
        guard case .bool(let flag) = value else {
            throw ProfileSchemaError(path: path, reason: "must be true or false")
        }
        return flag
    }
}

extension ProfileFieldValidation {
    /// Reads the `validation` of a field of `type`.
    package init(parsing value: JSONValue, for type: ProfileFieldType, at path: String) throws(ProfileSchemaError) {
        let members = try ProfileSchema.members(of: value, at: path, allowed: ["regex", "min", "max"])
        self.init()
        if let regex = members["regex"] {
            guard type == .string else {
                throw ProfileSchemaError(path: "\(path).regex", reason: "applies to string fields only")
            }
            guard case .string(let source) = regex else {
                throw ProfileSchemaError(path: "\(path).regex", reason: "must be a string")
            }
            do {
                pattern = try FieldPattern(source)
            } catch {
                throw ProfileSchemaError(path: "\(path).regex", reason: error.reason)
            }
        }
        minimum = try Self.bound(members["min"], for: type, at: "\(path).min")
        maximum = try Self.bound(members["max"], for: type, at: "\(path).max")
        if let minimum, let maximum, minimum > maximum {
            throw ProfileSchemaError(path: "\(path).min", reason: "must not be greater than max")
        }
    }

    /// A `min` or `max`: a whole number of at least 0 for strings and arrays, any finite number for numbers.
    private static func bound(
        _ value: JSONValue?,
        for type: ProfileFieldType,
        at path: String
    ) throws(ProfileSchemaError) -> Double? {
        guard let value else { return nil }
        guard case .number(let bound) = value, bound.isFinite else {
            throw ProfileSchemaError(path: path, reason: "must be a number")
        }
        switch type {
        case .number: return bound
        case .string, .array:
            guard bound >= 0, bound.rounded(.towardZero) == bound else {
                throw ProfileSchemaError(
                    path: path, reason: "bounds a \(type == .string ? "length" : "count"): a whole number of at least 0"
                )
            }
            return bound
        case .boolean, .date, .object:
            throw ProfileSchemaError(path: path, reason: "applies to string, array and number fields only")
        }
    }
}
