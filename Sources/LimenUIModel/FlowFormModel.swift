import Foundation
import Limen
import Observation

/// A Limen Server flow as a form: the current step's elements and values, what is wrong with them, the focus order,
/// and the state of the request in flight — everything LimenUI's flow sheet shows, and nothing it draws. Rownd's
/// `requestSignIn()` sheet and PingDavinci's rendering, without a web view.
///
/// ```swift
/// let form = FlowFormModel(client: client, flow: "sign-in")
/// await form.start()
/// form[text: "email"] = "ada@example.com"
/// form[text: "password"] = password
/// await form.submit()
/// if case .finished(let user) = form.phase { print("signed in as \(user.email ?? "")") }
/// ```
@MainActor
@Observable
public final class FlowFormModel {
    /// Where the form stands.
    public enum Phase: Sendable, Equatable {
        /// Not started: call ``FlowFormModel/start()``.
        case idle
        /// A step to fill in: ``FlowFormModel/elements``.
        case step
        /// The flow signed the user in (the session is stored).
        case finished(AuthState.User)
        /// The flow ended without a session; ``FlowFormModel/start()`` begins again.
        case failed(FlowError)
    }

    /// The client the flow signs in.
    public let client: AuthClient
    /// The flow's name (`sign-in`, `sign-up`, or one the operator defined).
    public let flow: String
    /// The hints and scopes the flow starts with.
    public let options: SignInOptions
    /// What answers the flow's `PASSKEY` steps (LimenApple's `PlatformPasskeyAuthenticator` on Apple platforms); `nil`:
    /// their buttons are disabled (``FlowElement/isEnabled``).
    public let passkeys: (any PasskeyAuthenticator)?

    /// Where the form stands.
    public private(set) var phase: Phase = .idle
    /// Whether a request is in flight: show the loading view, and nothing is sent twice meanwhile.
    public internal(set) var isLoading = false
    /// The step's title.
    public private(set) var title = ""
    /// The sentence under the title.
    public private(set) var subtitle = ""
    /// The step's collectors, in order.
    public private(set) var elements: [FlowElement] = []
    /// The server's message about the last submission, with its details that name no field; `nil` when there is none.
    public private(set) var message: String?
    /// The field that has (or should get) the keyboard, by key.
    public var focusedKey: String?

    /// The step on screen, whose collectors hold the values.
    @ObservationIgnored private(set) var node: ContinueNode?
    /// The values entered, by key: what observers of the form's values depend on (the collectors hold the same).
    var entered: [String: FlowValue] = [:]
    /// The server's per-field messages from the last error node, by key; a field's are dropped when it is edited.
    var serverErrors: [String: [String]] = [:]
    /// Whether the device's own checks are shown: after a submission they refused, and from then on live.
    var showsProblems = false
    /// Why the last press of a `PASSKEY` button got no credential, by its key; dropped when a step is shown.
    var passkeyErrors: [String: PasskeyError] = [:]

    /// A form for `flow` of `client`, not yet started, whose `PASSKEY` steps `passkeys` answers (none by default).
    public init(
        client: AuthClient,
        flow: String = "sign-in",
        options: SignInOptions = SignInOptions(),
        passkeys: (any PasskeyAuthenticator)? = nil
    ) {
        (self.client, self.flow, self.options, self.passkeys) = (client, flow, options, passkeys)
    }

    /// The keys of the fields that take the keyboard, in order.
    public var focusOrder: [String] { elements.filter(\.isFocusable).map(\.key) }

    /// What VoiceOver reads while a request is in flight.
    public var loadingAccessibilityLabel: String { phase == .idle ? "Loading" : "Sending, please wait" }

    /// Starts (or starts again) the flow and shows its first step.
    public func start() async {
        await run { [client, flow, options] in await client.startFlow(flow, options: options) }
    }

    /// Checks the fields with the server's rules and, when they pass, sends the step with its main button; otherwise
    /// shows what is wrong and moves the focus to the first field at fault. A main button that sends the step's
    /// `PASSKEY` runs its ceremony first, as pressing the `PASSKEY` does.
    public func submit() async {
        guard let node, !isLoading else { return }
        if let main = node.collectors.first(where: { $0 is SubmitCollector }),
            let passkey = Self.unansweredPasskey(sentBy: main.key, in: node)
        {
            return await answer(passkey, of: node)
        }
        let problems = node.validate()
        guard problems.isEmpty else {
            showsProblems = true
            focusedKey = focusOrder.first { problems[$0] != nil } ?? focusedKey
            return
        }
        await run { await node.next() }
    }

