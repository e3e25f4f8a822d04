import Foundation
import Limen
import LimenTestSupport
import TestSupport
import Testing

/// The completion-handler layer under LimenApple's Objective-C `LMNAuthClient`: configuration from an Info.plist
/// dictionary, errors as `NSError`s with stable codes, and completions called once, on the main actor.
@Suite("CallbackClient")
struct CallbackClientTests {
    @Test("the Info.plist's Limen dictionary configures the client; a missing or malformed one names the key")
    func infoPlist() throws {
        let values: [String: Any] = [
            "Limen": [
                "issuer": "https://id.example.com", "clientID": "ios-app", "redirectURI": "com.example.app:/callback",
                "scopes": "profile email offline_access",
            ],
            "CFBundleIdentifier": "com.example.app",
        ]
        let configuration = try Configuration(infoDictionary: values)
        #expect(configuration.issuer.absoluteString == "https://id.example.com")
        #expect(configuration.clientID == "ios-app")
        #expect(configuration.scopes == ["profile", "email", "offline_access"])
        #expect(throws: ConfigurationError.missingKey("Limen")) { try Configuration(infoDictionary: [:]) }
        #expect(throws: ConfigurationError.invalidValue(key: "Limen", reason: "expected a dictionary")) {
            try Configuration(infoDictionary: ["Limen": "https://id.example.com"])
        }
        #expect(throws: LimenError.configuration(.missingKey("clientID"))) {
            try CallbackClient(infoDictionary: ["Limen": ["issuer": "https://id.example.com"]])
        }
    }

    @Test(
        "every error is an NSError in the public domain with its case's stable number, string code and retryability",
        arguments: [
            (LimenError.configuration(.missingKey("issuer")), 1),
            (.network(.timeout), 2),
            (.storage(.corrupted(key: "k")), 6),
            (.flow(.incomplete(step: "x")), 10),
            (.userAgent(.timedOut), 11),
            (.userCancelled, 12),
            (.sessionExpired, 13),
            (.notSignedIn, 14),
            (.pinningFailed(host: "id.example.com"), 15),
            (.appToApp(.loginRequired), 16),
            (.dpop(.keyUnavailable("no Secure Enclave")), 17),
        ])
    func nsErrors(error: LimenError, number: Int) {
        let bridged = error as NSError
        #expect(bridged.domain == "dev.limen.LimenError" && bridged.domain == LimenError.errorDomain)
        #expect(bridged.code == number)
        #expect(error.nsError.code == number && error.nsError.domain == LimenError.errorDomain)
        #expect(error.nsError.userInfo[LimenError.codeUserInfoKey] as? String == error.code)
        #expect(error.nsError.localizedDescription == error.errorDescription)
        #expect((error.nsError.userInfo[LimenError.retryableUserInfoKey] as? NSNumber)?.boolValue == error.isRetryable)
    }

    @Test("the numbers are one per case and never reused")
    func numbersAreStable() {
        let numbers = LimenErrorCode.allCases.map(\.rawValue)
        #expect(numbers == Array(1...17))
    }

    /// On Apple platforms the main actor is the main thread; Linux's test runner keeps it on another thread, so the
    /// completions' isolation is what is checked.
    @Test(
        "with nobody signed in: no token and no error; user info fails with notSignedIn; each once, on the main actor")
    func completionsOnceOnMain() async throws {
        let issuer = try #require(URL(string: "https://id.example.com"))
        let callbacks = CallbackClient(
            client: AuthClient(configuration: Configuration(issuer: issuer, clientID: "app", store: MemoryStore())))
        let calls = Locked<[String]>([])
        let tokenDone = Gate()
        callbacks.accessToken { token, error in
            MainActor.preconditionIsolated()
            calls.withLock { $0.append("token \(token ?? "-") \(error?.code ?? 0)") }
            Task { await tokenDone.open() }
        }
        await tokenDone.wait()
        let infoDone = Gate()
        callbacks.userInfo { info, error in
            MainActor.preconditionIsolated()
            calls.withLock { $0.append("info \(info == nil) \(error?.code ?? 0)") }
            Task { await infoDone.open() }
        }
        await infoDone.wait()
        #expect(calls.withLock { $0 } == ["token - 0", "info true 14"])
    }

    @Test(
        "sign-in, token, user info, state observation and sign-out through completions against Limen Server",
        .enabled(
            if: LimenServerPeer.unavailableReason == nil,
            "limen-server is not built (swift build --package-path Server)")
    )
    func againstServer() async throws {
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let redirect = try #require(URL(string: "http://127.0.0.1/callback"))
            let client = AuthClient(
                configuration: Configuration(
                    issuer: server.issuer, clientID: "limen-cli", redirectURI: redirect,
                    scopes: ["profile", "email", "offline_access"], store: MemoryStore()))
            let callbacks = CallbackClient(client: client)
            let (phases, phase) = AsyncStream.makeStream(of: AuthState.Phase.self)
            let observation = callbacks.observeState { phase.yield($0.phase) }
            let browser = LimenServerBrowser(email: server.user.email, password: server.user.password)
            let user = await Self.completion(of: String.self) { done in
                callbacks.signIn(using: browser) { user, error in done(user?.email ?? error?.localizedDescription) }
            }
            #expect(user == server.user.email)
            let token = await Self.completion(of: String.self) { done in
                callbacks.accessToken { token, _ in done(token) }
            }
            #expect(token == client.state.auth.accessToken)
            let subject = await Self.completion(of: String.self) { done in
                callbacks.userInfo { info, _ in done(info?.subject) }
            }
            #expect(subject == client.state.user.id)
            let signOutError = await Self.completion(of: Int.self) { done in callbacks.signOut { done($0?.code) } }
            #expect(signOutError == nil)
            var seen: [AuthState.Phase] = []
            for await next in phases {
                seen.append(next)
                if next == .signedOut, seen.contains(.signedIn) { break }
            }
            observation.cancel()
            phase.finish()
            #expect(seen.first == .restoring || seen.first == .signedOut, "the current state first")
        }
    }

    /// The one value a completion-handler call delivers, awaited.
    static func completion<Value: Sendable>(
        of type: Value.Type,
        _ call: (@escaping @MainActor @Sendable (Value?) -> Void) -> Void
    ) async -> Value? {
        await withCheckedContinuation { continuation in
            call { continuation.resume(returning: $0) }
        }
    }
}

/// Claims as Objective-C reads them.
@Suite("JSONValue as Foundation objects")
struct JSONValueFoundationTests {
    @Test("claims become property-list objects: null, Booleans and numbers as NSNumber, nested arrays and dictionaries")
    func foundationObjects() throws {
        let value = JSONValue.object([
            "email": .string("ada@example.com"), "email_verified": .bool(true), "age": .number(36),
            "groups": .array([.string("admin"), .null]),
        ])
        let object = try #require(value.foundationObject as? [String: Any])
        #expect(object["email"] as? String == "ada@example.com")
        #expect((object["email_verified"] as? NSNumber)?.boolValue == true)
        #expect((object["age"] as? NSNumber)?.doubleValue == 36)
        let groups = try #require(object["groups"] as? [Any])
        #expect(groups.first as? String == "admin" && groups.last is NSNull)
        #expect(JSONSerialization.isValidJSONObject(object))
    }
}
