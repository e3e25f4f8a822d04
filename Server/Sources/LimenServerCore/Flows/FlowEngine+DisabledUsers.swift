import LimenServerStorage

extension FlowEngine {
    /// The answer to a completed sign-in of a disabled user: the credential was right, so this tells nothing a guess
    /// could use, and nothing of why.
    static let disabledAnswer = FlowAnswer.failure(
        "access_denied", "This account cannot sign in.", status: .forbidden)

    /// Whether `context`'s subject is disabled (``AdminUserDisablement``): then `interaction` is ended as failed, with
    /// `user.sign_in_failed` (reason `disabled`) from `origin` in the same unit (none without one: a session's
    /// step-up).
    /// The one check of every flow's completion, native or hosted, before its code or session exists.
    func refusesDisabledUser(_ interaction: FlowInteraction, context: FlowContext, origin: RequestOrigin?)
        async throws(StorageError) -> Bool
    {
        guard let subject = context.subject, try await services.store.disabledAt(userID: subject) != nil else {
            return false
        }
        let event = SecurityEvent(
            .userSignInFailed, user: subject, client: interaction.record.clientID,
            details: .signInFailed(reason: .disabled))
        let records = origin.map { services.accounts.events.records([event], from: $0) } ?? []
        try await finish(interaction, status: .failed, context: context, recording: records)
        return true
    }
}
