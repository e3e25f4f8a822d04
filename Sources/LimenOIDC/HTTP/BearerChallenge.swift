/// A `WWW-Authenticate: Bearer` challenge (RFC 6750 §3), or the `DPoP` challenge of a resource server that takes
/// DPoP-bound tokens (RFC 9449 §7.1), read into its auth-params: `error`, `error_description`, `scope`, RFC 9449's
/// `algs`, and RFC 9470's `max_age` and `acr_values`. Values are tokens or quoted strings (RFC 9110 §11.2), so a comma
/// or an `=` inside quotes stays in its value. Fuzzed by `Fuzz/BearerChallenge`.
package struct BearerChallenge: Sendable, Equatable {
    /// The auth-params by lowercased name, quoted strings unquoted.
    package let parameters: [String: String]
    /// The scheme, lowercased: `bearer` or `dpop`.
    package let scheme: String

    /// The challenge in `header`, or `nil` when it is neither a Bearer nor a DPoP challenge.
    package init?(_ header: String?) {
        guard let header, header.count <= 8 * 1024 else { return nil }
        var rest = Substring(header).drop { $0 == " " }
        let scheme = rest.prefix { $0 != " " }.lowercased()
        guard scheme == "bearer" || scheme == "dpop" else { return nil }
        rest = rest.dropFirst(scheme.count)
        self.scheme = scheme
        var parameters: [String: String] = [:]
        while let (name, value, remainder) = Self.parameter(in: rest) {
            if parameters[name] == nil { parameters[name] = value }
            rest = remainder
        }
        self.parameters = parameters
    }

    /// The `error` code, such as `invalid_token` or `insufficient_user_authentication`.
    package var error: String? { parameters["error"] }

    /// RFC 9470's `max_age`: how many seconds old a sign-in may be.
    package var maxAge: Int? { parameters["max_age"].flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil } }

    /// The next `name=value` of `text` (after spaces and commas) and what follows it; `nil` when there is none.
    private static func parameter(in text: Substring) -> (String, String, Substring)? {
        let start = text.drop { $0 == " " || $0 == "," }
        guard let equals = start.firstIndex(of: "=") else { return nil }
        let name = start[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
        guard !name.isEmpty, !name.contains(" ") else { return nil }
        var rest = start[start.index(after: equals)...].drop { $0 == " " }
        var value = ""
        if rest.first == "\"" {
            rest = rest.dropFirst()
            var escaped = false
            while let character = rest.popFirst() {
                if escaped {
                    value.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    return (name, value, rest)
                } else {
                    value.append(character)
                }
            }
            return nil
        }
        let end = rest.firstIndex(of: ",") ?? rest.endIndex
        value = rest[..<end].trimmingCharacters(in: .whitespaces)
        return (name, value, rest[end...])
    }
}
