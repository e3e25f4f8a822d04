import ArgumentParser
import Foundation
import LimenServer
import LimenServerCore
import LimenServerStorage

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `limen-server users add|list`.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Create and list user accounts.",
        subcommands: [Add.self, List.self]
    )

    struct Add: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Create a user with a password read from standard input (never from the command line).",
            discussion: "Example: printf '%s\\n' \"$PASSWORD\" | limen-server users add --email ada@example.com"
        )

        @OptionGroup var data: DataOptions

        @Option(help: "The email address (the sign-in name).")
        var email: String

        @Option(help: "The display name.")
        var name: String?

        @Flag(help: "Mark the email address as verified.")
        var verified = false

        func run() async throws {
            guard let password = PasswordInput.read(prompt: "Password for \(email): ") else {
                throw ValidationError("No password on standard input")
            }
            let configuration = try data.configuration()
            let result = try await ServerComposition.withStore(configuration: configuration) { store in
                let accounts = Accounts(
                    store: store, hasher: PasswordHasher(parameters: configuration.passwordHashing), now: Date.init)
                do throws(AccountError) {
                    return Result<UserRecord, AccountError>.success(
                        try await accounts.signUp(
                            email: email, password: password, name: name, emailVerified: verified,
                            origin: .commandLine))
                } catch {
                    return .failure(error)
                }
            }
            switch result {
            case .success(let user): print("Created user \(user.email ?? email) (sub \(user.id))")
            case .failure(let error): throw ValidationError(error.errorDescription ?? error.code)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List users: subject, email, auth level (guest, unverified or verified), name.")

        @OptionGroup var data: DataOptions

        func run() async throws {
            let users = try await ServerComposition.withStore(configuration: data.configuration()) { store in
                try await store.users()
            }
            for user in users {
                print(
                    [user.id, user.email ?? "(anonymous)", "\(user.authLevel)", user.name ?? ""]
                        .joined(separator: "\t"))
            }
        }
    }
}

/// Reads one line of standard input, without echo when it is a terminal.
enum PasswordInput {
    /// The line without its newline, or `nil` at end of input.
    static func read(prompt: String) -> String? {
        guard isatty(STDIN_FILENO) == 1 else { return readLine(strippingNewline: true) }
        FileHandle.standardError.write(Data(prompt.utf8))
        var original = termios()
        tcgetattr(STDIN_FILENO, &original)
        var silent = original
        silent.c_lflag &= ~tcflag_t(ECHO)
        tcsetattr(STDIN_FILENO, TCSANOW, &silent)
        defer {
            tcsetattr(STDIN_FILENO, TCSANOW, &original)
            FileHandle.standardError.write(Data("\n".utf8))
        }
        return readLine(strippingNewline: true)
    }
}
