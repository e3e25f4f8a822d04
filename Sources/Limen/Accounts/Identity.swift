import Foundation
import LimenOIDC

/// One way the signed-in user signs in, as `GET /v1/me/identities` lists it (RxFireAuth's linked providers).
///
/// ```swift
/// for identity in try await client.identities() {
///     print(identity.kind.rawValue, identity.subject)  // "password ada@example.com"
/// }
/// ```
public struct Identity: Sendable, Equatable, Hashable {
    /// What kind of credential it is.
    public var kind: IdentityKind
    /// Who it names within its kind: the address for ``IdentityKind/password`` and ``IdentityKind/email`` — empty when
    /// the session's token lacks the `email` scope, to which Limen Server shows no address (as `/userinfo`).
    public var subject: String
    /// When it was linked.
    public var createdAt: Date

    /// Creates an identity.
    public init(kind: IdentityKind, subject: String, createdAt: Date) {
        self.kind = kind
        self.subject = subject
        self.createdAt = createdAt
    }

    /// The identity a member of `{"identities": […]}` describes.
    init(document: JSONValue) throws(AccountError) {
        guard let members = document.objectValue, let kind = members["kind"]?.stringValue,
            let created = members["created_at"]?.numberValue
        else { throw .malformedResponse("an identity lacks kind or created_at") }
        let subject = members["subject"]?.stringValue ?? ""
        self.init(kind: IdentityKind(rawValue: kind), subject: subject, createdAt: Date(timeIntervalSince1970: created))
    }
}

/// The kind of an ``Identity``: a password, one-time codes by email, or another the provider names (an external
/// issuer's). Unknown kinds are kept as they are.
public struct IdentityKind: RawRepresentable, Sendable, Hashable, ExpressibleByStringLiteral {
    /// Signing in with the address and a password.
    public static let password = IdentityKind(rawValue: "password")
    /// Signing in with one-time codes sent to the address.
    public static let email = IdentityKind(rawValue: "email")

    /// The provider's name for the kind.
    public var rawValue: String

    /// A kind by the provider's name.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A kind by the provider's name, written as a literal.
    public init(stringLiteral value: String) {
        self.init(rawValue: value)
    }
}
