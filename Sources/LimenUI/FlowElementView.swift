#if canImport(SwiftUI)
    import Limen
    import LimenUIModel
    import SwiftUI

    /// One collector of a flow step as a control, with its messages and (for a new password) its live rules; every
    /// word it shows or speaks comes from the ``FlowFormModel``.
    struct FlowElementView: View {
        /// The form the element belongs to: its values, messages and words.
        let model: FlowFormModel
        /// The collector to show.
        let element: FlowElement
        /// The sheet's focus, by field key.
        let focus: FocusState<String?>.Binding
        /// Presses the button or link with this key (through the web session for an identity provider's).
        let press: @MainActor (String) -> Void
        @Environment(\.limenStyle) private var style

        var body: some View {
            VStack(alignment: .leading, spacing: 4) {
                control
                ForEach(model.errors(for: element.key), id: \.self) { message in
                    Text(message).font(.footnote).foregroundStyle(Color.red)
                }
                ForEach(model.passwordHints(for: element.key)) { hint in
                    Text((hint.isMet ? "✓ " : "• ") + hint.text).font(.footnote)
                        .foregroundStyle(hint.isMet ? Color.green : Color.secondary)
                }
            }
            .font(style.bodyFont)
        }

        @ViewBuilder private var control: some View {
            switch element.kind {
            case .text:
                TextField(element.label, text: text).textEntry(element.textContent).focused(focus, equals: element.key)
                    .onSubmit { advance() }.labelled(element, value: model.accessibilityValue(for: element.key))
            case .password:
                SecureField(element.label, text: text).focused(focus, equals: element.key)
                    .onSubmit { advance() }.labelled(element, value: model.accessibilityValue(for: element.key))
            case .singleChoice(let options, _):
                Picker(element.label, selection: text) {
                    ForEach(options, id: \.value) { option in Text(option.label).tag(option.value) }
                }
                .labelled(element, value: model.accessibilityValue(for: element.key))
            case .multipleChoice(let options):
                Text(element.label)
                ForEach(options, id: \.value) { option in
                    Toggle(option.label, isOn: choice(option.value))
                        .accessibilityLabel(element.accessibilityLabel(for: option))
                }
            case .checkbox:
                Toggle(element.label, isOn: isOn).labelled(element, value: model.accessibilityValue(for: element.key))
            case .label, .unknown:
                Text(element.label)
            case .submit, .flow, .identityProvider:
                Button(element.label) { press(element.key) }.disabled(model.isLoading).labelled(element, value: nil)
            case .passkey:
                Button(element.label) { press(element.key) }.disabled(model.isLoading || !element.isEnabled)
                    .labelled(element, value: model.accessibilityValue(for: element.key))
            }
        }

        /// Moves the keyboard to the next field, or sends the step from the last one.
        private func advance() {
            Task { await model.advance() }
        }

        private var text: Binding<String> {
            let (model, key) = (model, element.key)
            return Binding(get: { @MainActor in model[text: key] }, set: { @MainActor in model[text: key] = $0 })
        }

        private var isOn: Binding<Bool> {
            let (model, key) = (model, element.key)
            return Binding(get: { @MainActor in model[isOn: key] }, set: { @MainActor in model[isOn: key] = $0 })
        }

        private func choice(_ value: String) -> Binding<Bool> {
            let (model, key) = (model, element.key)
            return Binding(
                get: { @MainActor in model[choice: value, of: key] },
                set: { @MainActor in model[choice: value, of: key] = $0 })
        }
    }

    extension View {
        /// What VoiceOver says of `element`'s control: its label, its hint, and `value`.
        fileprivate func labelled(_ element: FlowElement, value: String?) -> some View {
            accessibilityLabel(element.accessibilityLabel).accessibilityHint(element.accessibilityHint ?? "")
                .accessibilityValue(value ?? "")
        }
    }
#endif
