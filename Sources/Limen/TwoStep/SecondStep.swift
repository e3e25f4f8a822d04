import Foundation
import LimenOIDC

/// The second step a sign-in stopped at, for an account with two-step sign-in on (Firebase's
/// `MultiFactorResolver`): a convenience such as ``AuthClient/signIn(email:password:)`` throws it in
/// ``FlowError/secondStepRequired(_:)``, and one of its answers finishes the sign-in exactly as the flow would — the
/// code redeemed, the session stored, the events sent.
///
/// ```swift
/// do throws(FlowError) {
///     try await client.signIn(email: email, password: password)
/// } catch .secondStepRequired(let step) {
///     while true {
///         do throws(LimenError) {
///             try await step.answer(totp: await askForCode())
///             break
///         } catch .account(.invalidCode) {
///             continue  // the same step takes another code
///         }
///     }
/// }
/// ```
///
/// A wrong code leaves the step answerable (``AccountError/invalidCode``); five wrong codes lock the account for a
/// while (``AccountError/tooManyAttempts(retryAfter:)``).
public final class SecondStep: Sendable {
    /// The step as the server last showed it (again after a refusal, with a new passkey challenge).
    private let current: LockedValue<ContinueNode>

    /// The ID of the node a flow asks for the second step with.
    static let nodeID = "mfa"

    /// The second step `node` (the flow's `mfa` node) asks for.
    init(_ node: ContinueNode) {
        current = LockedValue(node)
    }

    /// The ways the account can answer, in the order the server offers them: ``SecondStepMethod/totp`` always,
    /// ``SecondStepMethod/recoveryCode`` while some are left, ``SecondStepMethod/passkey`` when the account has one.
    public var methods: [SecondStepMethod] {
        current.withLock { $0 }.collectors.compactMap { collector in
            collector is PasskeyCollector ? SecondStepMethod.passkey : SecondStepMethod.fields[collector.key]
        }
    }

    /// Finishes the sign-in with `code`, the code the authenticator app shows now (each code signs in once).
    ///
    /// - Throws: ``LimenError/account(_:)`` with ``AccountError/invalidCode`` for a wrong or used code (the step takes
    ///   another), ``AccountError/tooManyAttempts(retryAfter:)`` once wrong codes locked the account for a while;
    ///   ``LimenError/flow(_:)`` when the interaction ended (``FlowError/server(code:message:)`` with
    ///   `interaction_expired` or `too_many_attempts`: sign in again); the network's ``LimenError``s.
    @discardableResult
    public func answer(totp code: String) async throws(LimenError) -> AuthState.User {
        try await answer(.totp, with: code)
    }

    /// Finishes the sign-in with one of the account's recovery codes, which is then used up.
    ///
    /// - Throws: as ``answer(totp:)``; ``LimenError/flow(_:)`` with ``FlowError/incomplete(step:)`` when the account
    ///   has no recovery codes left (``methods`` does not list them).
    @discardableResult
    public func answer(recoveryCode code: String) async throws(LimenError) -> AuthState.User {
        try await answer(.recoveryCode, with: code)
    }

    /// Finishes the sign-in with one of the account's passkeys: `authenticator` signs the server's challenge, which
    /// allows only this account's passkeys.
    ///
    /// - Throws: ``LimenError/flow(_:)`` with ``FlowError/passkey(_:)`` when the authenticator did not answer (the step
    ///   can be answered again), with ``FlowError/refused(message:details:)`` when the server refused the passkey
    ///   (another account's, or unknown), with ``FlowError/incomplete(step:)`` when the account has no passkey; as
    ///   ``answer(totp:)`` otherwise.
    @discardableResult
    public func answerPasskey(using authenticator: some PasskeyAuthenticator) async throws(LimenError)
        -> AuthState.User
    {
        let step = current.withLock { $0 }
        guard let button = SecondStepMethod.passkey.button, step.collectors.contains(where: { $0 is PasskeyCollector })
        else { throw .flow(.incomplete(step: step.id)) }
        do throws(PasskeyError) {
            try await step.answerPasskey(with: authenticator)
        } catch {
            throw .flow(.passkey(error))
        }
        return try settle(await step.next(action: button))
    }

    /// Fills the field of `method` with `code` and presses its button.
    private func answer(_ method: SecondStepMethod, with code: String) async throws(LimenError) -> AuthState.User {
        let step = current.withLock { $0 }
        let fields = step.collectors.compactMap { $0 as? TextCollector }
        guard let button = method.button, fields.contains(where: { $0.key == method.rawValue }) else {
            throw .flow(.incomplete(step: step.id))
        }
        // Only this way's field is sent: a code typed earlier for another way is cleared.
        for field in fields where SecondStepMethod.fields[field.key] != nil {
            field.value = field.key == method.rawValue ? code : ""
        }
        return try settle(await step.next(action: button))
    }

    /// The user `node` signed in; a refusal keeps its step for the next answer.
    private func settle(_ node: Node) throws(LimenError) -> AuthState.User {
        switch node {
        case .success(let success):
            return success.user
        case .error(let refusal):
            current.withLock { $0 = refusal.node }
            if let wait = refusal.retryAfter { throw .account(.tooManyAttempts(retryAfter: wait)) }
            throw LimenError(twoStep: .refused(message: refusal.message, details: refusal.details))
        case .continue(let next):
            throw .flow(.incomplete(step: next.id))
        case .failure(let failure):
            throw LimenError(failure.cause)
        }
    }
}

extension SecondStep: Equatable {
    /// Whether both are the same step (of the same sign-in).
    public static func == (lhs: SecondStep, rhs: SecondStep) -> Bool {
        lhs === rhs
    }
}

/// A way of answering a ``SecondStep``: the value of its field (`totp`, `recovery_code`) or collector (`passkey`) on
/// the server's `mfa` node. A struct rather than an enum, so that a way added later breaks no `switch`.
public struct SecondStepMethod: RawRepresentable, Hashable, Sendable {
    /// A code from the authenticator app (``SecondStep/answer(totp:)``).
    public static let totp = SecondStepMethod(rawValue: "totp")
    /// A recovery code (``SecondStep/answer(recoveryCode:)``).
    public static let recoveryCode = SecondStepMethod(rawValue: "recovery_code")
    /// One of the account's passkeys (``SecondStep/answerPasskey(using:)``).
    public static let passkey = SecondStepMethod(rawValue: "passkey")

    /// The key of its collector on the `mfa` node.
    public let rawValue: String

    /// The way whose collector has key `rawValue`.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The ways answered with a text field, by the field's key.
    static let fields = [totp.rawValue: totp, recoveryCode.rawValue: recoveryCode]

    /// The button of the `mfa` node that submits it.
    var button: String? {
        switch self {
        case .totp: "submit-totp"
        case .recoveryCode: "submit-recovery-code"
        case .passkey: "submit-passkey"
        default: nil
        }
    }
}
