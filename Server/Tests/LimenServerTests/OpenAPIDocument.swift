import Foundation
import Testing
import Yams

/// `Server/openapi.yaml`, read with Yams into what the tests hold the server to: each operation's statuses and the
/// members each component schema names.
struct OpenAPIDocument: Sendable {
    /// The members a schema names (`properties`), those it requires and the values its string members may take
    /// (`enum`, `const`), through `$ref` and `allOf`.
    struct Members: Sendable, Equatable {
        var named: Set<String> = []
        var required: Set<String> = []
        var values: [String: Set<String>] = [:]
    }

    /// `Server/openapi.yaml`, found from this file (`Server/Tests/LimenServerTests/`).
    static let url = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("openapi.yaml")

    /// The keys of an OpenAPI path item that are operations (OpenAPI 3.1 §4.8.9).
    private static let operationKeys: Set<String> = [
        "get", "put", "post", "delete", "options", "head", "patch", "trace",
    ]

    /// The documented statuses of each operation, keyed `METHOD /path` (`GET /admin/users/{id}`).
    let statuses: [String: Set<Int>]
    /// The members of each schema under `components/schemas`, by name.
    let schemas: [String: Members]

    /// Every operation, as `METHOD /path`.
    var operations: Set<String> { Set(statuses.keys) }

    /// Reads and digests the document.
    init() throws {
        let text = try String(contentsOf: Self.url, encoding: .utf8)
        let root = try #require(try Yams.load(yaml: text) as? [String: Any], "openapi.yaml is not a YAML mapping")
        let paths = try #require(root["paths"] as? [String: Any], "openapi.yaml has no paths")
        var statuses: [String: Set<Int>] = [:]
        for (path, item) in paths {
            let item = try #require(item as? [String: Any], "the path item of \(path) is not a mapping")
            for (key, operation) in item where Self.operationKeys.contains(key) {
                let responses = (operation as? [String: Any])?["responses"] as? [String: Any] ?? [:]
                statuses["\(key.uppercased()) \(path)"] = Set(responses.keys.compactMap { Int($0) })
            }
        }
        self.statuses = statuses
        let components = root["components"] as? [String: Any]
        let definitions = components?["schemas"] as? [String: Any] ?? [:]
        var schemas: [String: Members] = [:]
        for name in definitions.keys {
            var members = Members()
            try Self.collect(definitions[name], definitions: definitions, into: &members)
            schemas[name] = members
        }
        self.schemas = schemas
    }

    /// Adds the members `schema` names and requires to `members`, following `$ref` (to `components/schemas`) and
    /// `allOf`.
    private static func collect(_ schema: Any?, definitions: [String: Any], into members: inout Members) throws {
        let schema = try #require(schema as? [String: Any], "a schema is not a mapping")
        if let reference = schema["$ref"] as? String {
            let name = try #require(
                reference.split(separator: "/").last.map(String.init), "a $ref names no schema: \(reference)")
            try collect(definitions[name], definitions: definitions, into: &members)
        }
        for part in schema["allOf"] as? [Any] ?? [] {
            try collect(part, definitions: definitions, into: &members)
        }
        for (name, property) in schema["properties"] as? [String: Any] ?? [:] {
            members.named.insert(name)
            let property = property as? [String: Any]
            if let values = property?["enum"] as? [String] ?? (property?["const"] as? String).map({ [$0] }) {
                members.values[name] = Set(values)
            }
        }
        members.required.formUnion(schema["required"] as? [String] ?? [])
    }
}
