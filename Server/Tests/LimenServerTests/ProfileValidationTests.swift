import Foundation
import LimenOIDC
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Profile values against the app schema")
struct ProfileValidationTests {
    private static let schema: ProfileSchema = {
        do {
            return try ProfileSchema(parsing: try JSONValue(parsing: Data(TokenFixture.profileSchemaJSON.utf8)))
        } catch {
            return .empty
        }
    }()

    private static func check(
        _ new: [String: JSONValue],
        old: [String: JSONValue] = [:],
        by writer: ProfileWriter = .user,
        schema: ProfileSchema = schema
    ) throws(ProfileError) {
        try schema.check(new, replacing: old, by: writer)
    }

    @Test("values of every type within their rules pass, encrypted fields holding a JWE")
    func accepted() throws {
        #expect(!Self.schema.fields.isEmpty)
        try Self.check([
            "nickname": .string("ada"), "age": .number(36), "newsletter": .bool(true),
            "birthdate": .string("1815-12-10"), "address": .object(["city": .string("London")]),
            "tags": .array([.string("maths")]), "diagnosis": .string(SampleJWE.valid),
        ])
        try Self.check(["birthdate": .string("2024-02-29T23:59:60.123+01:00")])
        try Self.check(["plan": .string("pro")], by: .administrator)
    }

    @Test(
        "a value breaking a rule is refused naming its field",
        arguments: [
            (["colour": .string("red")], "colour", "is not a field"),
            (["nickname": .number(3)], "nickname", "must be of type string"),
            (["nickname": .string("Ada")], "nickname", "regex"),
            (["nickname": .string("a")], "nickname", "at least 2 characters"),
            (["nickname": .string("abcdefghijk")], "nickname", "at most 10 characters"),
            (["age": .number(-1)], "age", "at least 0"),
            (["age": .number(151)], "age", "at most 150"),
            (["age": .string("36")], "age", "must be of type number"),
            (["newsletter": .string("true")], "newsletter", "must be of type boolean"),
            (["birthdate": .string("2023-02-29")], "birthdate", "RFC 3339"),
            (["birthdate": .string("10/12/1815")], "birthdate", "RFC 3339"),
            (["birthdate": .string("1815-12-10T25:00:00Z")], "birthdate", "RFC 3339"),
            (["address": .array([])], "address", "must be of type object"),
            (["tags": .array([])], "tags", "at least 1 elements"),
            (["tags": .array([.bool(true), .bool(true), .bool(true), .bool(true)])], "tags", "at most 3 elements"),
            (["plan": .string("pro")], "plan", "not editable by the user"),
            (["diagnosis": .string("flu")], "diagnosis", "plaintext value is refused"),
            (["diagnosis": .object(["a": .number(1)])], "diagnosis", "never plaintext"),
            (["locale": .string("en-GB")], "locale", "plaintext value is refused"),
        ] as [([String: JSONValue], String, String)]
    )
    func refused(data: [String: JSONValue], field: String, reason: String) {
        let error = #expect(throws: ProfileError.self) { try Self.check(data) }
        guard case .invalidField(let name, let message)? = error else {
            Issue.record("not a field refusal: \(String(describing: error))")
            return
        }
        #expect(name == field)
        #expect(message.contains(reason), "\(message)")
    }

