import Foundation
import Limen
import LimenTestSupport
import LimenUIModel
import Observation
import TestSupport
import Testing

/// The state a sign-in button binds to, and how its outcome reaches the app's handlers.
@Suite("SignInModel")
@MainActor
struct SignInModelTests {
    /// A client of a provider nobody calls (the actions under test fail before any request).
    func offlineClient() throws -> AuthClient {
        let issuer = try #require(URL(string: "https://id.example.com"))
        return AuthClient(configuration: Configuration(issuer: issuer, clientID: "app", store: MemoryStore()))
    }

    @Test("a closed Apple sheet is a cancel: onCancel is called, and lastError stays empty")
    func closedSheetIsCancel() async throws {
        let model = SignInModel(client: try offlineClient())
        let environment = SignInEnvironment(appleAuthorization: AppleSheet(outcome: .failure(.cancelled)))
        let outcome = await model.signIn(.apple(), in: environment)
        #expect(outcome == .cancelled)
        #expect(model.lastError == nil && !model.isSigningIn)

        var calls: [String] = []
        var handlers = SignInHandlers()
        handlers.onCancel = { calls.append("cancel") }
        handlers.onError = { _ in calls.append("error") }
        handlers.onSignIn = { _ in calls.append("signIn") }
        handlers.deliver(outcome)
        handlers.deliver(.failed(.notSignedIn))
        handlers.deliver(.busy)
        #expect(calls == ["cancel", "error"])

        let fed = await model.signIn(.apple(.failure(.cancelled), nonce: AppleSignInNonce()))
        #expect(fed == .cancelled, "the result of Apple's own button, closed, is a cancel too")
    }

    @Test("an action the place cannot perform fails with the missing piece named, kept as lastError")
    func missingEnvironment() async throws {
        let model = SignInModel(client: try offlineClient())
        #expect(await model.signIn(.browser()) == .failed(.configuration(.missingKey("userAgent"))))
        #expect(model.lastError == .configuration(.missingKey("userAgent")))
        #expect(await model.signIn(.apple()) == .failed(.configuration(.missingKey("appleAuthorization"))))
        let failed = await model.signIn(.apple(.failure(.presentationFailed("no token")), nonce: AppleSignInNonce()))
        #expect(failed == .failed(.userAgent(.presentationFailed("no token"))))
    }

    @Test("a second press while a sign-in runs does nothing; isSigningIn holds meanwhile, with its spoken value")
    func secondPressIsBusy() async throws {
        let model = SignInModel(client: try offlineClient())
        let entered = Gate()
        let release = Gate()
        #expect(model.accessibilityValue == nil)
        let first = Task {
            await model.signIn(
                SignInAction { _ throws(LimenError) in
                    await entered.open()
                    await release.wait()
                    throw .notSignedIn
                })
        }
        await entered.wait()
        #expect(model.isSigningIn)
        #expect(model.accessibilityValue == "Signing in, please wait")
        #expect(await model.signIn(.browser()) == .busy)
        #expect(model.lastError == nil, "the busy press left the running sign-in's state alone")
        await release.open()
        #expect(await first.value == .failed(.notSignedIn))
        #expect(!model.isSigningIn && model.lastError == .notSignedIn)
    }

    @Test(
        "a browser sign-in against Limen Server: the outcome carries the user, the model follows sign-in and sign-out",
        .enabled(
            if: LimenServerPeer.unavailableReason == nil,
            "limen-server is not built (swift build --package-path Server)")
    )
    func browserSignIn() async throws {
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let client = try FlowFixture.client(server)
            let model = SignInModel(client: client)
            #expect(model.user == nil)
            let browser = LimenServerBrowser(email: server.user.email, password: server.user.password)
            let outcome = await model.signIn(.browser(), in: SignInEnvironment(userAgent: browser))
            guard case .signedIn(let user) = outcome else {
                Issue.record("no sign-in: \(outcome)")
                return
            }
            #expect(user.email == server.user.email)
            let signedIn = await Self.value(of: model, until: { $0.user != nil })
            #expect(signedIn.user?.email == server.user.email)
            _ = await client.signOut()
            let signedOut = await Self.value(of: model, until: { $0.user == nil })
            #expect(signedOut.user == nil)
        }
    }

    /// `model` once `condition` holds, observed through Observation. No change can slip between the check and the
    /// tracking: both run on the main actor without a suspension between them, and the model changes only there.
    static func value(of model: SignInModel, until condition: @MainActor (SignInModel) -> Bool) async -> SignInModel {
        while !condition(model) {
            await withCheckedContinuation { continuation in
                withObservationTracking {
                    _ = model.user
                } onChange: {
                    continuation.resume()
                }
            }
        }
        return model
    }
}

/// An Apple sheet that answers with `outcome`.
private struct AppleSheet: AppleIDAuthorizing {
    let outcome: Result<AppleIDCredential, UserAgentError>

    func authorize(hashedNonce: String) async throws(UserAgentError) -> AppleIDCredential {
        try outcome.get()
    }
}
