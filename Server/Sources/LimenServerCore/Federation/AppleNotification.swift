import Foundation
import LimenWire

/// One of Apple's server-to-server notifications for Sign in with Apple: a JWT Apple signs (`{"payload": JWT}`),
/// whose `events` claim (a JSON object, sent as a string) says what happened to which user.
package struct AppleNotification: Sendable, Equatable {
    /// How old a notification may be, by its `iat`: older ones are refused, so a captured one cannot be replayed
    /// later to end the user's new sessions.
    static let maximumAge: TimeInterval = 3600

    /// What happened.
    package enum Event: String, Sendable, Equatable {
        /// The user stopped using Sign in with Apple with the app: their sessions end.
        case consentRevoked = "consent-revoked"
        /// The user deleted their Apple Account: their sessions end.
        case accountDelete = "account-delete"
        /// The user stopped forwarding from their private relay address.
        case emailDisabled = "email-disabled"
        /// The user resumed forwarding from their private relay address.
        case emailEnabled = "email-enabled"
    }

    /// The event's `type`, `nil` for a type Apple may add later (acknowledged, nothing done).
    package let event: Event?
    /// The Apple user (`sub`) it concerns.
    package let subject: String
}

extension AppleIdentityVerifier {
    /// The notification `payload` carries once its signature is Apple's (as an identity token's), its `iss` Apple's, its
    /// `aud` one of the bundle IDs, its `iat` at most ``AppleNotification/maximumAge`` old (and not in the future), and
    /// its `events` an object with a `type` and a `sub`; otherwise why not.
    package func notification(_ payload: String, now: Date) async throws(AppleIdentityRefusal) -> AppleNotification {
        let issuer: TrustedIssuer
        let claims: [String: JSONValue]
        do {
            let verified = try await verifier.verifiedPayload(payload)
            issuer = verified.issuer
            claims = verified.claims
        } catch .keysUnavailable {
            throw .keysUnavailable
        } catch {
            throw .token(error)
        }
        guard claims["iss"]?.stringValue == issuer.issuer,
            claims["aud"]?.stringArrayValue?.contains(where: issuer.audiences.contains) == true,
            let issuedAt = claims["iat"]?.numberValue.map(Date.init(timeIntervalSince1970:)),
            issuedAt <= now.addingTimeInterval(ExternalTokenVerifier.leeway),
            now.timeIntervalSince(issuedAt) <= AppleNotification.maximumAge + ExternalTokenVerifier.leeway,
            let events = Self.events(claims["events"]), let type = events["type"]?.stringValue,
            let subject = events["sub"]?.stringValue, !subject.isEmpty
        else { throw .invalidNotification }
        return AppleNotification(event: AppleNotification.Event(rawValue: type), subject: subject)
    }

    /// The `events` claim as an object: Apple sends it as a string of JSON.
    private static func events(_ claim: JSONValue?) -> [String: JSONValue]? {
        switch claim {
        case .object(let members)?: members
        case .string(let text)?: (try? JSONValue(parsing: Data(text.utf8)))?.objectValue
        default: nil
        }
    }
}
