import Foundation
import LimenServerCore
import LimenWire
import ServerFuzzSupport

/// A schema with a field of each type and rule, one users may not edit, and two encrypted fields.
let schema = Data(
    #"""
    {"fields": {
        "nickname": {"type": "string", "validation": {"regex": "^[a-z]+(-[a-z]+)*$", "min": 2, "max": 10}},
        "age": {"type": "number", "validation": {"min": 0, "max": 150}},
        "newsletter": {"type": "boolean"}, "birthdate": {"type": "date"}, "address": {"type": "object"},
        "tags": {"type": "array", "validation": {"max": 3}}, "plan": {"type": "string", "user_editable": false},
        "diagnosis": {"type": "string", "encrypted": true}, "locale": {"type": "string", "encrypted": true}
    }}
    """#.utf8)

// A profile write as the server checks it: the body of PUT /v1/me/data, or (before a NUL byte) a schema of its own
// then the body. An accepted write stores only fields of the schema, each encrypted one as a compact JWE with an
// empty encrypted key, and never more than 64 KiB.
FuzzDriver.run { input in
    let bytes = Data(input)
    let (fuzzedSchema, body) =
        bytes.firstIndex(of: 0).map { (bytes[..<$0], bytes[($0 + 1)...]) } ?? (schema, bytes)
    let current: [String: JSONValue] = ["plan": .string("pro")]
    guard case .success(let accepted) = ProfileWriteCheck.replace(current, with: Data(body), schema: Data(fuzzedSchema))
    else { return }
    for name in accepted.encryptedFields {
        guard let value = accepted.data[name] else { continue }
        guard case .string(let jwe) = value else { fatalError("\(name) stored a value that is not a string") }
        let parts = jwe.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 5, parts[1].isEmpty else { fatalError("\(name) stored something that is not a dir JWE") }
    }
    guard JSONValue.object(accepted.data).serialized().count <= 64 * 1024 + 64 else {
        fatalError("accepted a profile larger than 64 KiB")
    }
}