    /// Presses the button or link with key `key`: a submit button as ``submit()`` does (its checks included), a flow
    /// button or link without the values, an identity provider's button through `userAgent` (the web session; without
    /// one the step comes back saying it needs one), a `PASSKEY` button through ``passkeys`` (the ceremony, then the
    /// step sent with the credential and its submit button; a ceremony that did not answer is
    /// ``passkeyError(for:)``).
    public func press(_ key: String, using userAgent: (any UserAgent)? = nil) async {
        guard let node, !isLoading, let collector = node.collectors.first(where: { $0.key == key }) else { return }
        switch collector {
        case let passkey as PasskeyCollector:
            await answer(passkey, of: node)
        case is SubmitCollector:
            // The button that sends the passkey (the step's own, or the second step's "use a passkey") runs it first.
            if let passkey = Self.unansweredPasskey(sentBy: key, in: node) { return await answer(passkey, of: node) }
            let problems = node.validate()
            guard problems.isEmpty else { return await submit() }
            await run { await node.next(action: key) }
        case let idp as IdpCollector:
            guard let userAgent else { return await run { await node.next(action: key) } }
            await run { await idp.authorize(using: userAgent) }
        default:
            // A link to the passkey flow is disabled without ``passkeys``, and sends nothing.
            guard elements.first(where: { $0.key == key })?.isEnabled != false else { return }
            await run { await node.next(action: key) }
        }
    }

    /// Continues the step an email's link was sent for, when the app opens the link (see
    /// `AuthClient.handle(url:)`).
    /// - Returns: Whether `url` was such a link for this client; the form then shows where it led.
    @discardableResult
    public func handle(url: URL) async -> Bool {
        guard !isLoading else { return false }
        isLoading = true
        defer { isLoading = false }
        guard let next = await client.handle(url: url) else { return false }
        show(next)
        return true
    }

    /// The key of the field after `key` in the focus order, or `nil` after the last (then send the step).
    public func focusAfter(_ key: String) -> String? {
        let order = focusOrder
        guard let index = order.firstIndex(of: key), index + 1 < order.count else { return nil }
        return order[index + 1]
    }

    /// Moves the focus to the next field, or sends the step from the last one (a keyboard's return key).
    public func advance() async {
        if let key = focusedKey, let next = focusAfter(key) {
            focusedKey = next
        } else {
            await submit()
        }
    }

    /// Runs one request with the loading state on and shows the node it answers.
    private func run(_ request: @Sendable () async -> Node) async {
        guard !isLoading else { return }
        isLoading = true
        defer { isLoading = false }
        show(await request())
    }

    /// Shows `next`: a step with its values, the same step with the server's messages, or the end.
    func show(_ next: Node) {
        switch next {
        case .continue(let step):
            load(step, errors: [], message: nil)
        case .error(let error):
            load(error.node, errors: error.details, message: error.message)
        case .failure(let failure):
            node = nil
            (elements, entered, message) = ([], [:], nil)
            phase = .failed(failure.cause)
        case .success(let success):
            node = nil
            (elements, entered, message) = ([], [:], nil)
            phase = .finished(success.user)
        }
    }

    /// Shows `step` with the server's `details` by field and its `message` (with the details that name no field).
    private func load(_ step: ContinueNode, errors details: [FlowErrorDetail], message text: String?) {
        node = step
        (title, subtitle) = (step.name, step.description)
        let autofill = Self.autofillKeys(of: step)
        elements = step.collectors.enumerated().filter { !autofill.contains($0.element.key) }
            .map { FlowElement($0.element, index: $0.offset, offersPasskeys: passkeys != nil) }
        passkeyErrors = [:]
        entered = FlowValue.values(of: step.collectors)
        let keys = Set(elements.map(\.key))
        let fieldDetails = details.filter { !$0.key.isEmpty && keys.contains($0.key) && !$0.message.isEmpty }
        serverErrors = Dictionary(grouping: fieldDetails, by: \.key).mapValues { $0.map(\.message) }
        let general = [text ?? ""] + details.filter { $0.key.isEmpty || !keys.contains($0.key) }.map(\.message)
        let sentence = general.filter { !$0.isEmpty }.joined(separator: " ")
        message = sentence.isEmpty ? nil : sentence
        showsProblems = false
        phase = .step
        let order = focusOrder
        focusedKey = order.first { serverErrors[$0] != nil } ?? order.first { entered[$0]?.isEmpty ?? true }
    }
}

/// Identified by the object, so a form can drive `.sheet(item:)`.
extension FlowFormModel: Identifiable {}
