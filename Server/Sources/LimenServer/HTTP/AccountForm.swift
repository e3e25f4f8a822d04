import Foundation
import LimenServerCore
import LimenServerWire
import LimenWire

/// The profile form of `/account` as a merge patch of the profile's data: each `field.NAME` of a field the user may
/// edit and the form can hold (``editableTypes``) sets it, an empty one removes it; other fields are left alone.
enum AccountForm {
    /// The field types the form edits; objects and arrays are shown, not edited.
    static let editableTypes: Set<ProfileFieldType> = [.string, .number, .date, .boolean]

    /// The data members `form` sets (`null`: removed) under `schema`; a value that is not of its field's type is a
    /// refusal naming the field, like the API's.
    static func changes(in form: FormFields, schema: ProfileSchema) throws(ProfileError) -> [String: JSONValue] {
        var changes: [String: JSONValue] = [:]
        for (name, field) in schema.fields where field.isUserEditable && !field.isEncrypted {
            guard editableTypes.contains(field.type), let text = form["field.\(name)"] else { continue }
            if text.isEmpty {
                changes[name] = .null
                continue
            }
            switch field.type {
            case .number:
                guard let number = Double(text.trimmingCharacters(in: .whitespaces)), number.isFinite else {
                    throw .invalidField(field: name, reason: "must be a number")
                }
                changes[name] = .number(number)
            case .boolean:
                guard let flag = Bool(text) else { throw .invalidField(field: name, reason: "must be yes or no") }
                changes[name] = .bool(flag)
            default: changes[name] = .string(text)
            }
        }
        return changes
    }
}
