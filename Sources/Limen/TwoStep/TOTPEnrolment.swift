import Foundation
import LimenOIDC

/// Two-step sign-in being set up for the signed-in user (``AuthClient/enrolTOTP(reauthenticating:)``): the secret to
/// add to an authenticator app, and ``confirm(code:)`` to turn it on with the first code the app shows.
///
/// ```swift
/// let enrolment = try await client.enrolTOTP()
/// showQRCode(enrolment.uri)  // or let the person type enrolment.secret
/// while true {
///     do {
///         let recoveryCodes = try await enrolment.confirm(code: await askForCode())
///         show(recoveryCodes)  // shown only now: ask the person to keep them
///         break
///     } catch .account(.invalidCode) {
///         continue  // the same enrolment takes another code
///     }
/// }
/// ```
public struct TOTPEnrolment: Sendable {
    /// The `otpauth://totp/…` URI of the secret (SHA-1, 6 digits, 30 seconds): show it as a QR code for an
    /// authenticator app to scan, or open it when the app is on the same device.
    public let uri: URL
    /// The secret in base32 (RFC 4648), for an authenticator app that cannot scan ``uri``: the person types it.
    public let secret: String
    /// The flow's step that takes the first code.
    private let step: ContinueNode

    /// The enrolment `step` (the `totp-enrol` flow's node `enrol`) shows.
    init(_ step: ContinueNode) throws(FlowError) {
        guard let uri = step.labelValue("otpauth_uri").flatMap(URL.init(string:)), uri.scheme == "otpauth",
            let secret = step.labelValue("secret"), !secret.isEmpty
        else { throw .invalidResponse("the two-step setup has no otpauth URI or secret") }
        (self.uri, self.secret, self.step) = (uri, secret, step)
    }

    /// Turns two-step sign-in on with `code`, a current code of the authenticator app that holds ``secret``, and
    /// returns the ten recovery codes, each of which signs in once in place of a code (the provider shows them only
    /// now). The flow is then finished; the codes are returned even if that last request fails, as two-step sign-in is
    /// on from the moment the code is accepted.
    ///
    /// - Throws: ``LimenError/account(_:)`` with ``AccountError/invalidCode`` for a wrong code (call again with
    ///   another: nothing changed), ``AccountError/tooManyAttempts(retryAfter:)`` once wrong codes locked the account
    ///   for a while, ``AccountError/twoStepAlreadyEnabled`` when it was turned on meanwhile; ``LimenError/flow(_:)``
    ///   when the flow ended or refused otherwise (``FlowError/server(code:message:)`` with `interaction_expired`);
    ///   the network's ``LimenError``s.
    public func confirm(code: String) async throws(LimenError) -> [String] {
        let interaction = step.interaction
        let submission = interaction.submission(step: step.id, action: "submit", values: ["totp": .string(code)])
        let answer = await interaction.send(submission, submitted: nil)
        if case .error(let refusal) = answer, let wait = refusal.retryAfter {
            throw .account(.tooManyAttempts(retryAfter: wait))
        }
        do throws(FlowError) {
            let shown = try FlowClient.step(of: answer)
            guard let codes = shown.labelValue("recovery_codes") else {
                throw .invalidResponse("the two-step setup showed no recovery codes")
            }
            _ = await shown.next()
            return codes.split(separator: "\n").map(String.init)
        } catch {
            throw LimenError(twoStep: error)
        }
    }
}

extension ContinueNode {
    /// The ``LabelCollector/value`` of the step's `LABEL` with key `key`.
    func labelValue(_ key: String) -> String? {
        collectors.lazy.compactMap { $0 as? LabelCollector }.first { $0.key == key }?.value
    }
}

extension LimenError {
    /// Why a two-step flow (`totp-enrol`) ended or refused: a wrong code as ``AccountError/invalidCode``, a setup
    /// that is on already as ``AccountError/twoStepAlreadyEnabled``, anything else as any flow's failure.
    init(twoStep error: FlowError) {
        switch error {
        case .refused(_, let details) where details.contains(where: { $0.code == "invalid_code" }):
            self = .account(.invalidCode)
        case .server("second_factor_enabled", _): self = .account(.twoStepAlreadyEnabled)
        default: self.init(error)
        }
    }
}
