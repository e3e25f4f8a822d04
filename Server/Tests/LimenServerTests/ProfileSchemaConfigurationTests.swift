import Foundation
import LimenOIDC
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("App schema from the configuration file, and what wins against the admin API")
struct ProfileSchemaConfigurationTests {
    private static let yaml = """
        port: 0
        profile_schema:
          fields:
            nickname: {type: string, display_name: Nickname, validation: {regex: "^[a-z]+$", max: 10}}
            age: {type: number, validation: {min: 0}}
            newsletter: {type: boolean, required: false}
            diagnosis:
              type: string
              encrypted: true
        """

    /// The configuration of the file holding `text`, in a folder removed after `body`.
    private static func withFile(_ text: String, _ body: (String, TemporaryDirectory) async throws -> Void)
        async throws
    {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let path = directory.path + "/limen.yaml"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        try await body(path, directory)
    }

    @Test("profile_schema in a YAML file is read as the JSON the admin API takes")
    func readsYAML() async throws {
        try await Self.withFile(Self.yaml) { path, _ in
            let configuration = try ServerConfiguration.resolve(
                flags: ConfigurationFlags(["--config": path]), environment: [:])
            let schema = try #require(configuration.profileSchema)
            #expect(Set(schema.fields.keys) == ["nickname", "age", "newsletter", "diagnosis"])
            #expect(schema.fields["nickname"]?.displayName == "Nickname")
            #expect(schema.fields["nickname"]?.validation.maximum == 10)
            #expect(schema.fields["age"]?.validation.minimum == 0)
            #expect(schema.fields["diagnosis"]?.isEncrypted == true)
            #expect(schema.isEncryptionEnabled)
        }
    }

    @Test(
        "a bad profile_schema is refused naming the file and the member",
        arguments: [
            (
                "profile_schema:\n  fields:\n    email: {type: string, encrypted: true}",
                "profile_schema.fields.email.encrypted"
            ),
            (
                "profile_schema:\n  fields:\n    x: {type: string, validation: {regex: '(a'}}",
                "profile_schema.fields.x.validation.regex"
            ),
            ("profile_schema:\n  fields:\n    x: {type: string, secret: yes}", "profile_schema.fields.x.secret"),
            ("profile_schema:\n  fields:\n    x: {type: string, required: maybe}", "profile_schema.fields.x.required"),
            ("profile_schema: [1, 2]", "profile_schema"),
            ("profile_schema:\n  feilds: {}", "profile_schema.feilds"),
        ]
    )
    func refused(_ text: String, member: String) async throws {
        try await Self.withFile(text) { path, _ in
            let error = #expect(throws: ConfigurationError.self) {
                try ServerConfiguration.resolve(flags: ConfigurationFlags(["--config": path]), environment: [:])
            }
            #expect(error?.key == "\(path): \(member)", "\(error?.errorDescription ?? "")")
        }
    }

    @Test(
        "the file's schema is stored at start; an admin change then survives restarts until the file's schema changes")
    func newerChangeWins() async throws {
        try await Self.withFile(Self.yaml) { path, directory in
            func start(_ file: String) async throws -> [String] {
                try Data(file.utf8).write(to: URL(fileURLWithPath: path))
                var configuration = try ServerConfiguration.resolve(
                    flags: ConfigurationFlags(["--config": path]), environment: [:])
                configuration.dataDirectory = directory.path
                configuration.passwordHashing = .testing
                let provider = try await ServerComposition.bootstrap(configuration: configuration)
                let fields = try await provider.profileSchemas.schema(in: provider.store).fields.keys.sorted()
                await provider.store.close()
                return fields
            }
            #expect(try await start(Self.yaml) == ["age", "diagnosis", "newsletter", "nickname"])

            var configuration = ServerConfiguration.testing(directory: directory)
            configuration.profileSchema = nil
            let store = try await ServerComposition.openStore(configuration: configuration)
            let administered = try ProfileSchema(
                parsing: .object(["fields": .object(["plan": .object(["type": .string("string")])])]))
            try await administered.applyAsAdministered(to: store, now: Date())
            await store.close()

            #expect(try await start(Self.yaml) == ["plan"], "the unchanged file does not undo the admin change")
            #expect(
                try await start(Self.yaml + "\n# a comment\n")
                    == ["plan"], "formatting is no change")
            let edited = Self.yaml.replacingOccurrences(of: "max: 10", with: "max: 12")
            #expect(
                try await start(edited) == ["age", "diagnosis", "newsletter", "nickname"], "the edited file applies")
            #expect(try await start("port: 0\n") == ["age", "diagnosis", "newsletter", "nickname"], "no key keeps it")
        }
    }
}
