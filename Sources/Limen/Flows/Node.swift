import Foundation
import LimenOIDC

/// Where a flow stands: a step to render, the same step with what was wrong, the end without a session, or the end
/// with one (PingDavinci's `ContinueNode`, `ErrorNode`, `FailureNode`, `SuccessNode`).
///
/// ```swift
/// switch await client.startFlow("sign-in") {
/// case .continue(let step): render(step.collectors)
/// case .error(let error): show(error.message)
/// case .failure(let failure): report(failure.cause)
/// case .success(let success): print("signed in as \(success.user.email ?? "")")
/// }
/// ```
public enum Node: Sendable {
    /// A step to fill in and submit with ``ContinueNode/next()``.
    case `continue`(ContinueNode)
    /// The step again, with a message and per-field details; correct it and call ``ErrorNode/next()``.
    case error(ErrorNode)
    /// The flow is over without a session: ``FailureNode/cause`` says why.
    case failure(FailureNode)
    /// The flow is over and the user is signed in: the code was redeemed and the session stored.
    case success(SuccessNode)
}

/// A step of a flow: its identity and its collectors. Fill the fields, then call ``next()``.
public final class ContinueNode: Sendable {
    /// The node's ID within its flow (stable: use it to tell steps apart).
    public let id: String
    /// The step's title.
    public let name: String
    /// A sentence under the title.
    public let description: String
    /// The fields, buttons and texts, in order.
    public let collectors: [any Collector]
    let interaction: FlowInteraction

    init(_ step: FlowStepDocument, interaction: FlowInteraction) {
        (id, name, description, self.interaction) = (step.id, step.name, step.description, interaction)
        var password: PasswordCollector?
        collectors = step.collectors.map { document -> any Collector in
            switch document.type {
            case "TEXT", "PHONE": return TextCollector(document)
            case "PASSWORD", "PASSWORD_VERIFY":
                let collector = PasswordCollector(document, verifies: password)
                if document.type == "PASSWORD", password == nil { password = collector }
                return collector
            case "SUBMIT_BUTTON": return SubmitCollector(document)
            case "FLOW_BUTTON", "FLOW_LINK": return FlowCollector(document)
            case "LABEL": return LabelCollector(document)
            case "DROPDOWN", "RADIO": return SingleSelectCollector(document)
            case "COMBOBOX": return MultiSelectCollector(document)
            case "CHECKBOX" where !document.options.isEmpty: return MultiSelectCollector(document)
            case "CHECKBOX": return CheckboxCollector(document)
            case "IDP": return IdpCollector(document, step: step, interaction: interaction)
            case "PASSKEY": return PasskeyCollector(document)
            default: return UnknownCollector(document)
            }
        }
        for case let idp as IdpCollector in collectors {
            idp.belongs(to: self)
        }
    }

    /// The fields (collectors with a value).
    public var fields: [any FieldCollector] { collectors.compactMap { $0 as? any FieldCollector } }

    /// The buttons and links, in order: every ``SubmitCollector``, ``FlowCollector`` and ``IdpCollector`` (press
    /// an ``IdpCollector`` with ``IdpCollector/authorize(using:)``, as it needs a web session).
    public var actions: [any Collector] {
        collectors.filter { $0 is SubmitCollector || $0 is FlowCollector || $0 is IdpCollector }
    }

    /// The buttons and links ``next()`` may press: ``actions`` without the ``IdpCollector``s.
    private var buttons: [any Collector] { actions.filter { !($0 is IdpCollector) } }

    /// Every field's problems by key, checked on the device with the server's rules; empty when all would pass.
    public func validate() -> [String: [FlowValidationError]] {
        fields.reduce(into: [:]) { problems, field in
            let found = field.validate()
            if !found.isEmpty { problems[field.key] = found }
        }
    }

