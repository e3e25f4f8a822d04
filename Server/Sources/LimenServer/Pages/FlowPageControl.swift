import Foundation
import LimenServerCore
import LimenServerWire
import LimenWire

/// One collector of a node as the flow page's template renders it: exactly one of its members is set, and each
/// control has its label, `required`, and its error bound with `aria-describedby` (with the page's summary,
/// `form-error`, when there is one).
struct FlowPageControl {
    /// `TEXT`, `PASSWORD`, `PASSWORD_VERIFY`.
    var input: Input?
    /// `CHECKBOX` without options.
    var checkbox: Checkbox?
    /// `RADIO`, or `CHECKBOX` with options: a fieldset.
    var group: Group?
    /// `DROPDOWN`, `COMBOBOX` (several choices).
    var select: Select?
    /// `LABEL`.
    var text: String?
    /// `SUBMIT_BUTTON`, `FLOW_BUTTON`, and a `FLOW_LINK` to another node.
    var button: Button?
    /// A `FLOW_LINK` to another flow's page.
    var link: Link?
    /// `PASSKEY`: the hidden field its button fills (``PasskeyScript``).
    var passkey: Passkey?

    /// A text or password field.
    struct Input {
        var id: String
        var label: String
        var type: String
        var optional: Bool
        var required: Bool
        var autocomplete: String?
        var inputMode: String?
        var spellcheckOff: Bool
        var minLength: Int?
        var maxLength: Int?
        var value: String?
        var autofocus: Bool
        var hint: String?
        var field: FieldState
    }

    /// A single box to tick.
    struct Checkbox {
        var id: String
        var label: String
        var required: Bool
        var checked: Bool
        var autofocus: Bool
        var field: FieldState
    }

    /// Radio buttons or check boxes in a fieldset.
    struct Group {
        var id: String
        var legend: String
        var inputType: String
        var required: Bool
        var choices: [Choice]
        var field: FieldState
    }

    /// A menu.
    struct Select {
        var id: String
        var label: String
        var required: Bool
        var multiple: Bool
        var choices: [Choice]
        var autofocus: Bool
        var field: FieldState
    }

    /// One option of a group or menu.
    struct Choice {
        var id: String
        var name: String
        var value: String
        var label: String
        var chosen: Bool
    }

    /// A button posting the form with its key as `action`; a button answering a `PASSKEY` names it (`passkey`), and
    /// the script runs the ceremony first. The button answering a conditional `PASSKEY` is hidden: the script presses
    /// it when a passkey is picked from the username's autofill.
    struct Button {
        var key: String
        var label: String
        var style: String?
        var skipsValidation: Bool
        var passkey: String? = nil
        var hidden = false
    }

    /// A `PASSKEY`'s hidden field: its ceremony's mode and options (WebAuthn's JSON), and the message shown when the
    /// browser's ceremony fails; a `conditional` one is the username's autofill, with no message of its own.
    struct Passkey {
        var id: String
        var mode: String
        var options: String
        var conditional: Bool
    }

    /// A link to a page.
    struct Link {
        var href: String
        var label: String
    }

    /// A field's error and what describes it.
    struct FieldState {
        var errorID: String?
        var fieldError: String?
        var invalid: Bool
        var describedBy: String?
    }

    /// The controls of `node` with `values` filled in and `details` bound to their fields; `link` gives the page of
    /// another flow, or `nil` to leave its link out.
    static func controls(
        of node: FlowNodeDefinition,
        policy: PasswordPolicy?,
        values: [String: FlowValue],
        details: [FlowErrorDetail],
        hasSummary: Bool,
        link: (String) -> String?
    ) -> [FlowPageControl] {
        let focusKey =
            details.first { node.collector($0.key)?.type.collectsValue == true }?.key
            ?? node.collectors.first { $0.type.collectsValue && values[$0.key]?.isEmpty != false }?.key
        let signsIn = node.collectors.contains { $0.type == .password } && policy == nil
        // A node with a conditional `PASSKEY` lets the browser offer passkeys as the username's autofill.
        let passkey = node.passkeyCollector
        let offersPasskeys = passkey?.isConditional == true
        let controls = node.collectors.compactMap { collector -> FlowPageControl? in
            let messages = details.filter { $0.key == collector.key }.map(\.message)
            var hintID: String?
            if collector.type == .password, policy != nil { hintID = "\(collector.key)-hint" }
            let field = FieldState(
                errorID: messages.isEmpty ? nil : "\(collector.key)-error",
                fieldError: messages.isEmpty ? nil : messages.joined(separator: " "),
                invalid: !messages.isEmpty,
                describedBy: [
                    hintID, messages.isEmpty ? nil : "\(collector.key)-error", hasSummary ? "form-error" : nil,
                ]
                .compactMap { $0 }.joined(separator: " ").nilIfEmpty)
            return control(
                collector, policy: policy, value: values[collector.key], field: field,
                autofocus: collector.key == focusKey, signsIn: signsIn, passkey: passkey, link: link)
        }
        guard offersPasskeys else { return controls }
        return controls.map { control in
            var control = control
            if control.input?.autocomplete == "username" { control.input?.autocomplete = "username webauthn" }
            return control
        }
    }

