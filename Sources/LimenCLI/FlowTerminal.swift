import Foundation
import Limen

/// Renders any flow's nodes in the terminal — texts with what the server filled in (a setup key, recovery codes),
/// prompts, hidden passwords, numbered choices, the device's validation messages before anything is sent — and walks
/// it to its end. It knows no flow by name, so an operator's own flows
/// work unseen.
struct FlowTerminal {
    /// Where the answers come from.
    let input: TerminalInput

    /// Walks the flow from `node` to its end; returns the success, throws the failure.
    func run(from node: Node) async throws -> SuccessNode {
        var node = node
        while true {
            switch node {
            case .continue(let step):
                node = try await submit(step)
            case .error(let error):
                StandardError.writeLine("! \(error.message)")
                for detail in error.details where !detail.message.isEmpty {
                    StandardError.writeLine("  \(detail.key.isEmpty ? "" : "\(detail.key): ")\(detail.message)")
                }
                node = try await submit(error.node)
            case .failure(let failure):
                throw CLIFailure(code: failure.code, message: failure.message)
            case .success(let success):
                return success
            }
        }
    }

    /// Shows `step`, fills its fields, asks which button to press when there is a choice, and sends. The fields come
    /// first, so that a person types what the step asks before choosing what to do with it; a field left empty or
    /// refused is asked again only when the button chosen submits them (another button, such as one that sends a new
    /// code, sends none). An `IDP` button is shown but not offered: it needs a web page, which the terminal cannot open.
    private func submit(_ step: ContinueNode) async throws -> Node {
        StandardError.writeLine("== \(step.name)")
        if !step.description.isEmpty { StandardError.writeLine(step.description) }
        for case let idp as IdpCollector in step.collectors {
            StandardError.writeLine(
                "(\(idp.label): a web page `limen flow` cannot open; use `limen login --identity-provider \(idp.provider)`)"
            )
        }
        let actions = step.actions.filter { !($0 is IdpCollector) }
        if actions.count == 1, let only = actions.first, only is FlowCollector {
            return await step.next(action: only.key)
        }
        let choosing = actions.count > 1
        for collector in step.collectors {
            try fill(collector, insisting: !choosing)
        }
        let action = try choose(among: actions)
        if action is FlowCollector { return await step.next(action: action?.key ?? "") }
        if choosing {
            for case let field as any FieldCollector in step.collectors {
                let problems = field.validate()
                guard !problems.isEmpty else { continue }
                show(problems, of: field)
                try fill(field, insisting: true)
            }
        }
        return await step.next(action: action?.key ?? "")
    }

    /// The button to press: the only one, or one chosen by number (Enter: the first).
    private func choose(among actions: [any Collector]) throws -> (any Collector)? {
        guard actions.count > 1 else { return actions.first }
        for (index, action) in actions.enumerated() {
            StandardError.writeLine("  \(index + 1)) \(action.label)")
        }
        while true {
            let answer = try read("Choose [1]: ")
            if answer.isEmpty { return actions.first }
            if let number = Int(answer), actions.indices.contains(number - 1) { return actions[number - 1] }
            StandardError.writeLine("  ! Enter a number between 1 and \(actions.count).")
        }
    }

    /// Asks for one collector's value: until the device's checks accept it when `insisting`, else once (an empty
    /// answer is kept, and checked only if the step is submitted).
    private func fill(_ collector: any Collector, insisting: Bool) throws {
        switch collector {
        case let label as LabelCollector:
            StandardError.writeLine(label.label)
            for line in label.value?.split(separator: "\n") ?? [] { StandardError.writeLine("  \(line)") }
        case let text as TextCollector:
            try ask(text, insisting: insisting) { field in
                let answer = try read("\(field.label)\(field.value.isEmpty ? "" : " [\(field.value)]"): ")
                if !answer.isEmpty || field.value.isEmpty { field.value = answer }
            }
        case let password as PasswordCollector:
            try ask(password, insisting: insisting) { field in field.value = try read("\(field.label): ", hidden: true)
            }
        case let select as SingleSelectCollector:
            try ask(select, insisting: insisting) { field in
                field.value = try pick(field.label, options: field.options, many: false).first ?? ""
            }
        case let select as MultiSelectCollector:
            try ask(select, insisting: insisting) { field in
                field.value = try pick(field.label, options: field.options, many: true)
            }
        case let checkbox as CheckboxCollector:
            try ask(checkbox, insisting: insisting) { field in
                field.value = ["y", "yes"].contains(try read("\(field.label) [y/N]: ").lowercased())
            }
        case let passkey as PasskeyCollector:
            StandardError.writeLine(
                "(\(passkey.label): a passkey, which `limen` in a terminal cannot use: choose another way to sign in)")
        case let unknown as UnknownCollector:
            StandardError.writeLine("(\(unknown.label): a \(unknown.type) field this version of limen cannot show)")
        default:
            break
        }
    }

    /// Runs `prompt`, then, when `insisting`, again until `field.validate()` is empty, showing each problem.
    private func ask<Field: FieldCollector>(_ field: Field, insisting: Bool, prompt: (Field) throws -> Void) throws {
        while true {
            try prompt(field)
            let problems = field.validate()
            if problems.isEmpty || !insisting { return }
            show(problems, of: field)
        }
    }

    /// Shows each of `field`'s problems.
    private func show(_ problems: [FlowValidationError], of field: any FieldCollector) {
        for problem in problems {
            StandardError.writeLine("  ! \(problem == .required ? "\(field.label) is required." : problem.message)")
        }
    }

    /// Lists `options` by number and reads one number, or several separated by commas when `many`.
    private func pick(_ label: String, options: [FlowOption], many: Bool) throws -> [String] {
        StandardError.writeLine("\(label):")
        for (index, option) in options.enumerated() {
            StandardError.writeLine("  \(index + 1)) \(option.label)")
        }
        let answer = try read(many ? "Choose (numbers separated by commas): " : "Choose: ")
        return answer.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
            .map { Int($0).flatMap { options.indices.contains($0 - 1) ? options[$0 - 1].value : nil } ?? "\($0)" }
    }

    /// One answer; the end of the input ends the flow.
    private func read(_ prompt: String, hidden: Bool = false) throws -> String {
        guard let line = hidden ? input.hiddenLine(prompt) : input.line(prompt) else {
            throw CLIFailure(code: "cli.input_ended", message: "the input ended before the flow did")
        }
        return line
    }
}
