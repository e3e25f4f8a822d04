import Limen

/// One collector of a flow step as a form shows it: what kind of control, its label and what VoiceOver says of it.
/// A ``FlowFormModel`` makes one per collector, in the server's order.
///
/// ```swift
/// for element in model.elements where element.kind == .submit {
///     print(element.label, element.accessibilityLabel)
/// }
/// ```
public struct FlowElement: Sendable, Equatable, Identifiable {
    /// The control a collector becomes.
    public enum Kind: Sendable, Equatable {
        /// `TEXT`: one line; `isEmailAddress` when its key is `email` (an email keyboard, no autocorrection).
        case text(isEmailAddress: Bool)
        /// `PASSWORD` and `PASSWORD_VERIFY`: a secure field; `isNew` when it sets a password (it has a policy, or
        /// repeats one), so the form offers a new password rather than the saved one.
        case password(isNew: Bool)
        /// `DROPDOWN` (`isMenu`) and `RADIO`: one choice.
        case singleChoice([FlowOption], isMenu: Bool)
        /// `COMBOBOX` and `CHECKBOX` with options: any number of choices.
        case multipleChoice([FlowOption])
        /// `CHECKBOX` without options: one toggle.
        case checkbox
        /// `LABEL`: text.
        case label
        /// `SUBMIT_BUTTON`: the step's main button.
        case submit
        /// `FLOW_BUTTON` (`isLink` false) and `FLOW_LINK`: moves elsewhere without the values.
        case flow(isLink: Bool)
        /// `IDP`: signs in with the upstream provider `provider` in a web session.
        case identityProvider(provider: String)
        /// `PASSKEY`: a button that runs the passkey ceremony `mode` through the form's ``PasskeyAuthenticator`` and
        /// sends the step with the credential (``FlowFormModel/press(_:using:)``).
        case passkey(PasskeyCollector.Mode)
        /// A type this version does not know: shown as text, sends nothing.
        case unknown(type: String)
    }

    /// Unique within the step: the collector's key, or its position for a collector without one (a label).
    public let id: String
    /// The key the value (or the press) is sent under.
    public let key: String
    /// The control.
    public let kind: Kind
    /// The label the server sent; for a `LABEL`, its `LabelCollector.content` (the caption, then what the server
    /// filled in: a setup key, recovery codes).
    public let label: String
    /// Whether a value is required.
    public let isRequired: Bool
    /// What VoiceOver reads for the control: the label, and "required" for a required field.
    public let accessibilityLabel: String
    /// What VoiceOver reads after a pause, saying what the control does when that is not plain from its label.
    public let accessibilityHint: String?
    /// Whether the control can be used: `false` for a ``Kind-swift.enum/passkey(_:)`` button, and for a button or link
    /// to the passkey flow ("Sign in with a passkey"), of a form given no ``PasskeyAuthenticator`` (its
    /// ``accessibilityHint`` then says passkeys are not available), `true` otherwise.
    public let isEnabled: Bool

    /// Whether the control takes the keyboard (text and password fields): those are the form's focus order.
    public var isFocusable: Bool {
        switch kind {
        case .text, .password: true
        default: false
        }
    }

    /// Whether the control is a button or link.
    public var isAction: Bool {
        switch kind {
        case .submit, .flow, .identityProvider, .passkey: true
        default: false
        }
    }

    /// What VoiceOver reads for one option of a multiple-choice element: the element's label, then the option's.
    public func accessibilityLabel(for option: FlowOption) -> String {
        "\(label): \(option.label)"
    }

    /// What a text field holds, so that a form offers the right keyboard and autofill.
    public enum TextContent: Sendable, Equatable {
        /// Any text.
        case plain
        /// An email address (key `email`): the email keyboard, the saved account name, no autocorrection.
        case emailAddress
        /// A phone number (a `PHONE` collector): the phone keyboard and the person's own number.
        case phoneNumber
        /// A one-time code (key `code`): the number pad, and the code from a message offered for autofill.
        case oneTimeCode
    }

    /// What the element's text field holds; `nil` when it is not a text field.
    public var textContent: TextContent? {
        guard case .text = kind else { return nil }
        if isPhoneNumber { return .phoneNumber }
        switch key {
        case "email": return .emailAddress
        case "code": return .oneTimeCode
        default: return .plain
        }
    }

    /// Whether the collector is a `PHONE`.
    private let isPhoneNumber: Bool

    /// The element for `collector`, the `index`th of its step, in a form that can (`offersPasskeys`) or cannot run
    /// passkey ceremonies.
    init(_ collector: any Collector, index: Int, offersPasskeys: Bool) {
        key = collector.key
        id = collector.key.isEmpty ? "#\(index)" : collector.key
        label = (collector as? LabelCollector)?.content ?? collector.label
        kind = Self.kind(of: collector)
        isPhoneNumber = (collector as? TextCollector)?.isPhoneNumber ?? false
        isRequired = (collector as? any FieldCollector)?.isRequired ?? false
        accessibilityLabel = isRequired ? "\(collector.label), required" : collector.label
        isEnabled = Self.needsPasskeys(collector) ? offersPasskeys : true
        accessibilityHint = isEnabled ? Self.hint(for: kind) : "Passkeys are not available in this app."
    }

    private static func kind(of collector: any Collector) -> Kind {
        switch collector {
        case let text as TextCollector: .text(isEmailAddress: text.key == "email")
        case let password as PasswordCollector: .password(isNew: password.policy != nil || password.isVerification)
        case let choice as SingleSelectCollector: .singleChoice(choice.options, isMenu: choice.type == "DROPDOWN")
        case let choices as MultiSelectCollector: .multipleChoice(choices.options)
        case is CheckboxCollector: .checkbox
        case is LabelCollector: .label
        case is SubmitCollector: .submit
        case let flow as FlowCollector: .flow(isLink: flow.type == "FLOW_LINK")
        case let idp as IdpCollector: .identityProvider(provider: idp.provider)
        case let passkey as PasskeyCollector: passkey.mode.map(Kind.passkey) ?? .unknown(type: collector.type)
        default: .unknown(type: collector.type)
        }
    }

    /// Whether `collector` does nothing without a passkey authenticator: a `PASSKEY`, or a move to the passkey flow.
    private static func needsPasskeys(_ collector: any Collector) -> Bool {
        switch collector {
        case let passkey as PasskeyCollector: passkey.mode != nil
        case let flow as FlowCollector: flow.flow == "passkey"
        default: false
        }
    }

    private static func hint(for kind: Kind) -> String? {
        switch kind {
        case .password(isNew: true): "Choose a new password; the rules it must meet are listed below."
        case .submit: "Sends this step."
        case .flow: "Goes to another step without sending this one."
        case .identityProvider: "Opens the provider's sign-in page."
        case .passkey(.authenticate): "Uses a passkey saved on this device, a security key or a password manager."
        case .passkey(.register): "Creates a passkey on this device and sends this step."
        case .multipleChoice: "Choose any number of options."
        default: nil
        }
    }
}
