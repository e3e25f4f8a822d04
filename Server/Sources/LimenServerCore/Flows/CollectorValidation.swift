import Foundation
import LimenServerWire
import LimenWire

/// Checks a submission's values against the node's collectors, as the device does with the same rules: what is
/// required, the regular expression, the options, the password policy and the repeated password.
package struct CollectorValidation {
    /// The longest text a `TEXT` collector takes, in characters.
    package static let maximumTextLength = 1024

    /// The node whose collectors apply.
    package let node: FlowNodeDefinition
    /// The policy a `PASSWORD` must meet, when the node sets a password; `nil` when it only checks one.
    package let policy: PasswordPolicy?

    /// Makes it of its parts.
    package init(node: FlowNodeDefinition, policy: PasswordPolicy?) {
        self.node = node
        self.policy = policy
    }

    /// Every problem with `values` sent by a button running `actions`, by collector; empty when they are accepted.
    /// A passkey picked from the autofill of a node whose `PASSKEY` is conditional answers that collector alone: the
    /// node's other fields (the email and password a page sends as typed) are not checked.
    package func problems(with values: [String: FlowValue], answering actions: [FlowAction]) -> [FlowErrorDetail] {
        guard let passkey = node.passkeyCollector, passkey.isConditional, actions.contains(.checkPasskey) else {
            return problems(with: values)
        }
        return problems(with: values[passkey.key], for: passkey, in: values)
    }

    /// Every problem with `values`, by collector; empty when they are accepted.
    package func problems(with values: [String: FlowValue]) -> [FlowErrorDetail] {
        var details: [FlowErrorDetail] = []
        let collecting = node.collectors.filter(\.type.collectsValue)
        for key in values.keys.sorted() where !collecting.contains(where: { $0.key == key }) {
            details.append(FlowErrorDetail(key: key, code: "unknown_field", message: "This step has no field \(key)."))
        }
        for collector in collecting {
            details += problems(with: values[collector.key], for: collector, in: values)
        }
        return details
    }

    private func problems(
        with value: FlowValue?,
        for collector: CollectorDefinition,
        in values: [String: FlowValue]
    ) -> [FlowErrorDetail] {
        func detail(_ code: String, _ message: String) -> [FlowErrorDetail] {
            [FlowErrorDetail(key: collector.key, code: code, message: message)]
        }
        guard let value, !value.isEmpty else {
            return collector.isRequired ? detail("required", "\(collector.label) is required.") : []
        }
        switch (collector.type, value) {
        case (.text, .text(let text)), (.password, .text(let text)), (.passwordVerify, .text(let text)):
            if collector.type == .text, text.count > Self.maximumTextLength {
                return detail("too_long", "Use at most \(Self.maximumTextLength) characters.")
            }
            if let validation = collector.validation, !Self.matches(text, pattern: validation.regex) {
                return detail("regex", validation.message)
            }
            if collector.type == .password, let policy {
                return policy.violations(of: text).map {
                    FlowErrorDetail(key: collector.key, code: $0.code, message: $0.message)
                }
            }
            if collector.type == .passwordVerify, let password = node.collectors.first(where: { $0.type == .password }),
                values[password.key] != value
            {
                return detail("password_mismatch", "The passwords do not match.")
            }
            return []
        case (.phone, .text(let text)):
            return PhoneNumber(text) == nil
                ? detail(
                    "invalid_phone_number", "Enter the number with + and the country code, like +1 555 123 4567.")
                : []
        case (.dropdown, .text(let choice)), (.radio, .text(let choice)):
            return collector.options.contains { $0.value == choice }
                ? [] : detail("invalid_option", "Choose an option.")
        case (.combobox, .choices(let choices)),
            (.checkbox, .choices(let choices)) where !collector.options.isEmpty:
            let known = Set(collector.options.map(\.value))
            return Set(choices).count == choices.count && choices.allSatisfy(known.contains)
                ? [] : detail("invalid_option", "Choose among the options.")
        case (.checkbox, .flag) where collector.options.isEmpty:
            return []
        case (.passkey, .object), (.passkey, .text):
            // A hosted page posts the credential's JSON as text; what is in it is the ceremony's to check.
            return FlowValue.credential(value) == nil
                ? detail("invalid_credential", "\(collector.label) is not a passkey's answer.") : []
        default:
            return detail("invalid_type", "\(collector.label) has a value of the wrong kind.")
        }
    }

    /// Whether the whole of `text` matches `pattern`.
    package static func matches(_ text: String, pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [.anchored], range: range)?.range == range
    }
}
