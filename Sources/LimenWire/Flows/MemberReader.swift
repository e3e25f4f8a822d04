/// Reads the members of a JSON object, naming the path of what is missing or of the wrong kind.
struct MemberReader {
    /// The object's members.
    let members: [String: JSONValue]
    /// Where the object is, e.g. `node.collectors[2]`.
    let path: String

    /// A required string member.
    func string(_ name: String) throws(FlowDocumentError) -> String {
        guard let value = optionalString(name) else { throw .invalid("missing \(path).\(name)") }
        return value
    }

    /// A string member, or `nil` when absent or not a string.
    func optionalString(_ name: String) -> String? {
        members[name]?.stringValue
    }

    /// A whole number member, `nil` when absent.
    func integer(_ name: String) throws(FlowDocumentError) -> Int? {
        guard let value = members[name] else { return nil }
        guard let number = value.numberValue, number >= 0, number <= 1_000_000, number.rounded() == number else {
            throw .invalid("\(path).\(name) is not a whole number")
        }
        return Int(number)
    }

    /// An object member, `nil` when absent.
    func optionalObject(_ name: String) throws(FlowDocumentError) -> MemberReader? {
        switch members[name] {
        case nil, .null?: return nil
        case .object(let members)?: return MemberReader(members: members, path: "\(path).\(name)")
        default: throw .invalid("\(path).\(name) is not an object")
        }
    }

    /// An array member of objects, empty when absent.
    func objects(_ name: String) throws(FlowDocumentError) -> [MemberReader] {
        switch members[name] {
        case nil, .null?: return []
        case .array(let items)?:
            var readers: [MemberReader] = []
            for (index, item) in items.enumerated() {
                guard case .object(let members) = item else {
                    throw .invalid("\(path).\(name)[\(index)] is not an object")
                }
                readers.append(MemberReader(members: members, path: "\(path).\(name)[\(index)]"))
            }
            return readers
        default: throw .invalid("\(path).\(name) is not an array")
        }
    }
}
