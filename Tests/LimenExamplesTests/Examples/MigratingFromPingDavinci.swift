import Foundation
import Limen

/// The PingDavinci migration article's examples, compiled with the tests.
func migratingFromPingDavinciClient() -> AuthClient {
    // snippet: davinci-create
    // DaVinci.createDaVinci { config in config.module(OidcModule.config) { … } }
    let client = AuthClient(
        configuration: Configuration(
            issuer: URL(string: "https://id.example.com")!,  // discovery: <issuer>/.well-known/openid-configuration
            clientID: "my-app",
            redirectURI: URL(string: "com.example.app:/callback")!,  // registered; the flow's code is bound to it
            scopes: ["profile", "email", "offline_access"]
        )
    )
    // end snippet
    return client
}

/// Starting and walking a flow.
func migratingFromPingDavinciFlow(client: AuthClient, email: String, password: String) async {
    // snippet: davinci-navigate
    var node = await client.startFlow("sign-in")  // daVinci.start()
    while true {
        switch node {
        case .continue(let step):  // ContinueNode
            for collector in step.collectors {
                switch collector {
                case let text as TextCollector where text.key == "email": text.value = email
                case let secret as PasswordCollector: secret.value = password
                default: break
                }
            }
            node = await step.next()  // node.next(): the pressed button, else the first SUBMIT_BUTTON
        case .error(let error):  // ErrorNode: the same step, with what was wrong
            print(error.message, error.details.map(\.message))
            return
        case .failure(let failure):  // FailureNode: failure.cause is a typed FlowError
            print("failed: \(failure.code)")
            return
        case .success(let success):  // SuccessNode: the code was redeemed and the session stored
            print("signed in as \(success.user.email ?? "")")
            return
        }
    }
    // end snippet
}

/// Validating collectors on the device.
func migratingFromPingDavinciValidation(step: ContinueNode) async -> Node? {
    // snippet: davinci-validate
    for field in step.fields {
        for problem in field.validate() {  // [FlowValidationError], the server's rules and codes
            switch problem {
            case .invalidLength(let min, let max): print("\(field.label): \(min)…\(max) characters")
            case .required: print("\(field.label) is required")
            default: print("\(field.label): \(problem.message)")
            }
        }
    }
    guard step.validate().isEmpty else { return nil }
    return await step.next(action: "submit")  // or set a SubmitCollector's value and call next()
    // end snippet
}

/// Pressing an IDP collector: a web session, then the flow goes on.
func migratingFromPingDavinciIdp(step: ContinueNode, userAgent: some UserAgent) async -> Node {
    // snippet: davinci-idp
    for case let idp as IdpCollector in step.collectors {
        print("\(idp.label) (\(idp.provider))")  // "Continue with Glewlwyd (glewlwyd)"
    }
    guard let idp = step.collectors.first(where: { $0 is IdpCollector }) as? IdpCollector else {
        return await step.next()  // next() never presses an IdpCollector
    }
    let node = await idp.authorize(using: userAgent)  // idpCollector.authorize(): the provider's page, then next
    if case .error(let again) = node, again.details.first?.key == idp.key {
        print(again.message)  // refused or cancelled there: the same step, to choose another way
    }
    return node
    // end snippet
}

/// After the flow: what PingDavinci's `user()` offers.
func migratingFromPingDavinciUser(client: AuthClient) async throws {
    // snippet: davinci-user
    if client.state.auth.isAuthenticated {  // let user = await daVinci.user()
        let user = client.user
        let token = try await user.token()  // user.token(): refreshed first when about to expire
        let info = try await user.userinfo(cache: true)  // user.userinfo(cache: true): no request the second time
        print(token, info.email ?? info.subject)
        let signedOut = try await user.logout()  // user.logout(): tokens revoked, local session gone
        if let url = signedOut.endSessionURL { print("open \(url) to end the provider's session too") }
    }
    // end snippet
}

/// The README's native sign-in example.
func readmeNativeSignIn(client: AuthClient, password: String) async throws {
    // snippet: readme-native-sign-in
    do throws(FlowError) {
        try await client.signIn(email: "ada@example.com", password: password)
    } catch .refused(let message, _) {
        print(message)  // the server's answer to a wrong email or password
    }
    // end snippet
}
