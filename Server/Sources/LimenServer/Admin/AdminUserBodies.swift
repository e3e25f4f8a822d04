import Foundation

/// `POST /admin/users`: an account with a password, created through ``Accounts/signUp(email:password:name:emailVerified:)``.
struct AdminUserRequest: Decodable, Sendable {
    var email: String
    var password: String
    var name: String?
    var emailVerified: Bool?

    enum CodingKeys: String, CodingKey {
        case email, password, name
        case emailVerified = "email_verified"
    }
}

/// A user as the admin API shows it: never the password hash, only whether there is one.
struct AdminUserResource: Encodable, Sendable {
    var id: String
    var email: String
    var emailVerified: Bool
    var name: String?
    var hasPassword: Bool
    var createdAt: Int

    enum CodingKeys: String, CodingKey {
        case id, email, name
        case emailVerified = "email_verified"
        case hasPassword = "has_password"
        case createdAt = "created_at"
    }

    /// The resource of `user`.
    init(_ user: UserRecord) {
        id = user.id
        email = user.email
        emailVerified = user.emailVerified
        name = user.name
        hasPassword = user.passwordHash != nil
        createdAt = Int(user.createdAt.timeIntervalSince1970)
    }
}

/// `GET /admin/users`: one page, and the `after` of the next page when there may be one.
struct AdminUserPage: Encodable, Sendable {
    var users: [AdminUserResource]
    var nextAfter: String?

    enum CodingKeys: String, CodingKey {
        case users
        case nextAfter = "next_after"
    }
}
