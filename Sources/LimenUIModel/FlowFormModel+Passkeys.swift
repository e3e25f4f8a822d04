import Limen

extension FlowFormModel {
    /// Why the last press of the `PASSKEY` button `key` got no credential from ``passkeys`` (the person closed the
    /// sheet, the device has no passkey for this server, the platform refused); `nil` before a press, after one that
    /// answered, and once another step is shown. The step stays as it was, to be answered again.
    public func passkeyError(for key: String) -> PasskeyError? {
        passkeyErrors[key]
    }

    /// Runs `passkey`'s ceremony through ``passkeys`` and sends `node` with the credential and the submit button that
    /// sends it (as `AuthClient.signInWithPasskey(using:options:)` and `SecondStep.answerPasskey(using:)` do); the
    /// step's other fields are checked first. Without ``passkeys`` (the button is disabled), or for a ceremony this
    /// version does not know, nothing happens.
    func answer(_ passkey: PasskeyCollector, of node: ContinueNode) async {
        guard let passkeys, passkey.mode != nil, !isLoading else { return }
        let problems = node.validate().filter { $0.key != passkey.key }
        guard problems.isEmpty else {
            showsProblems = true
            focusedKey = focusOrder.first { problems[$0] != nil } ?? focusedKey
            return
        }
        let action = Self.button(sending: passkey, in: node)?.key ?? ""
        passkeyErrors[passkey.key] = nil
        isLoading = true
        defer { isLoading = false }
        do throws(PasskeyError) {
            try await node.answerPasskey(with: passkeys)
        } catch {
            passkeyErrors[passkey.key] = error
            return
        }
        show(await node.next(action: action))
    }

    /// The unanswered `PASSKEY` of `node` that the submit button `key` sends, if it is one that does (see
    /// ``button(sending:in:)``).
    static func unansweredPasskey(sentBy key: String, in node: ContinueNode) -> PasskeyCollector? {
        guard let passkey = node.collectors.lazy.compactMap({ $0 as? PasskeyCollector }).first, passkey.value == nil,
            button(sending: passkey, in: node)?.key == key
        else { return nil }
        return passkey
    }

    /// The submit button that sends `passkey`: the first after it in `node` (the second step's "Use a passkey" after
    /// its codes' buttons), or else the first of `node`.
    private static func button(sending passkey: PasskeyCollector, in node: ContinueNode) -> SubmitCollector? {
        let buttons = node.collectors.compactMap { $0 as? SubmitCollector }
        guard let position = node.collectors.firstIndex(where: { $0 === passkey }) else { return buttons.first }
        let after = node.collectors[position...].lazy.compactMap { $0 as? SubmitCollector }.first
        return after ?? buttons.first
    }
}
