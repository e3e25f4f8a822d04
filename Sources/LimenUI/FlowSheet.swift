#if canImport(SwiftUI) && canImport(AuthenticationServices)
    import AuthenticationServices
    import Limen
    import LimenUIModel
    import SwiftUI

    /// A Limen Server flow rendered natively, step by step (Rownd's `requestSignIn()` sheet, PingDavinci's rendering,
    /// no web view): every collector type, the password policy as live hints, the server's messages by field, identity
    /// providers through the environment's web authentication session, passkeys (`PASSKEY` buttons) through the
    /// model's `PasskeyAuthenticator`, and an email's link opened in the app. Present it in a `.sheet`; what it shows
    /// and does is its ``FlowFormModel``.
    ///
    /// ```swift
    /// let passkeys = PlatformPasskeyAuthenticator { window }  // LimenApple
    /// // …
    /// .sheet(isPresented: $signingIn) {
    ///     FlowSheet(model: FlowFormModel(client: client, flow: "sign-in", passkeys: passkeys)) { user in
    ///         signingIn = false
    ///     }
    /// }
    /// ```
    public struct FlowSheet: View {
        private let model: FlowFormModel
        private let onSignIn: @MainActor (AuthState.User) -> Void
        @FocusState private var focus: String?
        @Environment(\.limenStyle) private var style
        @Environment(\.webAuthenticationSession) private var webSession

        /// A sheet showing `model`'s flow (started when it appears) that calls `onSignIn` once the flow signed in.
        public init(model: FlowFormModel, onSignIn: @escaping @MainActor (AuthState.User) -> Void) {
            self.model = model
            self.onSignIn = onSignIn
            _focus = FocusState()
        }

        public var body: some View {
            ScrollView {
                VStack(alignment: .leading, spacing: 16) {
                    content
                }
                .padding()
            }
            .overlay { if model.isLoading { loading } }
            .background(style.sheetBackground ?? Color.clear)
            .clipShape(RoundedRectangle(cornerRadius: style.cornerRadius))
            .tint(style.accent)
            .task { if model.phase == .idle { await model.start() } }
            .onChange(of: model.focusedKey) { _, key in focus = key }
            .onChange(of: focus) { _, key in model.focusedKey = key }
            .onChange(of: model.phase) { _, phase in
                if case .finished(let user) = phase { onSignIn(user) }
            }
            .onOpenURL { url in Task { await model.handle(url: url) } }
        }

        @ViewBuilder private var content: some View {
            switch model.phase {
            case .idle, .finished:
                EmptyView()
            case .failed(let cause):
                Text(cause.localizedDescription).font(style.bodyFont)
                Button("Start again") { Task { await model.start() } }.disabled(model.isLoading)
            case .step:
                Text(model.title).font(style.titleFont).accessibilityAddTraits(.isHeader)
                if !model.subtitle.isEmpty { Text(model.subtitle).font(style.bodyFont) }
                if let message = model.message {
                    Text(message).font(style.bodyFont).foregroundStyle(Color.red)
                }
                ForEach(model.elements) { element in
                    FlowElementView(model: model, element: element, focus: $focus, press: press)
                }
            }
        }

        @ViewBuilder private var loading: some View {
            if let custom = style.loadingView {
                custom().accessibilityLabel(model.loadingAccessibilityLabel)
            } else {
                ProgressView().accessibilityLabel(model.loadingAccessibilityLabel)
            }
        }

        /// Presses the button or link `key`, giving an identity provider's button the web session.
        private func press(_ key: String) {
            let userAgent = webSessionUserAgent(over: webSession)
            Task { await model.press(key, using: userAgent) }
        }
    }
#endif
