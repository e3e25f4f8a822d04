import LimenOIDC

/// One element of a ``ContinueNode``: a field, a button or a text. Collectors are objects, as in PingDavinci: set a
/// field's `value` (or a button's) and call ``ContinueNode/next()``.
///
/// ```swift
/// for collector in node.collectors {
///     switch collector {
///     case let text as TextCollector: text.value = "ada@example.com"
///     case let password as PasswordCollector: password.value = secret
///     default: break
///     }
/// }
/// ```
public protocol Collector: AnyObject, Sendable {
    /// The wire type, e.g. `TEXT`, `PASSWORD_VERIFY` or `FLOW_LINK`.
    var type: String { get }
    /// The key the value (or a button's press) is sent under.
    var key: String { get }
    /// The label to show (a ``LabelCollector``'s text).
    var label: String { get }
}

/// A collector the person fills in: it says whether it needs a value and checks the one it has.
public protocol FieldCollector: Collector {
    /// Whether a value is required.
    var isRequired: Bool { get }
    /// Every problem with the current value, by the rules the server sent and enforces; empty when it would pass.
    func validate() -> [FlowValidationError]
}

/// `TEXT`: one line of text, with an optional regular expression the whole of it must match; and `PHONE`, a phone
/// number (``format`` `e164`: show the phone keyboard, `.telephoneNumber` content, and let the server read the usual
/// ways of writing one).
public final class TextCollector: FieldCollector {
    /// The longest text the server takes, in characters.
    public static let maximumLength = 1024

    public let type: String
    public let key: String
    public let label: String
    public let isRequired: Bool
    /// The regular expression and the message shown when the value does not match.
    public let validation: (regex: String, message: String)?
    /// The form the value takes: `e164` for a `PHONE` (a phone number with `+` and its country code); `nil` for text.
    public let format: String?

    /// Whether the value is a phone number (a `PHONE` collector).
    public var isPhoneNumber: Bool { type == "PHONE" || format == "e164" }
    private let pattern: FlowPattern?
    private let storage: LockedValue<String>

    /// The text entered (the server may fill one in, such as the email address already given).
    public var value: String {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    init(_ document: FlowCollectorDocument) {
        (type, key, label, isRequired) = (document.type, document.key, document.label, document.isRequired)
        (validation, pattern, format) = (document.validation, FlowPattern(document.validation), document.format)
        storage = LockedValue(document.value ?? "")
    }

    public func validate() -> [FlowValidationError] {
        FieldRules.check(value, isRequired: isRequired) {
            if value.count > Self.maximumLength { return [.tooLong(max: Self.maximumLength)] }
            return FieldRules.regex(pattern, value)
        }
    }
}

/// `PASSWORD` and `PASSWORD_VERIFY`: a hidden text; a `PASSWORD` of a step that sets a password carries the
/// policy, and a `PASSWORD_VERIFY` must equal the step's `PASSWORD`.
public final class PasswordCollector: FieldCollector {
    public let type: String
    public let key: String
    public let label: String
    public let isRequired: Bool
    /// The regular expression and the message shown when the value does not match.
    public let validation: (regex: String, message: String)?
    /// The policy the server enforces on this password, when the step sets one.
    public let policy: FlowPasswordPolicy?
    /// For a `PASSWORD_VERIFY`, the password it repeats.
    let verifies: PasswordCollector?
    private let pattern: FlowPattern?
    private let storage = LockedValue("")

    /// Whether this is the repeated password (`PASSWORD_VERIFY`).
    public var isVerification: Bool { type == "PASSWORD_VERIFY" }

    /// The password entered.
    public var value: String {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    init(_ document: FlowCollectorDocument, verifies: PasswordCollector?) {
        (type, key, label, isRequired) = (document.type, document.key, document.label, document.isRequired)
        (validation, policy, self.verifies) = (document.validation, document.policy, verifies)
        pattern = FlowPattern(document.validation)
    }

    /// The password policy (PingDavinci's `passwordPolicy()`).
    public func passwordPolicy() -> FlowPasswordPolicy? { policy }

    public func validate() -> [FlowValidationError] {
        FieldRules.check(value, isRequired: isRequired) {
            if let mismatch = FieldRules.regex(pattern, value).first { return [mismatch] }
            if !isVerification, let policy { return policy.violations(of: value) }
            if isVerification, let verifies, verifies.value != value { return [.passwordMismatch] }
            return []
        }
    }
}

/// `SUBMIT_BUTTON`: sends the step. Set its `value` (any text) to press it, or call ``ContinueNode/next(action:)``.
public typealias SubmitCollector = ButtonCollector<SubmitAction>

/// `FLOW_BUTTON` and `FLOW_LINK`: moves the interaction to another step or flow (show a link or a button, as its
/// `type` suggests). Set its `value` to press it, or call ``ContinueNode/next(action:)``.
public typealias FlowCollector = ButtonCollector<FlowAction>

/// What a button does, telling ``SubmitCollector`` and ``FlowCollector`` apart (`case is SubmitCollector`).
public protocol ButtonAction: Sendable {}

/// A button that submits the step's values.
public enum SubmitAction: ButtonAction {}

/// A button or link that moves the interaction elsewhere without the values.
public enum FlowAction: ButtonAction {}

/// A button or link: ``SubmitCollector`` or ``FlowCollector``.
public final class ButtonCollector<Action: ButtonAction>: Collector {
    public let type: String
    public let key: String
    public let label: String
    /// The flow a ``FlowCollector`` moves to, when the server names it (`passkey`, `sign-up`); `nil` otherwise.
    public let flow: String?
    private let storage = LockedValue("")

