import LimenServerStorage

extension FlowActionRunner {
    /// Records `user.sign_in_failed` with `reason` for `user` (`nil` when the attempt names nobody known) from the
    /// submission's origin: a refused attempt changes nothing else, so its event is written alone. Never the code,
    /// number or passkey answer that was sent.
    func recordFailure(_ reason: SignInFailureReason, user: String?, _ input: ActionInput) async throws(StorageError) {
        let event = SecurityEvent(
            .userSignInFailed, user: user, client: input.clientID, details: .signInFailed(reason: reason))
        try await services.store.insertSecurityEvents(services.accounts.events.records([event], from: input.origin))
    }
}
