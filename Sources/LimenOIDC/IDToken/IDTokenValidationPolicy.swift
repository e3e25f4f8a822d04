import Foundation
import LimenWire

/// What an ``IDTokenValidator`` accepts beyond the issuer and client ID.
public struct IDTokenValidationPolicy: Sendable, Equatable {
    /// The algorithms a token may be signed with; anything else is refused before a key is looked at.
    public var allowedAlgorithms: Set<JWSAlgorithm>
    /// How far clocks may disagree, in seconds, when checking `exp`, `iat`, `nbf` and `auth_time`.
    public var leeway: TimeInterval

    /// Creates a policy; the defaults accept RS256, PS256, ES256 and EdDSA with 60 s of leeway.
    public init(
        allowedAlgorithms: Set<JWSAlgorithm> = [.rs256, .ps256, .es256, .edDSA],
        leeway: TimeInterval = 60
    ) {
        self.allowedAlgorithms = allowedAlgorithms
        self.leeway = leeway
    }
}
