import ArgumentParser
import LimenServerStorage

/// A `users` subcommand that changes the one user `--email|--id` selects, then prints the user's address (or subject)
/// and whether the change was made (``done``) or there was nothing to change (``unchanged``).
protocol UserChangeCommand: AsyncParsableCommand {
    /// Where the data is.
    var data: DataOptions { get }
    /// The user.
    var selection: UserSelection { get }
    /// Printed after the user when the change was made.
    static var done: String { get }
    /// Printed after the user when there was nothing to change.
    static var unchanged: String { get }
    /// Makes the change to the user with subject `userID` in `store`; returns whether it changed anything.
    static func change(_ store: any Store, userID: String) async throws(StorageError) -> Bool
}

extension UserChangeCommand {
    func run() async throws {
        try await selection.change(data: data, done: Self.done, unchanged: Self.unchanged) {
            store, userID throws(StorageError) in
            try await Self.change(store, userID: userID)
        }
    }
}
