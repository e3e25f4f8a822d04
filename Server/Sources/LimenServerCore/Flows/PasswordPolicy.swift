import LimenWire

/// The rules a new password must meet: advertised on every `PASSWORD` collector and enforced, rule for rule, when a
/// password is set. It is the SDK's own type (LimenWire's `FlowPasswordPolicy`, whose `violations(of:)` the device runs
/// before sending), so that the device and the server refuse the same passwords with the same codes and messages.
public typealias PasswordPolicy = FlowPasswordPolicy

extension FlowPasswordPolicy {
    /// The server's baseline, which every flow's policy includes. The default is NIST SP 800-63B's: a length, no
    /// composition rules.
    public static let standard = FlowPasswordPolicy(
        length: Accounts.minimumPasswordLength...Accounts.maximumPasswordLength)

    /// This policy and `other` together: each rule at the stricter of the two.
    public func including(_ other: PasswordPolicy) -> PasswordPolicy {
        let shortest = max(length.lowerBound, other.length.lowerBound)
        return PasswordPolicy(
            length: shortest...max(shortest, min(length.upperBound, other.length.upperBound)),
            minimumUniqueCharacters: max(minimumUniqueCharacters, other.minimumUniqueCharacters),
            maximumRepeatedCharacters: [maximumRepeatedCharacters, other.maximumRepeatedCharacters].filter { $0 > 0 }
                .min() ?? 0,
            minimumCharacters: CharacterMinimums(
                lowercase: max(minimumCharacters.lowercase, other.minimumCharacters.lowercase),
                uppercase: max(minimumCharacters.uppercase, other.minimumCharacters.uppercase),
                digits: max(minimumCharacters.digits, other.minimumCharacters.digits),
                special: max(minimumCharacters.special, other.minimumCharacters.special)
            )
        )
    }
}
