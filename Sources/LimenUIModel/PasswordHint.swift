import Limen

/// One rule of a password policy and whether the password typed so far meets it: the live hints under a new
/// password field.
///
/// ```swift
/// for hint in form.passwordHints(for: "password") {
///     print(hint.isMet ? "✓" : "·", hint.text)  // "· Use between 8 and 64 characters for your password."
/// }
/// ```
public struct PasswordHint: Sendable, Equatable, Identifiable {
    /// The rule's stable code, the server's (`invalid_length`, `unique_character`, `max_repeat`, `min_characters`).
    public let id: String
    /// The rule, as the server words it when it is broken.
    public let text: String
    /// Whether the password meets it.
    public let isMet: Bool

    /// The rules of `policy`, in the server's order, each checked against `password`.
    static func hints(for policy: FlowPasswordPolicy, password: String) -> [PasswordHint] {
        let minimums = policy.minimumCharacters
        let rules: [FlowValidationError?] = [
            .invalidLength(min: policy.length.lowerBound, max: policy.length.upperBound),
            policy.minimumUniqueCharacters > 0 ? .uniqueCharacter(min: policy.minimumUniqueCharacters) : nil,
            policy.maximumRepeatedCharacters > 0 ? .maxRepeat(max: policy.maximumRepeatedCharacters) : nil,
            minimums == FlowPasswordPolicy.CharacterMinimums() ? nil : .minCharacters(minimums),
        ]
        let broken = Set(policy.violations(of: password).map(\.code))
        return rules.compactMap { $0 }.map { rule in
            PasswordHint(id: rule.code, text: rule.message, isMet: !broken.contains(rule.code))
        }
    }
}
