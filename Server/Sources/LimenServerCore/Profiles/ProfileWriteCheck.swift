import Foundation
import LimenServerStorage
import LimenWire

/// A user's `PUT /v1/me/data` as the server checks it, without HTTP or storage: for the fuzz harness
/// (Server/Fuzz/ProfileData), which lives outside this module.
package enum ProfileWriteCheck {
    /// What a checked write gives.
    package struct Accepted: Sendable {
        /// The data that would be stored.
        package var data: [String: JSONValue]
        /// The names of the schema's encrypted fields.
        package var encryptedFields: Set<String>
    }

    /// The data the body `json` would store over `current` under the schema document `schema` (JSON text of
    /// `{"fields": …}`), or why the schema or the write is refused.
    package static func replace(
        _ current: [String: JSONValue],
        with json: Data,
        schema: Data
    ) -> Result<Accepted, ProfileCheckRefusal> {
        let parsed: ProfileSchema
        do {
            parsed = try ProfileSchema(parsing: try JSONValue(parsing: schema))
        } catch {
            return .failure(ProfileCheckRefusal(description: "schema: \(error)"))
        }
        do throws(ProfileError) {
            let data = parsed.userReplacement(try ProfileBody.replacement(from: json), of: current)
            try parsed.check(data, replacing: current, by: .user)
            return .success(
                Accepted(data: data, encryptedFields: Set(parsed.fields.filter { $0.value.isEncrypted }.keys)))
        } catch {
            return .failure(ProfileCheckRefusal(description: error.errorDescription ?? error.code))
        }
    }
}

/// Why ``ProfileWriteCheck`` refused a schema or a write.
package struct ProfileCheckRefusal: Error, Sendable {
    /// What was refused and why.
    package var description: String
}
