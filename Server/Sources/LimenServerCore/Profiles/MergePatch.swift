import LimenWire

/// JSON Merge Patch (RFC 7396 §2): `patch` applied to `target`. A member whose patch value is `null` is removed, an
/// object merges into an object member by member, and anything else replaces the target whole (arrays included).
enum MergePatch {
    /// The result of applying `patch` to `target`.
    package static func apply(_ patch: JSONValue, to target: JSONValue?) -> JSONValue {
        guard case .object(let changes) = patch else { return patch }
        var members = target?.objectValue ?? [:]
        for (name, value) in changes {
            if value == .null {
                members[name] = nil
            } else {
                members[name] = apply(value, to: members[name])
            }
        }
        return .object(members)
    }
}
