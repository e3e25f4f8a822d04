/// The rules a new password must meet: advertised on every `PASSWORD` collector and enforced, rule for rule, when a
/// password is set. The default is NIST SP 800-63B's: a length, no composition rules.
public struct PasswordPolicy: Sendable, Equatable {
    /// The fewest and most characters.
    public var length: ClosedRange<Int>
    /// The fewest distinct characters (0: no rule).
    public var minimumUniqueCharacters: Int
    /// The most times one character may repeat in a row (0: no rule).
    public var maximumRepeatedCharacters: Int
    /// The fewest lowercase letters, uppercase letters, digits and other characters (0: no rule).
    public var minimumCharacters: CharacterMinimums

    /// The fewest characters of each class.
    public struct CharacterMinimums: Sendable, Equatable {
        /// Lowercase letters.
        public var lowercase = 0
        /// Uppercase letters.
        public var uppercase = 0
        /// Decimal digits.
        public var digits = 0
        /// Anything else.
        public var special = 0

        /// Creates minimums (all 0: no rule).
        public init(lowercase: Int = 0, uppercase: Int = 0, digits: Int = 0, special: Int = 0) {
            (self.lowercase, self.uppercase, self.digits, self.special) = (lowercase, uppercase, digits, special)
        }
    }

    /// Creates a policy.
    public init(
        length: ClosedRange<Int> = Accounts.minimumPasswordLength...Accounts.maximumPasswordLength,
        minimumUniqueCharacters: Int = 0,
        maximumRepeatedCharacters: Int = 0,
        minimumCharacters: CharacterMinimums = CharacterMinimums()
    ) {
        self.length = length
        self.minimumUniqueCharacters = minimumUniqueCharacters
        self.maximumRepeatedCharacters = maximumRepeatedCharacters
        self.minimumCharacters = minimumCharacters
    }

    /// The server's baseline, which every flow's policy includes.
    public static let standard = PasswordPolicy()

    /// A rule a password broke, with a stable code (PingDavinci's validation cases).
    public enum Violation: Sendable, Equatable {
        /// Too short or too long.
        case invalidLength(min: Int, max: Int)
        /// Too few distinct characters.
        case uniqueCharacter(min: Int)
        /// One character repeated too often in a row.
        case maxRepeat(max: Int)
        /// Too few characters of some class.
        case minCharacters(CharacterMinimums)

        /// The stable code.
        public var code: String {
            switch self {
            case .invalidLength: "invalid_length"
            case .uniqueCharacter: "unique_character"
            case .maxRepeat: "max_repeat"
            case .minCharacters: "min_characters"
            }
        }

        /// A sentence for the person choosing the password.
        public var message: String {
            switch self {
            case .invalidLength(let min, let max): "Use between \(min) and \(max) characters for your password."
            case .uniqueCharacter(let min): "Use at least \(min) different characters."
            case .maxRepeat(let max): "Do not repeat a character more than \(max) times in a row."
            case .minCharacters(let minimums):
                "Use at least "
                    + [
                        (minimums.lowercase, "lowercase letter"), (minimums.uppercase, "uppercase letter"),
                        (minimums.digits, "digit"), (minimums.special, "other character"),
                    ].filter { $0.0 > 0 }.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: ", ") + "."
            }
        }
    }

    /// Every rule `password` breaks, in the order above; empty when it meets the policy.
    public func violations(of password: String) -> [Violation] {
        var found: [Violation] = []
        if !length.contains(password.count) || password.utf8.count > 4 * length.upperBound {
            found.append(.invalidLength(min: length.lowerBound, max: length.upperBound))
        }
        if Set(password).count < minimumUniqueCharacters {
            found.append(.uniqueCharacter(min: minimumUniqueCharacters))
        }
        if maximumRepeatedCharacters > 0, Self.longestRun(in: password) > maximumRepeatedCharacters {
            found.append(.maxRepeat(max: maximumRepeatedCharacters))
        }
        let counts = Self.classCounts(of: password)
        if counts.lowercase < minimumCharacters.lowercase || counts.uppercase < minimumCharacters.uppercase
            || counts.digits < minimumCharacters.digits || counts.special < minimumCharacters.special
        {
            found.append(.minCharacters(minimumCharacters))
        }
        return found
    }

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

    private static func longestRun(in password: String) -> Int {
        var (longest, current, previous): (Int, Int, Character?) = (0, 0, nil)
        for character in password {
            current = character == previous ? current + 1 : 1
            longest = max(longest, current)
            previous = character
        }
        return longest
    }

    private static func classCounts(of password: String) -> CharacterMinimums {
        var counts = CharacterMinimums()
        for character in password {
            if character.isLowercase {
                counts.lowercase += 1
            } else if character.isUppercase {
                counts.uppercase += 1
            } else if character.isNumber {
                counts.digits += 1
            } else {
                counts.special += 1
            }
        }
        return counts
    }
}
