import Foundation
import LimenOIDC

extension AuthClient {
    /// Starts setting up two-step sign-in for the signed-in user: the provider's `totp-enrol` flow, started with their
    /// access token, hands out a new secret for an authenticator app (Google Authenticator, 1Password, …). Show its
    /// ``TOTPEnrolment/uri`` as a QR code (or its ``TOTPEnrolment/secret`` to type), then call
    /// ``TOTPEnrolment/confirm(code:)`` with the code the app shows; nothing changes until then.
    ///
    /// ```swift
    /// let enrolment = try await client.enrolTOTP()
    /// showQRCode(enrolment.uri)
    /// let recoveryCodes = try await enrolment.confirm(code: await askForCode())
    /// ```
    ///
    /// From then on, every sign-in through a flow asks for a second step after the first (a node `mfa`: a code of the
    /// app, one of the user's passkeys, or a recovery code).
    ///
    /// An account change: the provider asks for a recent sign-in (see ``deleteAccount(reauthenticating:)``); with
    /// `reauthentication` the SDK signs in again that way and starts once more.
    /// - Throws: ``LimenError/notSignedIn`` without a session; ``LimenError/account(_:)`` with
    ///   ``AccountError/twoStepAlreadyEnabled``, ``AccountError/reauthenticationRequired(maxAge:)`` (without
    ///   `reauthentication`) or ``AccountError/changeNotAllowed(code:)``; ``LimenError/flow(_:)`` when the provider has
    ///   no such flow or ended it; the network's ``LimenError``s.
    public func enrolTOTP(reauthenticating reauthentication: Reauthentication? = nil) async throws(LimenError)
        -> TOTPEnrolment
    {
        guard try await validAccessToken() != nil else { throw .notSignedIn }
        return try await changingAccount(reauthenticating: reauthentication) { () throws(LimenError) in
            do throws(FlowError) {
                let start = await flows.start("totp-enrol", options: SignInOptions(), carryingSession: true)
                return try TOTPEnrolment(try FlowClient.step(of: start))
            } catch {
                throw LimenError(twoStep: error)
            }
        }
    }

    /// Whether the signed-in user's two-step sign-in is on, and how many recovery codes are left
    /// (`GET /v1/me/totp`).
    /// - Throws: ``LimenError/notSignedIn`` without a session, ``LimenError/account(_:)`` for an unexpected answer,
    ///   the network's and the session's ``LimenError``s otherwise.
    public func twoStepStatus() async throws(LimenError) -> TwoStepStatus {
        let response = try await accountRequest("GET", profiles.url("v1/me/totp"))
        do throws(AccountError) {
            guard let document = try? JSONValue(parsing: response.body) else {
                throw .malformedResponse("the two-step status is not JSON")
            }
            return try TwoStepStatus(document: document)
        } catch {
            throw .account(error)
        }
    }

    /// Turns the signed-in user's two-step sign-in off (`DELETE /v1/me/totp`) after a fresh second step: `code` is a
    /// current code of their authenticator app or one of their recovery codes (used up by this).
    ///
    /// An account change: the provider asks for a recent sign-in (see ``deleteAccount(reauthenticating:)``); with
    /// `reauthentication` the SDK signs in again that way and retries once.
    /// - Throws: ``LimenError/account(_:)`` with ``AccountError/invalidCode`` (ask for another code),
    ///   ``AccountError/twoStepNotEnabled``, ``AccountError/tooManyAttempts(retryAfter:)``,
    ///   ``AccountError/reauthenticationRequired(maxAge:)`` or ``AccountError/changeNotAllowed(code:)``;
    ///   ``LimenError/notSignedIn`` without a session; the network's ``LimenError``s.
    public func disableTOTP(code: String, reauthenticating reauthentication: Reauthentication? = nil)
        async throws(LimenError)
    {
        _ = try await changingAccount(reauthenticating: reauthentication) { () throws(LimenError) in
            try await accountRequest("DELETE", profiles.url("v1/me/totp"), form: [("code", code)])
        }
    }

    /// Replaces the signed-in user's recovery codes with ten new ones (`POST /v1/me/recovery-codes`) after a fresh
    /// second step: `code` is a current code of their authenticator app or one of their recovery codes. The old codes
    /// stop working; the new ones are in this answer only.
    ///
    /// An account change, as ``disableTOTP(code:reauthenticating:)`` is, with the same errors.
    /// - Returns: The ten new recovery codes, each of which signs in once.
    public func newRecoveryCodes(code: String, reauthenticating reauthentication: Reauthentication? = nil)
        async throws(LimenError) -> [String]
    {
        let response = try await changingAccount(reauthenticating: reauthentication) { () throws(LimenError) in
            try await accountRequest("POST", profiles.url("v1/me/recovery-codes"), form: [("code", code)])
        }
        guard case .array(let codes)? = (try? JSONValue(parsing: response.body))?.objectValue?["recovery_codes"] else {
            throw .account(.malformedResponse("the recovery codes are not a JSON list"))
        }
        return codes.compactMap(\.stringValue)
    }
}
