import Foundation
import LimenServerWire
import LimenWire

/// The `AdminJSON` harness's check, also replayed over its seed corpus by `CorpusTests`: the input read as
/// each of the admin API's three JSON bodies (``AdminJSON``). An accepted body is a strict JSON object, and a refusal
/// never echoes the password it was sent.
package enum AdminJSONCheck {
    /// Checks one input; throws what it finds.
    package static func check(_ input: some Sequence<UInt8>) throws(FuzzFinding) {
        let json = Data(input)
        let refusals = [
            AdminJSON.refusal(of: json, as: AdminClientRequest.self),
            AdminJSON.refusal(of: json, as: AdminUserRequest.self),
            AdminJSON.refusal(of: json, as: AdminUserPatch.self),
        ]
        guard case .object(let members)? = try? JSONValue(parsing: json) else {
            guard refusals.allSatisfy({ $0 != nil }) else {
                throw FuzzFinding(description: "accepted a body that is not a strict JSON object")
            }
            return
        }
        if case .string(let password)? = members["password"], password.count >= 12,
            !members.keys.contains(where: { $0.contains(password) }),
            refusals.contains(where: { $0?.contains(password) == true })
        {
            throw FuzzFinding(description: "a refusal echoes the password")
        }
    }
}
