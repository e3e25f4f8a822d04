/// `POST /admin/users`: an account with a password, created through the server's `Accounts.signUp`.
package struct AdminUserRequest: AdminRequestBody, Sendable {
    /// The members ``AdminJSON`` accepts.
    package typealias Members = CodingKeys

    /// `email`: the account's email address.
    package var email: String
    /// `password`: the account's password.
    package var password: String
    /// `name`: the display name.
    package var name: String?
    /// `email_verified`: whether the address is known to be the user's (`false` when absent).
    package var emailVerified: Bool?

    /// The members, as named on the wire.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case email, password, name
        case emailVerified = "email_verified"
    }
}

/// `PATCH /admin/users/:id`, a JSON merge patch (RFC 7396) of `name`, `email_verified` and `password`: an absent member
/// stays as it is; `"name": null` removes the name. Any other member is refused (by ``AdminJSON``), so a typo never
/// passes silently.
package struct AdminUserPatch: AdminRequestBody, Sendable {
    /// The members ``AdminJSON`` accepts.
    package typealias Members = CodingKeys

    /// The new display name: `nil` to leave it, `.some(nil)` (`"name": null`) to remove it.
    package var name: String??
    /// The new `email_verified`, if given.
    package var emailVerified: Bool?
    /// A new password, if given.
    package var password: String?

    /// The members, as named on the wire.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case name, password
        case emailVerified = "email_verified"
    }

    /// Decodes a patch, telling an absent `name` from `"name": null`.
    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        name = try container.contains(.name) ? .some(container.decodeIfPresent(String.self, forKey: .name)) : nil
        emailVerified = try container.decodeIfPresent(Bool.self, forKey: .emailVerified)
        password = try container.decodeIfPresent(String.self, forKey: .password)
    }
}