    private static func control(
        _ collector: CollectorDefinition,
        policy: PasswordPolicy?,
        value: FlowValue?,
        field: FieldState,
        autofocus: Bool,
        signsIn: Bool,
        passkey nodePasskey: CollectorDefinition?,
        link: (String) -> String?
    ) -> FlowPageControl? {
        let key = collector.key
        var chosen: Set<String> = []
        switch value {
        case .text(let text)?: chosen = [text]
        case .choices(let choices)?: chosen = Set(choices)
        default: break
        }
        func choices() -> [Choice] {
            collector.options.enumerated().map { index, option in
                Choice(
                    id: "\(key)-\(index)", name: key, value: option.value, label: option.label,
                    chosen: chosen.contains(option.value))
            }
        }
        switch collector.type {
        case .text, .phone, .password, .passwordVerify:
            return FlowPageControl(
                input: input(
                    collector, policy: policy, value: value, field: field,
                    autofocus: autofocus, signsIn: signsIn))
        case .checkbox where collector.options.isEmpty:
            return FlowPageControl(
                checkbox: Checkbox(
                    id: key, label: collector.label, required: collector.isRequired, checked: value == .flag(true),
                    autofocus: autofocus, field: field))
        case .checkbox, .radio:
            return FlowPageControl(
                group: Group(
                    id: key, legend: collector.label, inputType: collector.type == .radio ? "radio" : "checkbox",
                    required: collector.isRequired && collector.type == .radio, choices: choices(), field: field))
        case .dropdown, .combobox:
            return FlowPageControl(
                select: Select(
                    id: key, label: collector.label, required: collector.isRequired,
                    multiple: collector.type == .combobox, choices: choices(), autofocus: autofocus, field: field))
        case .label:
            return FlowPageControl(text: collector.label)
        case .passkey:
            guard case .text(let options)? = value, let mode = collector.passkeyMode else { return nil }
            return FlowPageControl(
                passkey: Passkey(
                    id: key, mode: mode.rawValue, options: options, conditional: collector.isConditional))
        case .submitButton:
            // A button that acts on what the interaction holds ("Send another code") does not need the fields filled;
            // one that checks a passkey needs none filled (the script fills the passkey's).
            var (ignoresFields, passkey) = (false, String?.none)
            if case .run(let actions, _)? = collector.behaviour {
                ignoresFields = actions.allSatisfy(\.ignoresFields)
                if actions.contains(where: \.isPasskeyCeremony) {
                    (ignoresFields, passkey) = (true, nodePasskey?.key)
                }
            }
            return FlowPageControl(
                button: Button(
                    key: key, label: collector.label, style: nil, skipsValidation: ignoresFields, passkey: passkey,
                    hidden: passkey != nil && nodePasskey?.isConditional == true))
        case .flowButton, .flowLink:
            if case .switchFlow(let target)? = collector.behaviour {
                guard let href = link(target) else { return nil }
                if collector.type == .flowLink {
                    return FlowPageControl(link: Link(href: href, label: collector.label))
                }
            }
            return FlowPageControl(
                button: Button(
                    key: key, label: collector.label, style: collector.type == .flowLink ? "link" : "secondary",
                    skipsValidation: true))
        case .idp:
            // Outside the form: a "Continue with …" form of its own (``FlowPageRenderer``).
            return nil
        }
    }

    private static func input(
        _ collector: CollectorDefinition,
        policy: PasswordPolicy?,
        value: FlowValue?,
        field: FieldState,
        autofocus: Bool,
        signsIn: Bool
    ) -> FlowPageControl.Input {
        let key = collector.key
        var input = Input(
            id: key, label: collector.label, type: "text", optional: !collector.isRequired,
            required: collector.isRequired, autocomplete: nil, inputMode: nil, spellcheckOff: false, minLength: nil,
            maxLength: nil, value: nil, autofocus: autofocus, hint: nil, field: field)
        switch collector.type {
        case .password:
            input.type = "password"
            input.autocomplete = signsIn ? "current-password" : "new-password"
            if let policy {
                (input.minLength, input.maxLength) = (policy.length.lowerBound, policy.length.upperBound)
                input.hint = policy.sentence
            }
        case .passwordVerify:
            (input.type, input.autocomplete) = ("password", "new-password")
        case .phone:
            if case .text(let text)? = value, !text.isEmpty { input.value = text }
            (input.type, input.autocomplete, input.maxLength) = ("tel", "tel", PhoneNumber.maximumInputLength)
        default:
            if case .text(let text)? = value, !text.isEmpty { input.value = text }
            input.maxLength = CollectorValidation.maximumTextLength
            switch key {
            case "email":
                (input.type, input.autocomplete, input.spellcheckOff) = ("email", "username", true)
            case "code":
                (input.autocomplete, input.inputMode, input.spellcheckOff) = ("one-time-code", "numeric", true)
            case "name":
                input.autocomplete = "name"
            default:
                break
            }
        }
        return input
    }
}

extension PasswordPolicy {
    /// The policy as a hint under a new password: `At least 8 characters.` and any further rule.
    var sentence: String {
        var rules = ["At least \(length.lowerBound) characters."]
        if minimumUniqueCharacters > 0 { rules.append("At least \(minimumUniqueCharacters) different characters.") }
        if maximumRepeatedCharacters > 0 {
            rules.append("No character more than \(maximumRepeatedCharacters) times in a row.")
        }
        let classes = [
            (minimumCharacters.lowercase, "lowercase letter"), (minimumCharacters.uppercase, "uppercase letter"),
            (minimumCharacters.digits, "digit"), (minimumCharacters.special, "other character"),
        ].filter { $0.0 > 0 }
        if !classes.isEmpty {
            rules.append(
                "At least " + classes.map { "\($0.0) \($0.1)\($0.0 == 1 ? "" : "s")" }.joined(separator: ", ") + ".")
        }
        return rules.joined(separator: " ")
    }
}

extension String {
    /// `nil` for the empty string.
    fileprivate var nilIfEmpty: String? { isEmpty ? nil : self }
}
