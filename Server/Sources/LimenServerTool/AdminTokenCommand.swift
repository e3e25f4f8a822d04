import ArgumentParser
import Foundation
import LimenServer
import LimenServerCore
import LimenServerStorage

/// `limen-server admin-token`: makes the admin API's bearer token (or removes it with `--remove`).
struct AdminTokenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "admin-token",
        abstract: "Make a new admin API token (replacing any previous one); it is printed once, only its hash is kept.",
        discussion: """
            The admin API (/admin/clients, /admin/users) answers 404 until a token exists. Send it as
            `Authorization: Bearer <token>`. Running servers see a new or removed token at once.
            """
    )

    @OptionGroup var data: DataOptions

    @Flag(help: "Remove the token instead: the admin API is turned off.")
    var remove = false

    func run() async throws {
        let result = try await ServerComposition.withStore(configuration: data.configuration()) { store in
            do throws(StorageError) {
                if remove {
                    try await AdminToken.remove(from: store, now: Date())
                    return Result<String?, StorageError>.success(nil)
                }
                return .success(try await AdminToken.replace(in: store, now: Date()))
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let token?):
            print("admin_token: \(token)")
            print("Keep it now: only its hash is stored, it cannot be shown again. Any previous token no longer works.")
        case .success(nil): print("Removed the admin token: the admin API is off.")
        case .failure(let error): throw ValidationError(error.errorDescription ?? error.code)
        }
    }
}