    /// Non-empty when pressed.
    public var value: String {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    init(_ document: FlowCollectorDocument) {
        (type, key, label, flow) = (document.type, document.key, document.label, document.flow)
    }
}

/// `LABEL`: text to show; collects nothing. Its ``label`` is the caption; a ``value`` is what the server filled in
/// for this person, such as `totp-enrol`'s `otpauth://` URI, its setup key, or the recovery codes (one per line).
///
/// ```swift
/// for case let label as LabelCollector in step.collectors {
///     print(label.label)
///     if let value = label.value { print(value) }  // e.g. the setup key to type into an authenticator app
/// }
/// ```
public final class LabelCollector: Collector {
    public let type: String
    public let key: String
    public let label: String
    /// What the server filled in to show under the caption (a setup's URI or key, recovery codes one per line);
    /// `nil` for a plain text.
    public let value: String?

    /// The text to show: the caption, then the ``value`` on the next line when there is one.
    public var content: String { [label, value].compactMap { $0 }.joined(separator: "\n") }

    init(_ document: FlowCollectorDocument) {
        (type, key, label, value) = (document.type, document.key, document.label, document.value)
    }
}

/// A choice offered by a select or checkbox collector.
public struct FlowOption: Sendable, Equatable {
    /// What to show.
    public let label: String
    /// What is sent.
    public let value: String
}

/// `DROPDOWN` and `RADIO`: one choice among ``options``.
public final class SingleSelectCollector: FieldCollector {
    public let type: String
    public let key: String
    public let label: String
    public let isRequired: Bool
    /// The choices.
    public let options: [FlowOption]
    private let storage = LockedValue("")

    /// The chosen option's ``FlowOption/value``.
    public var value: String {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    init(_ document: FlowCollectorDocument) {
        (type, key, label, isRequired) = (document.type, document.key, document.label, document.isRequired)
        options = document.options.map { FlowOption(label: $0.label, value: $0.value) }
    }

    public func validate() -> [FlowValidationError] {
        FieldRules.check(value, isRequired: isRequired) {
            options.contains { $0.value == value } ? [] : [.invalidOption]
        }
    }
}

/// `COMBOBOX`, and `CHECKBOX` with options: any number of choices among ``options``.
public final class MultiSelectCollector: FieldCollector {
    public let type: String
    public let key: String
    public let label: String
    public let isRequired: Bool
    /// The choices.
    public let options: [FlowOption]
    private let storage = LockedValue<[String]>([])

    /// The chosen options' values.
    public var value: [String] {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    init(_ document: FlowCollectorDocument) {
        (type, key, label, isRequired) = (document.type, document.key, document.label, document.isRequired)
        options = document.options.map { FlowOption(label: $0.label, value: $0.value) }
    }

    public func validate() -> [FlowValidationError] {
        let chosen = value
        guard !chosen.isEmpty else { return isRequired ? [.required] : [] }
        let known = Set(options.map(\.value))
        return Set(chosen).count == chosen.count && chosen.allSatisfy(known.contains) ? [] : [.invalidOption]
    }
}

/// `CHECKBOX` without options: one box to tick, such as "I accept the terms" (required: it must be ticked).
public final class CheckboxCollector: FieldCollector {
    public let type: String
    public let key: String
    public let label: String
    public let isRequired: Bool
    private let storage = LockedValue(false)

    /// Whether the box is ticked.
    public var value: Bool {
        get { storage.withLock { $0 } }
        set { storage.withLock { $0 = newValue } }
    }

    init(_ document: FlowCollectorDocument) {
        (type, key, label, isRequired) = (document.type, document.key, document.label, document.isRequired)
    }

    public func validate() -> [FlowValidationError] {
        !value && isRequired ? [.required] : []
    }
}

/// A collector of a type this version does not know (from a newer server): shown by its label, sends nothing. A
/// step that requires it cannot be completed here; the server says so in an error node.
public final class UnknownCollector: Collector {
    public let type: String
    public let key: String
    public let label: String
    /// Whether the server requires a value.
    public let isRequired: Bool

    init(_ document: FlowCollectorDocument) {
        (type, key, label, isRequired) = (document.type, document.key, document.label, document.isRequired)
    }
}

/// The checks every text-valued field shares, in the server's order.
enum FieldRules {
    /// `required` for an empty value, else the collector's own `rules`.
    static func check(_ value: String, isRequired: Bool, rules: () -> [FlowValidationError]) -> [FlowValidationError] {
        value.isEmpty ? (isRequired ? [.required] : []) : rules()
    }

    /// `regex` when the whole of `value` does not match the pattern.
    static func regex(_ pattern: FlowPattern?, _ value: String) -> [FlowValidationError] {
        guard let pattern, !pattern.matches(value) else { return [] }
        return [.regex(pattern.source, message: pattern.message)]
    }
}
