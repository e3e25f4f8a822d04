import Foundation
import LimenServerStorage

extension FlowEngine {
    /// `context` ready to show `node` when a button of the node turns two-step sign-in on for the signed-in user: the
    /// secret it offers (the one already offered, if any) and what its `otpauth_uri` and `secret` labels show.
    func preparingSetup(
        _ context: FlowContext, toShow node: FlowNodeDefinition?, request: FlowRequest
    ) async throws(StorageError) -> FlowContext {
        guard node?.setsUpSecondFactor == true, let subject = request.signedInSubject,
            let user = try await services.store.user(id: subject)
        else { return context }
        var context = context
        let factors = services.secondFactors
        guard let enrolment = context.totpEnrolment ?? (try? factors.newEnrolment(for: user)),
            let setup = factors.setup(of: enrolment, for: user)
        else { return context }
        context.totpEnrolment = enrolment
        context.shown = ["otpauth_uri": setup.uri, "secret": setup.secret]
        return context
    }

    /// `context` read back from the store, ready to show `node` again: a setup node's labels show the secret it
    /// offered (never a new one); nothing else is shown again.
    func reshowingSetup(
        _ context: FlowContext, toShow node: FlowNodeDefinition?, request record: FlowInteractionRecord
    ) async throws(StorageError) -> FlowContext {
        guard context.totpEnrolment != nil, node?.setsUpSecondFactor == true else { return context }
        return try await preparingSetup(context, toShow: node, request: try record.decodedRequest())
    }

    /// The failure of a start of `flow` for `signedIn`, when its start node needs the signed-in user (a passkey or
    /// two-step sign-in to set up) and there is none, or sets up two-step sign-in that is on already.
    func setupRefusal(of flow: FlowDefinition, signedIn: AccessTokenClaims?) async throws(StorageError) -> FlowAnswer? {
        guard let start = flow.node(flow.start), start.registersPasskey || start.setsUpSecondFactor else { return nil }
        guard let signedIn else {
            return .failure(
                "invalid_token", "This flow needs the signed-in user's access token (Authorization: Bearer).",
                status: .unauthenticated)
        }
        guard start.setsUpSecondFactor, try await services.secondFactors.methods(userID: signedIn.subject) != nil
        else { return nil }
        let alreadyOn = FlowActionRunner.secondFactorAlreadyOn
        return .failure(alreadyOn.code, alreadyOn.message, status: .conflict)
    }
}

extension FlowNodeDefinition {
    /// Whether a button of the node turns two-step sign-in on (which needs a signed-in user).
    package var setsUpSecondFactor: Bool {
        sets(password: .enableTOTP)
    }
}
