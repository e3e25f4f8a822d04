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

/// `PATCH /admin/users/:id`, a JSON merge patch (RFC 7396) of `name`, `email_verified` and `password`: an absent member
/// stays as it is; `"name": null` removes the name. Any other member is refused, so a typo never passes silently.
struct AdminUserPatch: Decodable, Sendable {
    var changes: AccountChanges

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case name, password
        case emailVerified = "email_verified"
    }

    init(from decoder: any Decoder) throws {
        let unknown = try decoder.container(keyedBy: AnyKey.self).allKeys.map(\.stringValue)
            .filter { key in !CodingKeys.allCases.contains { $0.stringValue == key } }
        if let member = unknown.sorted().first {
            throw DecodingError.dataCorrupted(
                DecodingError.Context(codingPath: [AnyKey(stringValue: member)], debugDescription: "unknown member"))
        }
        let container = try decoder.container(keyedBy: CodingKeys.self)
        changes = AccountChanges(
            name: try container.contains(.name) ? .some(container.decodeIfPresent(String.self, forKey: .name)) : nil,
            emailVerified: try container.decodeIfPresent(Bool.self, forKey: .emailVerified),
            password: try container.decodeIfPresent(String.self, forKey: .password)
        )
    }

    /// Any member name, to find those the patch does not know.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
