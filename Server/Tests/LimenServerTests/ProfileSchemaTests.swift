import Foundation
import LimenOIDC
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("App schema: parsing and publishing")
struct ProfileSchemaTests {
    private static func parse(_ json: String) throws -> ProfileSchema {
        try ProfileSchema(parsing: try JSONValue(parsing: Data(json.utf8)))
    }

    @Test("a schema reads every member with its defaults and publishes the documented shape")
    func publishes() throws {
        let schema = try Self.parse(
            #"{"fields": {"nickname": {"type": "string", "validation": {"regex": "^a", "max": 3}},"#
                + #" "ssn": {"type": "string", "encrypted": true, "required": true, "user_editable": false}}}"#)
        #expect(schema.isEncryptionEnabled)
        #expect(
            schema.document
                == .object([
                    "fields": .object([
                        "nickname": .object([
                            "type": .string("string"), "display_name": .string("nickname"), "required": .bool(false),
                            "user_editable": .bool(true), "encrypted": .bool(false),
                            "validation": .object(["regex": .string("^a"), "max": .number(3)]),
                        ]),
                        "ssn": .object([
                            "type": .string("string"), "display_name": .string("ssn"), "required": .bool(true),
                            "user_editable": .bool(false), "encrypted": .bool(true), "validation": .object([:]),
                        ]),
                    ])
                ]))
        #expect(try Self.parse(schema.document.serializedText) == schema, "the published document reads back the same")
        #expect(try !Self.parse(#"{"fields": {}}"#).isEncryptionEnabled)
    }

    @Test(
        "a schema breaking a rule is refused naming the member at fault",
        arguments: [
            (#"{"fields": {"email": {"type": "string", "encrypted": true}}}"#, "fields.email.encrypted"),
            (#"{"fields": {"phone_number": {"type": "string", "encrypted": true}}}"#, "fields.phone_number.encrypted"),
            (
                #"{"fields": {"x": {"type": "string", "validation": {"regex": "(unclosed"}}}}"#,
                "fields.x.validation.regex"
            ),
            (#"{"fields": {"x": {"type": "number", "validation": {"regex": "^a$"}}}}"#, "fields.x.validation.regex"),
            (#"{"fields": {"x": {"type": "string", "validation": {"regex": ""}}}}"#, "fields.x.validation.regex"),
            (#"{"fields": {"x": {"type": "string", "colour": "red"}}}"#, "fields.x.colour"),
            (#"{"fields": {"x": {"type": "string", "validation": {"pattern": "a"}}}}"#, "fields.x.validation.pattern"),
            (#"{"fields": {}, "version": 2}"#, "version"),
            (#"{"fields": {"x": {"type": "text"}}}"#, "fields.x.type"),
            (#"{"fields": {"x": {}}}"#, "fields.x.type"),
            (#"{"fields": {"x": {"type": "string", "required": "yes"}}}"#, "fields.x.required"),
            (#"{"fields": {"x": {"type": "string", "display_name": ""}}}"#, "fields.x.display_name"),
            (#"{"fields": {"x": {"type": "date", "validation": {"min": 1}}}}"#, "fields.x.validation.min"),
            (#"{"fields": {"x": {"type": "boolean", "validation": {"max": 1}}}}"#, "fields.x.validation.max"),
            (#"{"fields": {"x": {"type": "object", "validation": {"max": 1}}}}"#, "fields.x.validation.max"),
            (#"{"fields": {"x": {"type": "string", "validation": {"min": 1.5}}}}"#, "fields.x.validation.min"),
            (#"{"fields": {"x": {"type": "array", "validation": {"max": -1}}}}"#, "fields.x.validation.max"),
            (#"{"fields": {"x": {"type": "number", "validation": {"min": 5, "max": 1}}}}"#, "fields.x.validation.min"),
            (#"{"fields": {"x": {"type": "number", "validation": {"min": "1"}}}}"#, "fields.x.validation.min"),
            (
                #"{"fields": {"x": {"type": "string", "encrypted": true, "validation": {"max": 3}}}}"#,
                "fields.x.validation"
            ),
            (#"{"fields": {"id": {"type": "string"}}}"#, "fields.id"),
            (#"{"fields": {"updated_at": {"type": "number"}}}"#, "fields.updated_at"),
            (#"{"fields": {"1st": {"type": "string"}}}"#, "fields.1st"),
            (#"{"fields": {"a-b": {"type": "string"}}}"#, "fields.a-b"),
            (#"{"fields": []}"#, "fields"),
            (#"{}"#, "fields"),
        ]
    )
    func refusals(json: String, path: String) throws {
        let error = #expect(throws: ProfileSchemaError.self) { try Self.parse(json) }
        #expect(error?.path == path, "\(error?.reason ?? "")")
    }

    @Test("a regex longer than the cap, and more than 100 fields, are refused")
    func caps() throws {
        let long = String(repeating: "a", count: FieldPattern.maximumSourceLength + 1)
        #expect(throws: ProfileSchemaError.self) {
            try Self.parse(#"{"fields": {"x": {"type": "string", "validation": {"regex": "\#(long)"}}}}"#)
        }
        let fields = (0...ProfileSchema.maximumFieldCount).map { #""f\#($0)": {"type": "string"}"# }
        let error = #expect(throws: ProfileSchemaError.self) {
            try Self.parse(#"{"fields": {\#(fields.joined(separator: ","))}}"#)
        }
        #expect(error?.path == "fields")
    }
}

extension JSONValue {
    /// The JSON text.
    var serializedText: String { String(decoding: serialized(), as: UTF8.self) }
}