    @Test("a required field must be present once written, unless the writer may not set it")
    func required() throws {
        let schema = try ProfileSchema(
            parsing: try JSONValue(
                parsing: Data(
                    (#"{"fields": {"name": {"type": "string", "required": true}, "#
                        + #""plan": {"type": "string", "required": true, "user_editable": false}}}"#).utf8)))
        #expect(throws: ProfileError.invalidField(field: "name", reason: "is required")) {
            try Self.check(["plan": .string("pro")], old: ["plan": .string("pro")], schema: schema)
        }
        try Self.check(["name": .string("Ada")], schema: schema)
        #expect(throws: ProfileError.invalidField(field: "plan", reason: "is required")) {
            try Self.check(["name": .string("Ada")], by: .administrator, schema: schema)
        }
    }

    @Test("only changed members are checked: data a schema change left behind can stay, or be removed")
    func onlyChanges() throws {
        let old: [String: JSONValue] = ["retired": .string("x"), "nickname": .string("NotValidAnyMore")]
        try Self.check(old.merging(["age": .number(3)]) { $1 }, old: old)
        try Self.check(["nickname": .string("NotValidAnyMore")], old: old)
        #expect(throws: ProfileError.self) { try Self.check(["nickname": .string("Still Bad")], old: old) }
    }

    @Test("a value larger than the per-field cap is refused")
    func fieldCap() {
        let big = String(repeating: "a", count: ProfileLimits.maximumFieldSize)
        let error = #expect(throws: ProfileError.self) {
            try Self.check(["address": .object(["street": .string(big)])])
        }
        #expect(error == .invalidField(field: "address", reason: "is larger than 16 KiB"))
    }

    @Test("a regex that backtracks catastrophically is stopped and the value refused, not left running")
    func catastrophicBacktracking() throws {
        let pattern = try FieldPattern("^(a+)+$")
        #expect(pattern.matches("aaaa") == true)
        #expect(pattern.matches("aaab") == false)
        #expect(pattern.matches(String(repeating: "a", count: 64) + "b") == nil)
        let linear = try FieldPattern("^[a-z]+$")
        let long = String(repeating: "a", count: ProfileLimits.maximumFieldSize - 2)
        #expect(linear.matches(long) == true, "a linear match of the longest value stays within the budget")
        #expect(linear.matches(long + "!") == false)
        let schema = try ProfileSchema(
            parsing: .object([
                "fields": .object([
                    "x": .object(["type": .string("string"), "validation": .object(["regex": .string("^(a+)+$")])])
                ])
            ]))
        let error = #expect(throws: ProfileError.self) {
            try Self.check(["x": .string(String(repeating: "a", count: 64) + "b")], schema: schema)
        }
        #expect(error == .invalidField(field: "x", reason: "is too complex to check against the field's regex"))
    }
}

