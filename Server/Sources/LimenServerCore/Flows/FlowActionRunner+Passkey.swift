import Foundation
import LimenServerStorage
import LimenWire

extension FlowActionRunner {
    /// The passkey actions: a sign-in checks the assertion against the node's ceremony and identifies the
    /// credential's user; a registration stores the new passkey for the signed-in user and ends the interaction.
    func runPasskeyAction(
        _ action: FlowActionFamily.Passkey,
        _ input: ActionInput,
        context: FlowContext
    ) async throws(StorageError) -> FlowActionOutcome {
        var context = context
        guard let challenge = context.passkey else {
            return .refused(Self.passkeyRefusal(.challengeExpired, "passkey"))
        }
        guard let response = FlowValue.credential(input.values[challenge.collector]) else {
            return .refused(Self.passkeyRefusal(.invalidCredential, challenge.collector))
        }
        // Whatever the outcome, this ceremony's challenge is spent: the node is shown again with a new one.
        context.passkey = nil
        switch action {
        case .registerPasskey:
            guard let subject = input.request.signedInSubject, let user = try await services.store.user(id: subject)
            else {
                return Self.userGone
            }
            let name =
                Self.text(input.values["name"]).map { String($0.prefix(PasskeyCeremonies.maximumNameLength)) }
                ?? "Passkey"
            switch try await services.passkeys.register(
                response, challenge: challenge, user: user, name: name, origin: input.origin)
            {
            case .success: return .registered(context)
            case .failure(let refusal): return .refused(Self.passkeyRefusal(refusal, challenge.collector))
            }
        case .checkPasskey:
            // A second step accepts only the passkeys of the user its first step identified.
            let secondStepUser = context.secondStep == nil ? nil : context.subject
            var allowed: Set<Data>?
            if let subject = secondStepUser {
                allowed = Set(try await services.store.passkeyCredentials(userID: subject).map(\.credentialID))
            }
            switch try await services.passkeys.authenticate(response, challenge: challenge, allowed: allowed) {
            case .success(let credential) where secondStepUser != nil:
                guard credential.userID == secondStepUser else {
                    try await recordFailure(.passkeyFailed, user: secondStepUser, input)
                    return .refused(Self.passkeyRefusal(.unknownCredential, challenge.collector))
                }
                context.secondStep?.answered = .passkey
                return .proceeded(context.alsoAuthenticated(by: credential.methods))
            case .success(let credential):
                guard let user = try await services.store.user(id: credential.userID) else {
                    try await recordFailure(.passkeyFailed, user: nil, input)
                    return .refused(Self.passkeyRefusal(.unknownCredential, challenge.collector))
                }
                switch try await linking.identified(user, request: input.request, context: context) {
                case .success(let identified):
                    return .proceeded(identified.authenticated(by: credential.methods, as: .passkey))
                case .failure(let refusal): return .refused(refusal)
                }
            case .failure(let refusal):
                try await recordFailure(.passkeyFailed, user: secondStepUser, input)
                return .refused(Self.passkeyRefusal(refusal, challenge.collector))
            }
        }
    }

    /// The refusal of a passkey answer, with its detail on collector `key`.
    static func passkeyRefusal(_ refusal: PasskeyRefusal, _ key: String) -> FlowRefusal {
        FlowRefusal(
            message: refusal.message, details: [.init(key: key, code: refusal.rawValue, message: refusal.message)])
    }
}
