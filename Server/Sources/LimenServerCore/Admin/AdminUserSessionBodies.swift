import Foundation
import LimenServerStorage

/// `GET /admin/users/{id}/sessions`: what the user is signed in with, never a token, a cookie or its hash.
package struct AdminUserSessionsResource: Encodable, Sendable {
    /// A live grant: one app's session, with its refresh token.
    package struct Grant: Encodable, Sendable {
        var id: String
        var clientID: String
        var scope: String
        var authTime: Int
        var createdAt: Int
        var expiresAt: Int
        var amr: AuthenticationMethods

        enum CodingKeys: String, CodingKey {
            case id, scope, amr
            case clientID = "client_id"
            case authTime = "auth_time"
            case createdAt = "created_at"
            case expiresAt = "expires_at"
        }
    }

    /// A browser signed in on the hosted pages.
    package struct BrowserSession: Encodable, Sendable {
        var authTime: Int
        var expiresAt: Int
        var amr: AuthenticationMethods

        enum CodingKeys: String, CodingKey {
            case amr
            case authTime = "auth_time"
            case expiresAt = "expires_at"
        }
    }

    var grants: [Grant]
    var browserSessions: [BrowserSession]

    enum CodingKeys: String, CodingKey {
        case grants
        case browserSessions = "browser_sessions"
    }

    /// The resource of `sessions`.
    package init(_ sessions: AdminUserSessions.Sessions) {
        grants = sessions.grants.map { grant in
            Grant(
                id: grant.id, clientID: grant.clientID, scope: grant.scope, authTime: Self.seconds(grant.authTime),
                createdAt: Self.seconds(grant.createdAt), expiresAt: Self.seconds(grant.expiresAt), amr: grant.methods)
        }
        browserSessions = sessions.browserSessions.map { session in
            BrowserSession(
                authTime: Self.seconds(session.authTime), expiresAt: Self.seconds(session.expiresAt),
                amr: session.methods)
        }
    }

    /// `date` in whole seconds since 1970, as the admin API writes times.
    private static func seconds(_ date: Date) -> Int {
        Int(date.timeIntervalSince1970)
    }
}
