import Foundation

extension FlowClient {
    /// Continues the step an email's link was sent for (see ``AuthClient/handle(url:)``); `nil` when `url` is not an
    /// email link or names an interaction that waits for no code in this client.
    func handle(url: URL) async -> Node? {
        guard let link = EmailLinkFragment(url), let step = await emailCodeSteps.step(interaction: link.interaction),
            let field = step.codeField
        else { return nil }
        field.value = link.code
        return step.validate().isEmpty ? await step.next() : .continue(step)
    }

    /// Starts `flow`, submits `email` on its first step (or `entered` in `field`, the step then remembered under
    /// `email`) and expects the step that asks for the code.
    func requestCode(
        flow: String,
        email: String,
        field: String = "email",
        entered: String? = nil,
        options: SignInOptions = SignInOptions()
    ) async throws(FlowError) {
        let first = try Self.step(of: await start(flow, options: options, carryingSession: true))
        let next = try Self.step(of: await first.fill([field: entered ?? email]).next())
        guard next.codeField != nil else { throw .incomplete(step: next.id) }
        await emailCodeSteps.requested(flow: flow, email: email, interaction: next.interaction.id)
    }

    /// Fills the step waiting for the code of `flow` for `email` with `values` and expects the end of the flow.
    func completeCode(flow: String, email: String, values: [String: String?]) async throws(FlowError)
        -> AuthState.User
    {
        guard let step = await emailCodeSteps.step(flow: flow, email: email) else {
            throw .incomplete(step: "email")
        }
        return try Self.user(of: await step.fill(values).next())
    }
}