@Suite("Encrypted field values: the JWE compact shape")
struct EncryptedFieldJWETests {
    @Test("a dir + A256GCM JWE with a kid, an empty encrypted key, a 12-byte IV and a 16-byte tag passes")
    func valid() throws {
        try EncryptedFieldJWE.check(SampleJWE.valid)
        try EncryptedFieldJWE.check(SampleJWE.make(header: #"{"alg":"dir","enc":"A256GCM","kid":"k","typ":"JWE"}"#))
    }

    @Test(
        "a malformed JWE is refused with what is wrong",
        arguments: [
            ("plain text", EncryptedFieldJWE.Problem.notCompactJWE),
            ("a.b.c.d", .notCompactJWE),
            (SampleJWE.valid + ".extra", .notCompactJWE),
            (SampleJWE.valid.replacingOccurrences(of: ".", with: "=."), .notCompactJWE),
            (SampleJWE.make(header: "not json"), .malformedHeader),
            (SampleJWE.make(header: "[]"), .malformedHeader),
            (SampleJWE.make(header: #"{"alg":"dir","alg":"dir","enc":"A256GCM","kid":"k"}"#), .malformedHeader),
            (SampleJWE.make(header: #"{"alg":"dir","enc":"A256GCM","kid":"k","zip":"DEF"}"#), .malformedHeader),
            (SampleJWE.make(header: #"{"alg":"dir","enc":"A256GCM","kid":"k","crit":["x"]}"#), .malformedHeader),
            (SampleJWE.make(header: #"{"alg":"none","enc":"A256GCM","kid":"k"}"#), .unsupportedAlgorithm),
            (SampleJWE.make(header: #"{"alg":"RSA-OAEP","enc":"A256GCM","kid":"k"}"#), .unsupportedAlgorithm),
            (SampleJWE.make(header: #"{"alg":"dir","enc":"A128GCM","kid":"k"}"#), .unsupportedAlgorithm),
            (SampleJWE.make(header: #"{"alg":"dir","enc":"A256GCM"}"#), .missingKeyID),
            (SampleJWE.make(header: #"{"alg":"dir","enc":"A256GCM","kid":""}"#), .missingKeyID),
            (SampleJWE.make(encryptedKeyBytes: 32), .wrongPartLength),
            (SampleJWE.make(ivBytes: 16), .wrongPartLength),
            (SampleJWE.make(tagBytes: 12), .wrongPartLength),
        ]
    )
    func malformed(value: String, problem: EncryptedFieldJWE.Problem) {
        #expect(throws: problem) { try EncryptedFieldJWE.check(value) }
    }
}

@Suite("JSON Merge Patch (RFC 7396)")
struct MergePatchTests {
    /// RFC 7396 Appendix A's examples: target, patch, result.
    @Test(
        "the examples of RFC 7396 Appendix A",
        arguments: [
            (#"{"a":"b"}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"b"}"#, #"{"b":"c"}"#, #"{"a":"b","b":"c"}"#),
            (#"{"a":"b"}"#, #"{"a":null}"#, #"{}"#),
            (#"{"a":"b","b":"c"}"#, #"{"a":null}"#, #"{"b":"c"}"#),
            (#"{"a":["b"]}"#, #"{"a":"c"}"#, #"{"a":"c"}"#),
            (#"{"a":"c"}"#, #"{"a":["b"]}"#, #"{"a":["b"]}"#),
            (#"{"a":{"b":"c"}}"#, #"{"a":{"b":"d","c":null}}"#, #"{"a":{"b":"d"}}"#),
            (#"{"a":[{"b":"c"}]}"#, #"{"a":[1]}"#, #"{"a":[1]}"#),
            (#"["a","b"]"#, #"["c","d"]"#, #"["c","d"]"#),
            (#"{"a":"b"}"#, #"["c"]"#, #"["c"]"#),
            (#"{"a":"foo"}"#, "null", "null"),
            (#"{"a":"foo"}"#, #""bar""#, #""bar""#),
            (#"{"e":null}"#, #"{"a":1}"#, #"{"a":1,"e":null}"#),
            (#"[1,2]"#, #"{"a":"b","c":null}"#, #"{"a":"b"}"#),
            (#"{}"#, #"{"a":{"bb":{"ccc":null}}}"#, #"{"a":{"bb":{}}}"#),
        ]
    )
    func appendixA(target: String, patch: String, result: String) throws {
        let merged = MergePatch.apply(
            try JSONValue(parsing: Data(patch.utf8)), to: try JSONValue(parsing: Data(target.utf8)))
        #expect(merged == (try JSONValue(parsing: Data(result.utf8))))
    }
}

@Suite("ProfileWriteCheck: the fuzz harness's view of a profile write")
struct ProfileWriteCheckTests {
    /// `Server/Fuzz/Corpus/ProfileData/`, found from this file.
    private static let corpus = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fuzz/Corpus/ProfileData")

    @Test(
        "the seed corpus: a valid write and a JWE are accepted, plaintext and a catastrophic regex refused",
        arguments: [("valid.json", true), ("encrypted.json", true), ("refused.json", false), ("own-schema.bin", false)]
    )
    func seeds(file: String, accepted: Bool) throws {
        let bytes = try Data(contentsOf: Self.corpus.appendingPathComponent(file))
        let (schema, body) =
            bytes.firstIndex(of: 0).map { (bytes[..<$0], bytes[($0 + 1)...]) }
            ?? (Data(TokenFixture.profileSchemaJSON.utf8), bytes)
        let result = ProfileWriteCheck.replace(["plan": .string("pro")], with: Data(body), schema: Data(schema))
        switch result {
        case .success(let write):
            #expect(accepted, "\(file) was accepted")
            #expect(write.encryptedFields == ["diagnosis", "locale"])
        case .failure(let refusal):
            #expect(!accepted, "\(file): \(refusal.description)")
        }
    }
}
