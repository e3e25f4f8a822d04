import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// `PUT /admin/app/schema`: `{"fields": {NAME: FIELD}}`, read strictly by ``AdminJSON`` and then by
/// ``ProfileSchema/init(parsing:)``, which refuses unknown members at every level.
package struct AdminAppSchemaRequest: AdminRequestBody, Sendable {
    package typealias Members = CodingKeys

    package var fields: JSONValue

    package enum CodingKeys: String, CodingKey, CaseIterable {
        case fields
    }

    /// The schema the body sets.
    package func schema() throws(AdminError) -> ProfileSchema {
        do {
            return try ProfileSchema(parsing: .object(["fields": fields]))
        } catch {
            throw .invalidRequest(error.errorDescription ?? error.code)
        }
    }
}

/// A profile as the admin API shows it: an encrypted field's value is replaced by ``opaque``, since only the user's
/// device can read it. A write that sends ``opaque`` back for an encrypted field keeps its stored value, so a profile
/// read, edited and written back whole keeps its ciphertexts.
package enum AdminProfileView {
    /// What an encrypted field's value shows as: `{"encrypted": true}`.
    package static let opaque = JSONValue.object(["encrypted": .bool(true)])

    /// `data` as shown to administrators under `schema`.
    package static func shown(_ data: [String: JSONValue], schema: ProfileSchema) -> [String: JSONValue] {
        data.reduce(into: [:]) { shown, member in
            shown[member.key] = schema.fields[member.key]?.isEncrypted == true ? opaque : member.value
        }
    }

    /// `written` with each encrypted field sent as ``opaque`` given its value in `current` (or removed when there is
    /// none).
    package static func resolved(
        _ written: [String: JSONValue],
        current: [String: JSONValue],
        schema: ProfileSchema
    ) -> [String: JSONValue] {
        written.reduce(into: [:]) { resolved, member in
            let isKept = member.value == opaque && schema.fields[member.key]?.isEncrypted == true
            resolved[member.key] = isKept ? current[member.key] : member.value
        }
    }
}
