import ArgumentParser
import Foundation
import Limen

/// `limen profile`: the signed-in user's profile on Limen Server (`get`, `set`, `schema`).
struct ProfileDataCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "profile",
        abstract: "Read and write the signed-in user's profile (Limen Server's /v1/me/data).",
        subcommands: [ProfileGetCommand.self, ProfileSetCommand.self, ProfileSchemaCommand.self]
    )
}

/// `limen profile get [FIELD]`: the profile as JSON, or one field's value.
struct ProfileGetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "get",
        abstract: "Print the profile as JSON (encrypted fields decrypted), or the JSON value of one field.",
        discussion: "When the server cannot be reached, the profile cached by the last read is printed."
    )

    @OptionGroup var options: ProfileOptions

    @Argument(help: "A field to print alone (\"id\" is the user's ID).")
    var field: String?

    func run() async throws {
        try await reportingFailures {
            let client = try await Profile(name: options.profile).savedClient()
            let data = try await client.user.get()
            guard let field else {
                writeOutput(try prettyJSON(claims: data))
                return
            }
            let value = field == "id" ? client.state.user.id.map(JSONValue.string) : data[field]
            guard let value else {
                throw CLIFailure(code: "cli.no_such_field", message: "The profile has no field \(field).")
            }
            writeOutput(try prettyJSON(value))
        }
    }
}

/// `limen profile set FIELD=VALUE…`: sets fields (a merge patch each, in order).
struct ProfileSetCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set profile fields; fields the app schema encrypts are encrypted on this device first.",
        discussion: """
            VALUE is read as JSON when it is valid JSON (42, true, null, "text", [1, 2], {"a": 1}), else taken as a \
            string: nickname=Ada sets the string "Ada", age=36 the number 36, zip='"01234"' the string "01234". \
            null removes the field.
            """
    )

    @OptionGroup var options: ProfileOptions

    @Argument(help: "FIELD=VALUE pairs.")
    var assignments: [String]

    func run() async throws {
        try await reportingFailures {
            let fields = try assignments.map(Self.parse)
            let client = try await Profile(name: options.profile).savedClient()
            for (field, value) in fields {
                try await client.user.set(field: field, value: value)
            }
            writeOutput(try prettyJSON(claims: client.state.user.data))
        }
    }

    /// `FIELD=VALUE` as the field's name and value: JSON when `VALUE` is valid JSON, else the string itself.
    static func parse(_ assignment: String) throws -> (String, JSONValue) {
        guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
            throw CLIFailure(code: "cli.invalid_assignment", message: "Expected FIELD=VALUE, got \(assignment).")
        }
        let text = String(assignment[assignment.index(after: equals)...])
        let value = (try? JSONValue(parsing: Array(text.utf8))) ?? .string(text)
        return (String(assignment[..<equals]), value)
    }
}

/// `limen profile schema`: the app schema as the server publishes it.
struct ProfileSchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Print the app schema (GET /v1/app): each field's type, flags and validation."
    )

    @OptionGroup var options: ProfileOptions

    func run() async throws {
        try await reportingFailures {
            let client = try await Profile(name: options.profile).savedClient()
            writeOutput(try prettyJSON(try await client.user.schema().document))
        }
    }
}
