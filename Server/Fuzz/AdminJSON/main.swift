import Foundation
import LimenServer
import LimenWire
import ServerFuzzDriver

// The admin API's JSON bodies as AdminJSON reads them. An accepted body is a strict JSON object, and a refusal never
// echoes the password it was sent.
FuzzDriver.run { input in
    let json = Data(input)
    let strict = try? JSONValue(parsing: json)
    let refusals = [
        AdminJSON.refusal(of: json, as: AdminClientRequest.self),
        AdminJSON.refusal(of: json, as: AdminUserRequest.self),
        AdminJSON.refusal(of: json, as: AdminUserPatch.self),
    ]
    guard case .object(let members)? = strict else {
        guard refusals.allSatisfy({ $0 != nil }) else { fatalError("accepted a body that is not a strict JSON object") }
        return
    }
    if case .string(let password)? = members["password"], password.count >= 12,
        !members.keys.contains(where: { $0.contains(password) }),
        refusals.contains(where: { $0?.contains(password) == true })
    {
        fatalError("a refusal echoes the password")
    }
}
