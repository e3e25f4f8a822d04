import Foundation
import LimenOIDC
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Collector validation and the password policy: the rules the server advertises are the rules it enforces")
struct CollectorValidationTests {
    static let node = FlowNodeDefinition(
        id: "n", name: "N", description: "",
        collectors: [
            CollectorDefinition(
                type: .text, key: "code", label: "Code", isRequired: true,
                validation: .init(regex: "[0-9]{6}", message: "Six digits.")),
            CollectorDefinition(type: .password, key: "password", label: "Password"),
            CollectorDefinition(type: .passwordVerify, key: "again", label: "Again"),
            CollectorDefinition(
                type: .dropdown, key: "plan", label: "Plan", options: [.init(label: "Free", value: "free")]),
            CollectorDefinition(type: .radio, key: "size", label: "Size", options: [.init(label: "S", value: "s")]),
            CollectorDefinition(
                type: .combobox, key: "tags", label: "Tags",
                options: [.init(label: "A", value: "a"), .init(label: "B", value: "b")]),
            CollectorDefinition(type: .checkbox, key: "terms", label: "Terms", isRequired: true),
            CollectorDefinition(
                type: .checkbox, key: "topics", label: "Topics", options: [.init(label: "News", value: "news")]),
            CollectorDefinition(type: .label, key: "hint", label: "Hint"),
            CollectorDefinition(type: .submitButton, key: "go", label: "Go", behaviour: .run(actions: [], next: "n")),
        ])
    static let valid: [String: FlowValue] = [
        "code": .text("123456"), "password": .text("a good password"), "again": .text("a good password"),
        "plan": .text("free"), "size": .text("s"), "tags": .choices(["a", "b"]), "terms": .flag(true),
        "topics": .choices(["news"]),
    ]

    private static func codes(_ changes: [String: FlowValue?], policy: PasswordPolicy? = .standard) -> [String:
        [String]]
    {
        var values = valid
        for (key, value) in changes { values[key] = value }
        return CollectorValidation(node: node, policy: policy).problems(with: values).reduce(into: [:]) {
            $0[$1.key, default: []].append($1.code)
        }
    }

    @Test("values of every collector type that follow the rules pass")
    func accepted() {
        #expect(Self.codes([:]).isEmpty)
        #expect(Self.codes(["plan": nil, "size": nil, "tags": .choices([]), "topics": nil]).isEmpty)
    }

    @Test(
        "each rule refuses with its code",
        arguments: [
            (["code": nil], ["code": ["required"]]),
            (["code": .text("")], ["code": ["required"]]),
            (["code": .text("12345a")], ["code": ["regex"]]),
            (["code": .text("1234567")], ["code": ["regex"]]),
            (["code": .flag(true)], ["code": ["invalid_type"]]),
            (["again": .text("other")], ["again": ["password_mismatch"]]),
            (["plan": .text("gold")], ["plan": ["invalid_option"]]),
            (["size": .choices(["s"])], ["size": ["invalid_type"]]),
            (["tags": .choices(["a", "a"])], ["tags": ["invalid_option"]]),
            (["tags": .choices(["c"])], ["tags": ["invalid_option"]]),
            (["terms": .flag(false)], ["terms": ["required"]]),
            (["terms": .text("yes")], ["terms": ["invalid_type"]]),
            (["topics": .flag(true)], ["topics": ["invalid_type"]]),
            (["hint": .text("x")], ["hint": ["unknown_field"]]),
            (["go": .text("x")], ["go": ["unknown_field"]]),
        ] as [([String: FlowValue?], [String: [String]])])
    func refused(changes: [String: FlowValue?], expected: [String: [String]]) {
        #expect(Self.codes(changes) == expected)
    }

    @Test("the password policy: length, unique characters, repeats and character classes, each by its code")
    func policy() {
        let policy = PasswordPolicy(
            length: 8...12, minimumUniqueCharacters: 5, maximumRepeatedCharacters: 2,
            minimumCharacters: .init(lowercase: 1, uppercase: 1, digits: 1, special: 1))
        #expect(policy.violations(of: "aB3$efgh").isEmpty)
        #expect(policy.violations(of: "aB3$e").map(\.code) == ["invalid_length"])
        #expect(policy.violations(of: "aB3$efghijklm").map(\.code) == ["invalid_length"])
        #expect(policy.violations(of: "aaB3$aaB3$").map(\.code) == ["unique_character"])
        #expect(policy.violations(of: "aaaB3$efg").map(\.code) == ["max_repeat"])
        #expect(policy.violations(of: "abcdefgh").map(\.code) == ["min_characters"])
        #expect(Self.codes(["password": .text("short"), "again": .text("short")]) == ["password": ["invalid_length"]])
        // Without a policy (a node that checks a password rather than setting one) any password is taken.
        #expect(Self.codes(["password": .text("x"), "again": .text("x")], policy: nil).isEmpty)
    }

    @Test("a flow's policy can only add to the server's baseline")
    func including() {
        let loose = PasswordPolicy(length: 4...2000)
        #expect(PasswordPolicy.standard.including(loose) == .standard)
        let strict = PasswordPolicy(length: 20...30, maximumRepeatedCharacters: 3)
        let merged = PasswordPolicy.standard.including(strict)
        #expect(merged.length == 20...30)
        #expect(merged.maximumRepeatedCharacters == 3)
        #expect(PasswordPolicy.standard.including(PasswordPolicy(length: 2000...3000)).length.count >= 1)
    }
}
