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

    /// Whether the step offers passkeys as its username field's autofill (the sign-in step's conditional `PASSKEY`,
    /// which with its submit button is not among ``elements``): call ``answerPasskeyAutofill(using:)`` when it is shown.
    public var offersPasskeyAutofill: Bool {
        node.flatMap(Self.conditionalPasskey(of:)) != nil
    }

    /// Starts the step's autofill request through `authenticator` (LimenApple's `PlatformPasskeyAuthenticator` with
    /// `offersAutoFill`, which answers once the person picks a passkey from the keyboard's suggestions), then sends
    /// the step with that credential, without its other fields. A request that ends without a credential (cancelled
    /// because the person signed in another way) changes nothing, and so does one answered after the step changed.
    /// Without such a step, nothing happens.
    ///
    /// ```swift
    /// .task(id: form.title) { if form.offersPasskeyAutofill { await form.answerPasskeyAutofill(using: autofill) } }
    /// ```
    public func answerPasskeyAutofill(using authenticator: some PasskeyAuthenticator) async {
        guard let node, let passkey = Self.conditionalPasskey(of: node) else { return }
        let action = Self.button(sending: passkey, in: node)?.key ?? ""
        do throws(PasskeyError) {
            let credential = try await authenticator.authenticate(passkey.options)
            guard self.node === node, !isLoading else { return }
            passkey.value = credential
        } catch {
            return
        }
        isLoading = true
        defer { isLoading = false }
        show(await node.next(action: action))
    }

    /// The conditional `PASSKEY` of `node`, if it has one.
    static func conditionalPasskey(of node: ContinueNode) -> PasskeyCollector? {
        node.collectors.lazy.compactMap { $0 as? PasskeyCollector }.first {
            $0.isConditional && $0.mode == .authenticate
        }
    }

    /// The keys `node`'s form leaves out of its elements: its conditional `PASSKEY` and the button that sends it.
    static func autofillKeys(of node: ContinueNode) -> Set<String> {
        guard let passkey = conditionalPasskey(of: node) else { return [] }
        return Set([passkey.key, button(sending: passkey, in: node)?.key].compactMap { $0 })
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
    static func button(sending passkey: PasskeyCollector, in node: ContinueNode) -> SubmitCollector? {
        let buttons = node.collectors.compactMap { $0 as? SubmitCollector }
        guard let position = node.collectors.firstIndex(where: { $0 === passkey }) else { return buttons.first }
        let after = node.collectors[position...].lazy.compactMap { $0 as? SubmitCollector }.first
        return after ?? buttons.first
    }
}
