import LimenWire
import Testing

@Suite("Flow password policy")
struct FlowPasswordPolicyTests {
    /// The server's baseline (NIST SP 800-63B: 8 to 1024 characters, no composition rules) plus every rule.
    static let strict = FlowPasswordPolicy(
        length: 8...16, minimumUniqueCharacters: 5, maximumRepeatedCharacters: 2,
        minimumCharacters: .init(lowercase: 1, uppercase: 1, digits: 1, special: 1))

    @Test(
        "each rule refuses what the server's PasswordPolicy refuses, in the server's order",
        arguments: [
            ("Abcdef1!", [FlowValidationError]()),
            ("Abc1!", [.invalidLength(min: 8, max: 16)]),
            ("Abcdefgh1!Abcdefg", [.invalidLength(min: 8, max: 16)]),
            ("Aa1!Aa1!Aa1!", [.uniqueCharacter(min: 5)]),
            ("Abbbcd1!", [.maxRepeat(max: 2)]),
            ("abcdefg1!", [.minCharacters(.init(lowercase: 1, uppercase: 1, digits: 1, special: 1))]),
            (
                "aaa",
                [
                    .invalidLength(min: 8, max: 16), .uniqueCharacter(min: 5), .maxRepeat(max: 2),
                    .minCharacters(.init(lowercase: 1, uppercase: 1, digits: 1, special: 1)),
                ]
            ),
        ]
    )
    func rules(password: String, expected: [FlowValidationError]) {
        #expect(Self.strict.violations(of: password) == expected)
    }

    @Test("length counts characters, not bytes, and refuses more than four bytes a character")
    func length() {
        let policy = FlowPasswordPolicy(length: 2...3)
        #expect(policy.violations(of: "éé").isEmpty, "two characters, four bytes")
        #expect(policy.violations(of: "👩‍👩‍👧‍👧👩‍👩‍👧‍👧").isEmpty == false, "two characters, fifty bytes")
    }

    @Test("the codes and messages are the server's")
    func codes() {
        #expect(FlowValidationError.invalidLength(min: 8, max: 64).code == "invalid_length")
        #expect(
            FlowValidationError.invalidLength(min: 8, max: 64).message
                == "Use between 8 and 64 characters for your password.")
        #expect(
            FlowValidationError.minCharacters(.init(uppercase: 1, digits: 2)).message
                == "Use at least 1 uppercase letter, 2 digits.")
        #expect(FlowValidationError.passwordMismatch.code == "password_mismatch")
        #expect(FlowValidationError.regex("x", message: "Only x").message == "Only x")
    }
}
