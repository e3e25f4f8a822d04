import ArgumentParser
import Foundation
import LimenServerCore
import LimenServerStorage

extension UsersCommand {
    /// `users revoke-sessions --email|--id`.
    struct RevokeSessions: UserChangeCommand {
        static let configuration = CommandConfiguration(
            commandName: "revoke-sessions",
            abstract:
                "Sign a user out everywhere: their browser sessions, grants (refresh and access tokens), codes and device "
                + "authorizations end; recorded as admin.sessions_revoked.",
            discussion: "Example: limen-server users revoke-sessions --email ada@example.com"
        )

        @OptionGroup var data: DataOptions
        @OptionGroup var selection: UserSelection

        static let done = "is signed out everywhere"
        static let unchanged = "is not a user any more"

        static func change(_ store: any Store, userID: String) async throws(StorageError) -> Bool {
            try await AdminUserSessions(store: store, now: Date.init).revokeAll(of: userID, origin: .commandLine)
        }
    }
}
