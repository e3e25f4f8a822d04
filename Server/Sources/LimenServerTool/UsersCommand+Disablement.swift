import ArgumentParser
import Foundation
import LimenServer
import LimenServerCore
import LimenServerStorage

extension UsersCommand {
    /// `users disable --email|--id`.
    struct Disable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable",
            abstract:
                "Stop a user from signing in and refreshing, ending their sessions and grants; recorded as admin.user_disabled.",
            discussion: "Example: limen-server users disable --email ada@example.com"
        )

        @OptionGroup var data: DataOptions
        @OptionGroup var selection: UserSelection

        func run() async throws {
            try await selection.change(data: data, done: "is now disabled", unchanged: "was disabled already") {
                store, userID throws(StorageError) in
                try await AdminUserDisablement(store: store, now: Date.init).disable(userID, origin: .commandLine)
            }
        }
    }

    /// `users enable --email|--id`.
    struct Enable: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "enable",
            abstract: "Let a disabled user sign in again; recorded as admin.user_enabled.",
            discussion: "Example: limen-server users enable --email ada@example.com"
        )

        @OptionGroup var data: DataOptions
        @OptionGroup var selection: UserSelection

        func run() async throws {
            try await selection.change(data: data, done: "is enabled again", unchanged: "was not disabled") {
                store, userID throws(StorageError) in
                try await AdminUserDisablement(store: store, now: Date.init).enable(userID, origin: .commandLine)
            }
        }
    }
}
