import Foundation
import LimenServerStorage
import LimenWire

extension FlowActionRunner {
    /// The second step `complete` needs first for user `subject`, so that the sign-in reaches two factors when their
    /// two-step sign-in is on, and `required` (step-up): `nil` when the first step reached both already (a passkey is
    /// two factors in one), when this interaction answered a second step, or when no way the user has would reach
    /// them (a guest; nobody with neither an authenticator app nor a passkey; `phr` without a passkey).
    func secondStep(for subject: String, context: FlowContext, required: AuthenticationLevel?)
        async throws(StorageError) -> SecondStep?
    {
        let reached = AuthenticationLevel(context.methods)
        guard context.secondStep?.answered == nil, reached >= .singleFactor, reached < .phishingResistant else {
            return nil
        }
        let twoStep = try await services.secondFactors.methods(userID: subject)
        let needed = max(required ?? .none, twoStep == nil ? .none : .multipleFactors)
        guard reached < needed else { return nil }
        var methods = needed == .phishingResistant ? [] : twoStep ?? []
        if try await !services.store.passkeyCredentials(userID: subject).isEmpty {
            methods.insert(.passkey)
        }
        return methods.isEmpty ? nil : SecondStep(offering: methods)
    }

    /// The failure of a sign-in that cannot reach the level `required` (OpenID's EAP ACR values:
    /// `unmet_authentication_requirements`).
    static func unmetLevel(_ required: AuthenticationLevel) -> FlowActionOutcome {
        .failed(
            code: "unmet_authentication_requirements",
            message: required == .phishingResistant
                ? "This app needs a sign-in with a passkey: add one to your account first."
                : "This app needs two-step sign-in: add a passkey or an authenticator app to your account first.",
            status: .forbidden)
    }

    /// The actions of two-step sign-in: the second step's codes, and the setup for the signed-in user.
    func runSecondFactorAction(
        _ action: FlowActionFamily.SecondFactor,
        _ input: ActionInput,
        context: FlowContext
    ) async throws(StorageError) -> FlowActionOutcome {
        var context = context
        let factors = services.secondFactors
        switch action {
        case .checkTOTP, .checkRecoveryCode:
            guard let subject = context.subject, context.secondStep != nil else { return Self.nobody }
            guard let user = try await services.store.user(id: subject) else { return Self.userGone }
            let key = action == .checkTOTP ? "totp" : "recovery_code"
            let typed = Self.text(input.values[key]) ?? ""
            let checked =
                action == .checkTOTP
                ? try await factors.checkTOTP(typed, for: user, from: input.clientAddress)
                : try await factors.useRecoveryCode(typed, for: user, from: input.clientAddress)
            if case .failure(let refusal) = checked {
                try await recordFailure(.wrongSecondFactor, user: user.id, input)
                return .refused(Self.secondFactorRefusal(refusal, key))
            }
            context.secondStep?.answered = action.secondFactorMethod
            context = context.alsoAuthenticated(by: [.oneTimePassword, .multipleFactors])
        case .enableTOTP:
            guard let subject = input.request.signedInSubject, let user = try await services.store.user(id: subject)
            else {
                return Self.userGone
            }
            guard let enrolment = context.totpEnrolment else {
                return .refused(Self.secondFactorRefusal(.invalidCode, "totp"))
            }
            switch try await factors.enable(
                enrolment, for: user, code: Self.text(input.values["totp"]) ?? "", from: input.origin)
            {
            case .success(let codes):
                context.totpEnrolment = nil
                context.shown = ["recovery_codes": codes.map(\.formatted).joined(separator: "\n")]
                try await services.notifier.notify(.twoStepSignIn(enabled: true), to: user)
            case .failure(.wrongState):
                let alreadyOn = Self.secondFactorAlreadyOn
                return .failed(code: alreadyOn.code, message: alreadyOn.message, status: .conflict)
            case .failure(let refusal):
                return .refused(Self.secondFactorRefusal(refusal, "totp"))
            }
        case .finishEnrolment:
            return .registered(context)
        }
        return .proceeded(context)
    }

    /// The failure of a setup for a user whose two-step sign-in is on already (the engine answers a start of one the
    /// same way).
    static let secondFactorAlreadyOn = (
        code: "second_factor_enabled", message: "Two-step sign-in is on already: turn it off first."
    )

    /// The refusal of a second-factor code, with its detail on collector `key`.
    static func secondFactorRefusal(_ refusal: SecondFactorRefusal, _ key: String) -> FlowRefusal {
        switch refusal {
        case .invalidCode, .wrongState:
            let message = refusal.message
            return FlowRefusal(message: message, details: [.init(key: key, code: "invalid_code", message: message)])
        case .locked(let seconds):
            return FlowRefusal(
                message: AccountError.locked(retryAfter: seconds).errorDescription ?? "Too many attempts.",
                status: .tooManyRequests, retryAfter: seconds)
        }
    }
}
