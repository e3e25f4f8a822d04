/// The rules a new password must meet, as a `PASSWORD` collector advertises them (`policy` on the wire). Limen Server
/// enforces its policies with this same type (its `PasswordPolicy`), so the device refuses exactly what the server
/// would, with the same codes.
///
/// ```swift
/// let problems = policy.violations(of: "aaaa")  // [.invalidLength(min: 8, max: 64), …]
/// ```
public struct FlowPasswordPolicy: Sendable, Equatable {
    /// The fewest and most characters.
    public var length: ClosedRange<Int>
    /// The fewest distinct characters (0: no rule).
    public var minimumUniqueCharacters: Int
    /// The most times one character may repeat in a row (0: no rule).
    public var maximumRepeatedCharacters: Int
    /// The fewest characters of each class (0: no rule).
    public var minimumCharacters: CharacterMinimums

    /// The fewest characters of each class.
    public struct CharacterMinimums: Sendable, Equatable {
        /// Lowercase letters.
        public var lowercase: Int
        /// Uppercase letters.
        public var uppercase: Int
        /// Decimal digits.
        public var digits: Int
        /// Anything else.
        public var special: Int

        /// Creates minimums (all 0: no rule).
        public init(lowercase: Int = 0, uppercase: Int = 0, digits: Int = 0, special: Int = 0) {
            (self.lowercase, self.uppercase, self.digits, self.special) = (lowercase, uppercase, digits, special)
        }
    }

    /// Creates a policy.
    public init(
        length: ClosedRange<Int>,
        minimumUniqueCharacters: Int = 0,
        maximumRepeatedCharacters: Int = 0,
        minimumCharacters: CharacterMinimums = CharacterMinimums()
    ) {
        self.length = length
        self.minimumUniqueCharacters = minimumUniqueCharacters
        self.maximumRepeatedCharacters = maximumRepeatedCharacters
        self.minimumCharacters = minimumCharacters
    }

    /// Every rule `password` breaks, in the server's order; empty when it meets the policy.
    public func violations(of password: String) -> [FlowValidationError] {
        var found: [FlowValidationError] = []
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