    /// Submits the step with the pressed button: the first whose `value` is set, or else the first `SUBMIT_BUTTON`,
    /// or else the first `FLOW_BUTTON` or `FLOW_LINK`. It never presses an ``IdpCollector``.
    public func next() async -> Node {
        let pressed =
            buttons.first {
                ($0 as? SubmitCollector)?.value.isEmpty == false || ($0 as? FlowCollector)?.value.isEmpty == false
            }
            ?? buttons.first { $0 is SubmitCollector } ?? buttons.first
        return await next(action: pressed?.key ?? "")
    }

    /// Submits the step as if the button or link with key `action` were pressed. The key of an ``IdpCollector`` sends
    /// nothing: it needs a web session, so the answer is this step again as an ``ErrorNode`` whose detail, keyed by
    /// the collector, has the code `user_agent_required`; call ``IdpCollector/authorize(using:)`` instead.
    public func next(action: String) async -> Node {
        if let idp = collectors.first(where: { $0.key == action && $0 is IdpCollector }) as? IdpCollector {
            return idp.again(
                code: "user_agent_required",
                message: "\(idp.label) opens a web page, which this screen cannot do. Choose another way.")
        }
        return await interaction.submit(self, action: action)
    }

    /// The values as the server takes them: text, a list of choices, `true`, or a passkey's credential; empty values
    /// are left out.
    var values: [String: JSONValue] {
        collectors.reduce(into: [:]) { values, collector in
            switch collector {
            case let field as TextCollector where !field.value.isEmpty: values[field.key] = .string(field.value)
            case let field as PasswordCollector where !field.value.isEmpty: values[field.key] = .string(field.value)
            case let field as SingleSelectCollector where !field.value.isEmpty: values[field.key] = .string(field.value)
            case let field as MultiSelectCollector where !field.value.isEmpty:
                values[field.key] = .array(field.value.map(JSONValue.string))
            case let field as CheckboxCollector where field.value: values[field.key] = .bool(true)
            case let field as PasskeyCollector: values[field.key] = field.value
            default: break
            }
        }
    }

    /// Copies the values of `earlier` (the same step as submitted) into this one's fields, by key.
    func keepValues(of earlier: ContinueNode) {
        for collector in collectors {
            let previous = earlier.collectors.first { $0.key == collector.key && $0.type == collector.type }
            switch (collector, previous) {
            case (let field as TextCollector, let old as TextCollector): field.value = old.value
            case (let field as PasswordCollector, let old as PasswordCollector): field.value = old.value
            case (let field as SingleSelectCollector, let old as SingleSelectCollector): field.value = old.value
            case (let field as MultiSelectCollector, let old as MultiSelectCollector): field.value = old.value
            case (let field as CheckboxCollector, let old as CheckboxCollector): field.value = old.value
            default: break
            }
        }
    }
}

/// The step again after the server refused a submission: what was wrong, and the step to correct (with the values
/// that were sent). The interaction goes on.
public struct ErrorNode: Sendable {
    /// A sentence for the person, e.g. "The email address or password is wrong."
    public let message: String
    /// What was wrong, by field (an empty key: the submission as a whole).
    public let details: [FlowErrorDetail]
    /// The step to correct and submit again.
    public let node: ContinueNode
    /// Seconds to wait before submitting again, when the server refused because waiting helps (too many wrong codes,
    /// a spent budget of messages: its `retry_after`); `nil` otherwise.
    public let retryAfter: TimeInterval?

    /// The step's ID.
    public var id: String { node.id }
    /// The step's collectors, holding the values that were sent.
    public var collectors: [any Collector] { node.collectors }

    /// Submits the corrected step (see ``ContinueNode/next()``).
    public func next() async -> Node { await node.next() }
}

/// The end of a flow without a session.
public struct FailureNode: Sendable {
    /// Why: the server's code and message, or the network failure, or what failed on this side.
    public let cause: FlowError

    /// The cause's stable code.
    public var code: String { cause.code }
    /// A sentence for the person.
    public var message: String { cause.localizedDescription }
}

/// The end of a flow with a session: the authorization code was redeemed and the tokens stored, exactly as after a
/// browser sign-in.
public struct SuccessNode: Sendable {
    /// The signed-in user.
    public let user: AuthState.User
    /// Whether the flow created the account (the server's `new_user`).
    public let userType: UserType
}
