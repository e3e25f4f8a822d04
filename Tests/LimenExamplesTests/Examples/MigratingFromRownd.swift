import Foundation
import Limen

/// The Rownd migration article's examples, compiled with the tests.
func migratingFromRowndConfigure() {
    // snippet: rownd-configure
    // Rownd.configure(launchOptions: launchOptions, appKey: "YOUR_API_KEY")
    Limen.configure(
        Configuration(
            issuer: URL(string: "https://id.example.com")!,  // your Limen Server
            clientID: "ios-app",
            redirectURI: URL(string: "com.example.app:/callback")!,
            scopes: ["profile", "email", "offline_access"]  // profile: the user's data at /v1/me/data
        )
    )
    // end snippet
}

/// Subscribing to projections of the state.
func migratingFromRowndSubscribe(client: AuthClient) {
    // snippet: rownd-subscribe
    // Rownd.getInstance().state().subscribe { $0.auth } and { $0.user.data }
    Task {
        for await auth in client.subscribe({ $0.auth }) {
            print(auth.isAuthenticated ? "signed in" : "signed out")
        }
    }
    Task {
        for await data in client.subscribe({ $0.user.data }) {
            print("nickname:", data["nickname"]?.stringValue ?? "none")
        }
    }
    // end snippet
}

/// Signing in and reading a token.
func migratingFromRowndSignIn(
    userAgent: some UserAgent, email: String, password: String, phone: String, typedCode: @Sendable () async -> String
) async throws {
    // snippet: rownd-sign-in
    // Rownd.requestSignIn(): the provider's hosted page in a web authentication session
    try await Limen.requestSignIn(using: userAgent)
    // or natively, through Limen Server's sign-in flow (see "Migrating from PingDavinci")
    try await Limen.shared?.signIn(email: email, password: password)
    // or by phone (Rownd's method "phone"): a code by SMS, then the code the person typed
    try await Limen.shared?.requestPhoneCode(phone: phone)
    try await Limen.shared?.signIn(phone: phone, code: await typedCode())

    // Rownd.getAccessToken(): the cached token or one shared refresh; nil once the session has ended
    if let token = try await Limen.validAccessToken() {
        print("Authorization: Bearer \(token.prefix(8))…")
    }
    // end snippet
}

/// Reading and writing the profile.
func migratingFromRowndProfile() async throws {
    // snippet: rownd-user
    let user = try Limen.user
    let profile = try await user.get()  // Rownd.user.get(): from the server, or the cache when offline
    print(profile.keys.sorted())
    let nickname: String? = user.get(field: "nickname")  // Rownd.user.get(field:): from the state
    let userID: String? = user.get(field: "id")  // the user's ID (sub)
    print(nickname ?? "no nickname", userID ?? "signed out")

    try await user.set(field: "nickname", value: "Ada")  // Rownd.user.set(field:value:): one field
    try await user.set(data: ["nickname": .string("Ada"), "diagnosis": .string("hay fever")])  // all fields
    // end snippet
}

/// Typed profile errors.
func migratingFromRowndErrors(client: AuthClient) async {
    // snippet: rownd-user-errors
    do {
        try await client.user.set(field: "nickname", value: "Ada")
    } catch .profile(.invalidField(let field, let reason)) {
        print("\(field): \(reason)")  // the app schema refused the value
    } catch .profile(.conflict(let fields)) {
        print("changed on another device meanwhile: \(fields)")
    } catch {
        print(error.code)
    }
    // end snippet
}

/// Encrypting the app's own data.
func migratingFromRowndEncryption() async throws {
    // snippet: rownd-encrypt
    let user = try Limen.user
    if await user.isEncryptionPossible() {  // Rownd.user.isEncryptionPossible()
        let ciphertext = try await user.encrypt(plaintext: "4111 1111 1111 1111")  // a standard JWE
        let plaintext = try await user.decrypt(ciphertext: ciphertext)
        print(plaintext.suffix(4))
    }
    // end snippet
}

/// Events.
func migratingFromRowndEvents(client: AuthClient) {
    // snippet: rownd-events
    // Rownd.addEventHandler(RowndEventHandler())
    client.addEventHandler { event in
        switch event {
        case .signInStarted(let method): print("signing in with \(method.rawValue)")
        case .signInCompleted: print("signed in")
        case .signInFailed(let reason): print("sign-in failed: \(reason.code)")
        case .userDataUpdated: print("profile changed")
        case .signedOut, .sessionExpired: print("signed out")
        case .tokenRefreshed: break
        case .pinningFailed(let failure): print("certificate pinning failed for \(failure.host)")
        }
    }
    // end snippet
}
