import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

@testable import LimenCLI

@Suite("limen profile")
struct ProfileCommandParsingTests {
    @Test(
        "FIELD=VALUE: VALUE is JSON when it is valid JSON, else the string itself",
        arguments: [
            ("nickname=Ada", "nickname", JSONValue.string("Ada")),
            ("age=36", "age", .number(36)),
            ("ok=true", "ok", .bool(true)),
            ("gone=null", "gone", .null),
            ("zip=\"01234\"", "zip", .string("01234")),
            ("tags=[\"a\", 1]", "tags", .array([.string("a"), .number(1)])),
            ("note=a=b", "note", .string("a=b")),
            ("empty=", "empty", .string("")),
        ])
    func parse(assignment: String, field: String, value: JSONValue) throws {
        let parsed = try ProfileSetCommand.parse(assignment)
        #expect(parsed.0 == field)
        #expect(parsed.1 == value)
    }

    @Test("an assignment without FIELD= is refused with cli.invalid_assignment", arguments: ["nickname", "=Ada"])
    func invalid(assignment: String) {
        #expect(throws: CLIFailure.self) { try ProfileSetCommand.parse(assignment) }
    }
}

/// `limen profile get | set | schema` against the `limen-server` binary with an app schema of plain and encrypted
/// fields, signed in with `limen login --password`.
@Suite(
    "limen profile against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct ProfileCLITests {
    @Test("set, get, get FIELD, get id and schema; a refused value names its field")
    func profile() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        try await LimenServerPeer.with(
            configuration: LimenServerPeer.profileConfiguration, settings: ["--sign-in-rate-limit", "100/s"]
        ) { server in
            let login = try await Subprocess.capture(
                try CLIRunner.executable(),
                arguments: [
                    "login", "--password", "--issuer", server.issuer.absoluteString, "--client-id", "limen-cli",
                ],
                environment: cli.environment(), input: Data("\(server.user.email)\n\(server.user.password)\n1\n".utf8))
            #expect(login.status == 0, "\(login.standardError)")

            let set = try await cli.complete(["profile", "set", "nickname=Ada", "age=36", "diagnosis=hay fever"])
            #expect(set.status == 0, "\(set.standardError)")
            let get = try await cli.complete(["profile", "get"])
            #expect(get.status == 0, "\(get.standardError)")
            #expect(
                try JSONValue(parsing: get.standardOutput)
                    == .object(["nickname": .string("Ada"), "age": .number(36), "diagnosis": .string("hay fever")]))
            #expect(try await cli.complete(["profile", "get", "diagnosis"]).trimmedOutput == "\"hay fever\"")
            #expect(try await cli.complete(["profile", "get", "id"]).trimmedOutput == "\"\(login.trimmedOutput)\"")
            let missing = try await cli.complete(["profile", "get", "pronouns"])
            #expect(missing.status != 0)
            #expect(missing.errorLines.last?.hasPrefix("error: cli.no_such_field") == true)

            let refused = try await cli.complete(["profile", "set", "age=-1"])
            #expect(refused.status != 0)
            #expect(refused.errorLines.last?.hasPrefix("error: profile.invalid_field: The profile field age") == true)

            let schema = try await cli.complete(["profile", "schema"])
            #expect(schema.status == 0, "\(schema.standardError)")
            let fields = try JSONValue(parsing: schema.standardOutput).objectValue?["schema"]?.objectValue?["fields"]
            #expect(fields?.objectValue?["diagnosis"]?.objectValue?["encrypted"] == .bool(true))
        }
    }
}
