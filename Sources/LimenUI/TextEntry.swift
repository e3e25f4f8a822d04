#if canImport(SwiftUI)
    import LimenUIModel
    import SwiftUI
    #if canImport(UIKit)
        import UIKit
    #endif

    extension View {
        /// The keyboard and autofill for a text field holding `content` (on platforms with UIKit's text input): the
        /// phone pad and the person's number for a phone number, the number pad and the code from a message (iOS reads
        /// the SMS's `@host #code` line) for a one-time code, the email keyboard for an address.
        @ViewBuilder func textEntry(_ content: FlowElement.TextContent?) -> some View {
            #if canImport(UIKit) && !os(watchOS)
                switch content {
                case .phoneNumber?: keyboardType(.phonePad).textContentType(.telephoneNumber)
                case .oneTimeCode?: keyboardType(.numberPad).textContentType(.oneTimeCode)
                case .emailAddress?:
                    keyboardType(.emailAddress).textContentType(.username).textInputAutocapitalization(.never)
                        .autocorrectionDisabled()
                case .plain?, nil: self
                }
            #else
                self
            #endif
        }
    }
#endif
