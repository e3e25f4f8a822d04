import Crypto
import Foundation
import LimenOIDC
import LimenWire

/// Who an Apple identity token says signed in, with what Apple says of their address and of them.
package struct AppleIdentity: Sendable, Equatable {
    /// The domain of the addresses Apple's private email relay hands out.
    static let privateRelayDomain = "privaterelay.appleid.com"

    /// The identity as any trusted issuer's: Apple's `sub`, the address when Apple verified it, and the name the app
    /// passed (Apple's token has none), which a new user takes.
    package let external: ExternalIdentity
    /// Whether the address is one of Apple's private relay (`is_private_email`, or the relay's domain).
    package let isPrivateEmail: Bool
    /// Apple's `real_user_status`: 0 unsupported, 1 unknown, 2 likely real; `nil` when absent.
    package let realUserStatus: Int?
    /// The bundle ID the token was for (its `aud`): the client ID its authorization code is redeemed as.
    package var audience: String? = nil
}

/// Why an Apple identity token was refused: every case is answered alike (the client re-authenticates), except
/// ``keysUnavailable``, the server's own failure; the case is for the debug log and for tests.
package enum AppleIdentityRefusal: Error, Sendable, Equatable {
    /// The token failed a trusted issuer's checks (``ExternalTokenVerifier``).
    case token(ExternalTokenRefusal)
    /// The token's `nonce` is absent or not the SHA-256 of the raw nonce the app sent.
    case nonceMismatch
    /// Apple's keys could not be fetched.
    case keysUnavailable
    /// A server-to-server notification whose claims are not Apple's for this app, or too old, or without an event.
    case invalidNotification

    /// A stable code for the debug log.
    package var code: String {
        switch self {
        case .token(let refusal): "apple.\(refusal.code)"
        case .nonceMismatch: "apple.nonce_mismatch"
        case .keysUnavailable: "apple.keys_unavailable"
        case .invalidNotification: "apple.invalid_notification"
        }
    }
}

/// Checks an identity token of Sign in with Apple: everything ``ExternalTokenVerifier`` checks for a trusted issuer
/// (Apple's keys, RS256, `iss`, `aud` one of the bundle IDs, `exp`, `iat`), then that its `nonce` is the lowercase hex
/// SHA-256 of the raw nonce the app generated (compared in constant time), so a token cannot be replayed by another
/// request than the one it was made for.
package struct AppleIdentityVerifier: Sendable {
    /// The verifier trusting Apple alone.
    package let verifier: ExternalTokenVerifier
    /// The app's bundle IDs, one of which a token's `aud` names.
    let bundleIDs: [String]

    /// A verifier for `apple`, fetching its keys through `transport`.
    package init(apple: AppleSignIn, transport: any HTTPTransport, now: @escaping @Sendable () -> Date) {
        bundleIDs = apple.bundleIDs
        verifier = ExternalTokenVerifier(issuers: [apple.trustedIssuer], transport: transport, now: now)
    }

    /// The identity the identity token proves for the request that sent `rawNonce`, named `fullName` (the name the
    /// app passes on the first sign-in), or why it proves none.
    package func verify(_ token: String, rawNonce: String, fullName: String?) async throws(AppleIdentityRefusal)
        -> AppleIdentity
    {
        let identity: ExternalIdentity
        let claims: [String: JSONValue]
        do {
            let verified = try await verifier.verifyWithClaims(token, type: TokenExchangeRequest.TokenType.idToken)
            identity = verified.identity
            claims = verified.claims
        } catch .keysUnavailable {
            throw .keysUnavailable
        } catch {
            throw .token(error)
        }
        guard let nonce = claims["nonce"]?.stringValue, ConstantTime.equals(nonce, Self.hashedNonce(rawNonce)) else {
            throw .nonceMismatch
        }
        let isPrivateEmail =
            claims["is_private_email"]?.boolValue
            ?? identity.email.map { $0.hasSuffix("@" + AppleIdentity.privateRelayDomain) } ?? false
        return AppleIdentity(
            external: ExternalIdentity(
                identityKind: identity.identityKind, linkByVerifiedEmail: identity.linkByVerifiedEmail,
                subject: identity.subject, email: identity.email, emailVerified: identity.emailVerified,
                name: fullName, authTime: identity.authTime),
            isPrivateEmail: isPrivateEmail,
            realUserStatus: claims["real_user_status"]?.numberValue.flatMap { Int(exactly: $0) },
            audience: claims["aud"]?.stringArrayValue?.first(where: bundleIDs.contains))
    }

    /// The nonce an identity token carries for `rawNonce`: its SHA-256 in lowercase hex, as the app sends it to Apple.
    static func hashedNonce(_ rawNonce: String) -> String {
        SHA256.hash(data: Data(rawNonce.utf8)).lowercaseHex
    }
}
