import Foundation
import Hummingbird

/// Something a route's path names (`/admin/clients/:id`), read at the edge into a type of its own, so a handler never
/// works on a bare segment. Reading never fails for a segment the router matched: an identifier that names nothing is
/// the route's own `404`, as before.
protocol PathParameter: Sendable, Equatable {
    /// The parameter's name in the route's pattern (`id` for `:id`).
    static var parameterName: String { get }
    /// The value of the path segment `segment`: the segment itself, unless the type reads it otherwise.
    init(pathSegment segment: String)
    /// The value as the store and the wire spell it.
    var rawValue: String { get }
    /// The value `rawValue`.
    init(rawValue: String)
}

extension PathParameter {
    /// The segment itself.
    init(pathSegment segment: String) { self.init(rawValue: segment) }
}

extension Parameters {
    /// The path parameter of type `P`. It is there whenever the router matched a pattern naming it; a pattern that
    /// lacks it is a programming mistake, answered `400` by Hummingbird.
    func path<P: PathParameter>(_: P.Type) throws -> P {
        P(pathSegment: try require(P.parameterName))
    }
}

/// A registered client's ID (`/admin/clients/:id`).
struct ClientID: PathParameter {
    static let parameterName = "id"
    let rawValue: String
}

/// A user's ID, the `sub` of their tokens (`/admin/users/:id`).
struct UserID: PathParameter {
    static let parameterName = "id"
    let rawValue: String
}

/// The name of a sign-in flow (`/flows/:flow`).
struct FlowName: PathParameter {
    static let parameterName = "flow"
    let rawValue: String
}

/// A flow interaction's ID (`/flows/interactions/:id`).
struct InteractionID: PathParameter {
    static let parameterName = "id"
    let rawValue: String
}

/// An upstream OpenID provider's ID, as configured (`/federation/:provider/…`).
struct UpstreamProviderID: PathParameter {
    static let parameterName = "provider"
    let rawValue: String
}

/// The kind of an identity (`/v1/me/identities/:kind`): `password`, `email`, `apple`, or an external issuer's
/// `oidc:https://…`, which reaches the path percent-encoded (a colon and slashes). A segment that is not valid
/// percent-encoding is kept as it is, and names no identity.
struct IdentityKind: PathParameter {
    static let parameterName = "kind"
    let rawValue: String
}

extension IdentityKind {
    /// The kind the segment names, percent-decoded (in an extension, so that the memberwise `init(rawValue:)` stays).
    init(pathSegment segment: String) { self.init(rawValue: segment.removingPercentEncoding ?? segment) }
}
