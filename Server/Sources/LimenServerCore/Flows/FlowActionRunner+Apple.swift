import Foundation
import LimenServerStorage
import LimenWire
import Logging

extension FlowActionRunner {
    /// The error detail code of an identity token that is not valid for this request (any reason alike).
    package static let invalidIdentityToken = "invalid_identity_token"
    /// The error detail code when Apple's keys could not be fetched (`503`, try again later).
    package static let appleUnavailable = "apple_unavailable"
    /// What an identity token refused for any reason is told.
    private static let appleFailed = "Sign in with Apple did not work. Try again."

    /// `sign_in_with_apple`: the submitted `identity_token` checked against the raw `nonce` the app generated
    /// (``AppleIdentityVerifier``), then its Apple ID (kind `apple`, Apple's `sub`) resolved to a user by
    /// ``AccountLinking``'s cases (``AccountLinking/identified(_:as:request:context:)``); the optional `name`, which
    /// Apple gives the app on the first sign-in only, is trimmed and kept for a new user (or a guest without one). What
    /// Apple says of the user is kept, and the optional `authorization_code` redeemed when the team key is configured
    /// (``AppleAccounts``), before the Apple ID is resolved.
    ///
    /// A token refused for any reason, or sent with the authorization code of another Apple ID, gets the same error
    /// node (`invalid_identity_token` on `identity_token`), which never echoes it; Apple's keys out of reach gets `503` with `apple_unavailable`. While sign-up is turned off, an
    /// Apple ID that would make a new account ends the interaction with `sign_up_disabled` (`403`), as `create_account`
    /// does.
    func signInWithApple(
        _ input: ActionInput,
        context: FlowContext
    ) async throws(StorageError) -> FlowActionOutcome {
        guard let apple = services.appleIdentities else {
            return .failed(
                code: "apple_not_configured", message: "Sign in with Apple is not offered here.", status: .notFound)
        }
        let name: String?
        do throws(AccountError) {
            name = try Accounts.displayName(Self.text(input.values["name"]))
        } catch {
            return try Self.outcome(of: error)
        }
        let identity: AppleIdentity
        do throws(AppleIdentityRefusal) {
            identity = try await apple.verify(
                Self.text(input.values["identity_token"]) ?? "", rawNonce: Self.text(input.values["nonce"]) ?? "",
                fullName: name)
        } catch .keysUnavailable {
            return .refused(
                Self.appleRefusal(
                    Self.appleUnavailable, "Apple cannot be reached just now. Try again in a minute.",
                    status: .unavailable, retryAfter: 60))
        } catch {
            return .refused(Self.appleRefusal(Self.invalidIdentityToken, Self.appleFailed))
        }
        let redemption: AppleTeamClient.Redemption?
        do throws(AppleTeamError) {
            redemption = try await services.appleAccounts?.redeem(
                Self.text(input.values["authorization_code"]), for: identity, logger: logger)
        } catch {
            return .refused(Self.appleRefusal(Self.invalidIdentityToken, Self.appleFailed))
        }
        if !services.signUpEnabled,
            try await linking.makesAccount(for: identity.external, request: input.request)
        {
            return .failed(code: Self.signUpDisabled.code, message: Self.signUpDisabled.message, status: .forbidden)
        }
        switch try await linking.identified(
            identity.external, as: .apple, request: input.request, context: context, origin: input.origin)
        {
        case .success(let identified):
            if let subject = identified.subject {
                try await services.appleAccounts?.signedIn(identity, user: subject, redemption: redemption)
            }
            return .proceeded(identified.authenticated(by: [.federated], as: .apple))
        case .failure(let refusal): return .refused(refusal)
        }
    }

    /// A refusal of the identity token: `code` on `identity_token`.
    private static func appleRefusal(
        _ code: String,
        _ message: String,
        status: FlowAnswerStatus = .ok,
        retryAfter: Int? = nil
    ) -> FlowRefusal {
        FlowRefusal(
            message: message, details: [.init(key: AccountLinking.Credential.apple.key, code: code, message: message)],
            status: status, retryAfter: retryAfter)
    }
}
