import Limen

extension FlowFormModel {
    /// The text of the text, password or single-choice field `key` (bind it: `$form[text: "email"]`). Setting it
    /// drops the server's messages about that field.
    public subscript(text key: String) -> String {
        get {
            if case .text(let text) = entered[key] { return text }
            return ""
        }
        set {
            guard let collector = collector(key) else { return }
            (collector as? TextCollector)?.value = newValue
            (collector as? PasswordCollector)?.value = newValue
            (collector as? SingleSelectCollector)?.value = newValue
            edited(key, .text(newValue))
        }
    }

    /// Whether the checkbox `key` is ticked (bind it: `$form[isOn: "terms"]`).
    public subscript(isOn key: String) -> Bool {
        get {
            if case .flag(let flag) = entered[key] { return flag }
            return false
        }
        set {
            guard let checkbox = collector(key) as? CheckboxCollector else { return }
            checkbox.value = newValue
            edited(key, .flag(newValue))
        }
    }

    /// The chosen options' values of the multiple-choice field `key`.
    public subscript(choices key: String) -> [String] {
        get {
            if case .choices(let choices) = entered[key] { return choices }
            return []
        }
        set {
            guard let field = collector(key) as? MultiSelectCollector else { return }
            field.value = newValue
            edited(key, .choices(newValue))
        }
    }

    /// Whether option `value` of the multiple-choice field `key` is chosen (bind a toggle per option to it).
    public subscript(choice value: String, of key: String) -> Bool {
        get { self[choices: key].contains(value) }
        set {
            let others = self[choices: key].filter { $0 != value }
            self[choices: key] = newValue ? others + [value] : others
        }
    }

    /// The messages to show under field `key`: the server's about the last submission, then (once a submission was
    /// refused on the device) the device's own checks, live; under a `PASSKEY` button, why its ceremony did not answer
    /// (``passkeyError(for:)``).
    public func errors(for key: String) -> [String] {
        let ceremony = passkeyErrors[key].flatMap { FlowError.passkey($0).errorDescription }.map { [$0] } ?? []
        let server = (serverErrors[key] ?? []) + ceremony
        // Reading `entered` makes an observer of these messages depend on the values the checks read from collectors.
        guard showsProblems, entered[key] != nil, let field = collector(key) as? any FieldCollector else {
            return server
        }
        let own = field.validate().map { problem in
            problem == .required ? "\(field.label): \(problem.message)" : problem.message
        }
        return server + own.filter { !server.contains($0) }
    }

    /// The rules of the password policy of field `key`, each with whether the current value meets it, to show as the
    /// person types; empty for a field without a policy.
    public func passwordHints(for key: String) -> [PasswordHint] {
        guard let field = collector(key) as? PasswordCollector, !field.isVerification, let policy = field.policy else {
            return []
        }
        return PasswordHint.hints(for: policy, password: self[text: key])
    }

    /// What VoiceOver reads as the value's state after the label: the messages about field `key`, or the password
    /// rules it does not meet yet; `nil` when there is nothing to say.
    public func accessibilityValue(for key: String) -> String? {
        let unmet = passwordHints(for: key).filter { !$0.isMet }.map(\.text)
        let said = errors(for: key) + (unmet.isEmpty ? [] : ["Still needed: " + unmet.joined(separator: " ")])
        return said.isEmpty ? nil : said.joined(separator: " ")
    }

    /// The collector with key `key` on the step shown.
    private func collector(_ key: String) -> (any Collector)? {
        node?.collectors.first { $0.key == key }
    }

    /// Records an edit of field `key`: its value, and the server's messages about it dropped.
    private func edited(_ key: String, _ value: FlowValue) {
        entered[key] = value
        serverErrors[key] = nil
    }
}

/// A value entered in a form, as ``FlowFormModel`` keeps it for observers.
enum FlowValue: Sendable, Equatable {
    /// Text: a text, password or single-choice field.
    case text(String)
    /// A checkbox.
    case flag(Bool)
    /// A multiple-choice field.
    case choices([String])

    /// Whether nothing was entered.
    var isEmpty: Bool {
        switch self {
        case .text(let text): text.isEmpty
        case .flag(let flag): !flag
        case .choices(let choices): choices.isEmpty
        }
    }

    /// The values `collectors` hold (the server may have filled some in), by key.
    static func values(of collectors: [any Collector]) -> [String: FlowValue] {
        collectors.reduce(into: [:]) { values, collector in
            switch collector {
            case let field as TextCollector: values[field.key] = .text(field.value)
            case let field as PasswordCollector: values[field.key] = .text(field.value)
            case let field as SingleSelectCollector: values[field.key] = .text(field.value)
            case let field as MultiSelectCollector: values[field.key] = .choices(field.value)
            case let field as CheckboxCollector: values[field.key] = .flag(field.value)
            default: break
            }
        }
    }
}
