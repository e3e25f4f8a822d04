#if canImport(SwiftUI) && canImport(AuthenticationServices)
    import AuthenticationServices
    import Combine
    import Limen
    import LimenApple
    import LimenUI
    import LimenUIModel
    import SwiftUI

    /// The SwiftUI article's Apple-only examples (type-checked against the stand-ins by Scripts/apple-typecheck.sh).
    // snippet: swiftui-sign-in
    struct SignInScreen: View {
        @State private var signIn: SignInModel
        @State private var flow: FlowFormModel?

        init(client: AuthClient) {
            _signIn = State(initialValue: SignInModel(client: client))
        }

        var body: some View {
            VStack(spacing: 12) {
                SignInButton("Sign in with Apple", model: signIn, action: .apple())
                    .onSignIn { user in print("welcome \(user.email ?? "")") }
                    .onError { error in print(error.code) }
                    .onCancel { print("closed") }
                SignInButton("Sign in with the browser", model: signIn, action: .browser())
                Button("Sign in with email") { flow = FlowFormModel(client: signIn.client, flow: "sign-in") }
                if let error = signIn.lastError { Text(error.localizedDescription) }
            }
            .sheet(item: $flow) { form in
                FlowSheet(model: form) { _ in flow = nil }
            }
        }
    }
    // end snippet

    /// Apple's own button, its result fed to Limen.
    // snippet: swiftui-apple-button
    struct AppleButtonScreen: View {
        let signIn: SignInModel
        @State private var nonce = AppleSignInNonce()

        var body: some View {
            SignInWithAppleButton(.signIn) { request in
                request.requestedScopes = [.fullName, .email]
                request.nonce = nonce.sha256
            } onCompletion: { result in
                Task { await signIn.signIn(withApple: result, nonce: nonce) }
            }
        }
    }
    // end snippet

    /// Rownd's customisations.
    @MainActor
    func usingLimenInSwiftUIStyle(client: AuthClient) -> some View {
        // snippet: swiftui-style
        SignInScreen(client: client)
            .limenStyle(
                LimenStyle(
                    sheetBackground: Color.indigo,
                    cornerRadius: 16,
                    accent: Color.orange,
                    titleFont: .title,
                    loadingView: { AnyView(ProgressView()) }))
        // end snippet
    }

    /// Combine, for RxFireAuth users.
    func usingLimenInSwiftUICombine(client: AuthClient, browser: some UserAgent) -> Set<AnyCancellable> {
        var cancellables = Set<AnyCancellable>()
        // snippet: swiftui-combine
        client.eventPublisher()
            .sink { event in print(event) }
            .store(in: &cancellables)
        client.signInPublisher(using: browser)  // starts when subscribed, like RxFireAuth's Single
            .sink(receiveCompletion: { print($0) }, receiveValue: { user in print(user.email ?? "") })
            .store(in: &cancellables)
        // end snippet
        return cancellables
    }
#endif
