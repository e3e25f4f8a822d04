// Stand-ins for SwiftUI's text-input modifiers on UIKit platforms, shaped as
// https://developer.apple.com/documentation/swiftui gives them. Declarations only: never linked, never run.
import UIKit

extension View {
    /// https://developer.apple.com/documentation/swiftui/view/keyboardtype(_:)
    nonisolated public func keyboardType(_ type: UIKeyboardType) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/textcontenttype(_:)-ufdv
    nonisolated public func textContentType(_ textContentType: UITextContentType?) -> some View { self }
    /// https://developer.apple.com/documentation/swiftui/view/textinputautocapitalization(_:)
    nonisolated public func textInputAutocapitalization(_ autocapitalization: TextInputAutocapitalization?)
        -> some View
    { self }
    /// https://developer.apple.com/documentation/swiftui/view/autocorrectiondisabled(_:)
    nonisolated public func autocorrectionDisabled(_ disable: Bool = true) -> some View { self }
}

/// https://developer.apple.com/documentation/swiftui/textinputautocapitalization
public struct TextInputAutocapitalization: Sendable {
    /// https://developer.apple.com/documentation/swiftui/textinputautocapitalization/never
    public static var never: TextInputAutocapitalization { TextInputAutocapitalization() }
}
