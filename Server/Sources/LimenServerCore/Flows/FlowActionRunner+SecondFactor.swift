import Foundation
import LimenServerStorage
import LimenWire

extension FlowActionRunner {
    /// The second step `complete` needs first for user `subject`: `nil` when their two-step sign-in is off, when this
    /// interaction answered it, or when they signed in with a passkey (which is two factors in one).
    func secondStep(for subject: String, context: FlowContext) async throws(StorageError) -> SecondStep? {
        guard context.signedInWithPasskey != true, context.secondStep?.answered == nil,
            var methods = try await services.secondFactors.methods(userID: subject)
        else { return nil }
        if try await !services.store.passkeyCredentials(userID: subject).isEmpty {
            methods.insert(.passkey)
        }
        return SecondStep(offering: methods)
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
            if case .failure(let refusal) = checked { return .refused(Self.secondFactorRefusal(refusal, key)) }
            context.secondStep?.answered = action.secondFactorMethod
        case .enableTOTP:
            guard let subject = input.request.signedInSubject, let user = try await services.store.user(id: subject)
            else {
                return Self.userGone
            }
            guard let enrolment = context.totpEnrolment else {
                return .refused(Self.secondFactorRefusal(.invalidCode, "totp"))
            }
            switch try await factors.enable(
                enrolment, for: user, code: Self.text(input.values["totp"]) ?? "", from: input.clientAddress)
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
            let message = "The code is not correct, or was used already."
            return FlowRefusal(message: message, details: [.init(key: key, code: "invalid_code", message: message)])
        case .locked(let seconds):
            return FlowRefusal(
                message: AccountError.locked(retryAfter: seconds).errorDescription ?? "Too many attempts.",
                status: .tooManyRequests, retryAfter: seconds)
        }
    }
}
