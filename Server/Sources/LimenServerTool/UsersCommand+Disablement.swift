import ArgumentParser
import Foundation
import LimenServer
import LimenServerCore
import LimenServerStorage

extension UsersCommand {
    /// `users disable --email|--id`.
    struct Disable: UserChangeCommand {
        static let configuration = CommandConfiguration(
            commandName: "disable",
            abstract:
                "Stop a user from signing in and refreshing, ending their sessions and grants; recorded as admin.user_disabled.",
            discussion: "Example: limen-server users disable --email ada@example.com"
        )

        @OptionGroup var data: DataOptions
        @OptionGroup var selection: UserSelection

        static let done = "is now disabled"
        static let unchanged = "was disabled already"

        static func change(_ store: any Store, userID: String) async throws(StorageError) -> Bool {
            try await AdminUserDisablement(store: store, now: Date.init).disable(userID, origin: .commandLine)
        }
    }

    /// `users enable --email|--id`.
    struct Enable: UserChangeCommand {
        static let configuration = CommandConfiguration(
            commandName: "enable",
            abstract: "Let a disabled user sign in again; recorded as admin.user_enabled.",
            discussion: "Example: limen-server users enable --email ada@example.com"
        )

        @OptionGroup var data: DataOptions
        @OptionGroup var selection: UserSelection

        static let done = "is enabled again"
        static let unchanged = "was not disabled"

        static func change(_ store: any Store, userID: String) async throws(StorageError) -> Bool {
            try await AdminUserDisablement(store: store, now: Date.init).enable(userID, origin: .commandLine)
        }
    }
}
