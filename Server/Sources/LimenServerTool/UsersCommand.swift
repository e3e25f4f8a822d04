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

/// `limen-server users add|list|grant-admin|revoke-admin|disable|enable`.
struct UsersCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "users",
        abstract: "Create and list user accounts, and give or take the admin role.",
        subcommands: [
            Add.self, List.self, GrantAdmin.self, RevokeAdmin.self, Disable.self, Enable.self, RevokeSessions.self,
        ]
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

        @Flag(help: "Give the user the admin role (the admin console).")
        var admin = false

        func run() async throws {
            guard let password = PasswordInput.read(prompt: "Password for \(email): ") else {
                throw ValidationError("No password on standard input")
            }
            let configuration = try data.configuration()
            let result = try await ServerComposition.withStore(configuration: configuration) { store in
                let accounts = Accounts(
                    store: store, hasher: PasswordHasher(parameters: configuration.passwordHashing), now: Date.init)
                let user: UserRecord
                do throws(AccountError) {
                    user = try await accounts.signUp(
                        email: email, password: password, name: name, emailVerified: verified, origin: .commandLine)
                } catch {
                    return Result<UserRecord, AccountError>.failure(error)
                }
                if admin {
                    try await AdminRoles(store: store, now: Date.init).grant(to: user.id, origin: .commandLine)
                }
                return .success(user)
            }
            switch result {
            case .success(let user):
                print("Created \(admin ? "admin" : "user") \(user.email ?? email) (sub \(user.id))")
            case .failure(let error): throw ValidationError(error.errorDescription ?? error.code)
            }
        }
    }

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract:
                "List users: subject, email, auth level (guest, unverified or verified), name, role (admin or user).")

        @OptionGroup var data: DataOptions

        func run() async throws {
            let (users, admins) = try await ServerComposition.withStore(configuration: data.configuration()) {
                store in
                (try await store.users(), try await AdminRoles(store: store, now: Date.init).admins())
            }
            for user in users {
                let role = admins.contains(user.id) ? "admin" : "user"
                print(
                    [user.id, user.email ?? "(anonymous)", "\(user.authLevel)", user.name ?? "", role]
                        .joined(separator: "\t"))
            }
        }
    }

    /// `users grant-admin --email|--id`.
    struct GrantAdmin: UserChangeCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant-admin",
            abstract: "Give a user the admin role (the admin console); recorded as admin.role_granted.",
            discussion: "Example: limen-server users grant-admin --email ada@example.com"
        )

        @OptionGroup var data: DataOptions
        @OptionGroup var selection: UserSelection

        static let done = "is now an admin"
        static let unchanged = "was an admin already"

        static func change(_ store: any Store, userID: String) async throws(StorageError) -> Bool {
            try await AdminRoles(store: store, now: Date.init).grant(to: userID, origin: .commandLine)
        }
    }

    /// `users revoke-admin --email|--id`.
    struct RevokeAdmin: UserChangeCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-admin",
            abstract: "Take the admin role from a user; recorded as admin.role_revoked.",
            discussion: "Example: limen-server users revoke-admin --email ada@example.com"
        )

        @OptionGroup var data: DataOptions
        @OptionGroup var selection: UserSelection

        static let done = "is no longer an admin"
        static let unchanged = "was not an admin"

        static func change(_ store: any Store, userID: String) async throws(StorageError) -> Bool {
            try await AdminRoles(store: store, now: Date.init).revoke(from: userID, origin: .commandLine)
        }
    }
}

/// `--email` or `--id`: the user a command is about.
struct UserSelection: ParsableArguments {
    @Option(help: "The user's email address.")
    var email: String?

    @Option(help: "The user's subject (sub).")
    var id: String?

    func validate() throws {
        guard (email == nil) != (id == nil) else { throw ValidationError("Give exactly one of --email and --id") }
    }

    /// The user selected, read from `store`; a validation error when there is none.
    func user(in store: any UserStore) async throws -> UserRecord {
        let found =
            if let id { try await store.user(id: id) } else {
                try await store.user(email: Accounts.normalise(email ?? ""))
            }
        guard let found else { throw ValidationError("No user with this \(id == nil ? "email" : "ID")") }
        return found
    }

    /// Runs `change` (given the store and the selected user's subject) in the store of `data`, then prints the user's
    /// email (or subject) and `done` when it changed something, `unchanged` when not.
    func change(
        data: DataOptions, done: String, unchanged: String,
        _ change: @escaping @Sendable (any Store, String) async throws(StorageError) -> Bool
    ) async throws {
        let (user, changed) = try await ServerComposition.withStore(configuration: data.configuration()) { store in
            let user = try await self.user(in: store)
            return (user, try await change(store, user.id))
        }
        print("\(user.email ?? user.id) \(changed ? done : unchanged)")
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
