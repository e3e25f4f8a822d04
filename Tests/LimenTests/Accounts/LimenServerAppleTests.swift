import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// Sign in with Apple through the SDK against the `limen-server` binary, whose Apple (`apple:` with a local
/// `base_url`) is a test HTTP server serving an RS256 key at `/auth/keys`: the tokens are Apple-shaped and signed with
/// that key. Checked by user IDs, linking, names and the credential-state check.
@Suite(
    "Sign in with Apple against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)"),
    .enabled(if: SMTPSink.unavailableReason == nil, "aiosmtpd is not installed")
)
struct LimenServerAppleTests {
    static let bundleID = "com.example.limen-tests"

    /// The stand-in Apple: its key and issuer.
    struct Apple {
        let key: TestSigningKey
        let issuer: String

        /// An Apple ID credential for `user` whose identity token carries the SHA-256 of `nonce`.
        func credential(
            user: String,
            nonce: AppleSignInNonce,
            email: String? = nil,
            fullName: String? = nil
        ) throws -> AppleIDCredential {
            try credential(user: user, hashedNonce: nonce.sha256, email: email, fullName: fullName)
        }

        /// An Apple ID credential for `user` whose identity token carries `hashedNonce`.
        func credential(
            user: String,
            hashedNonce: String,
            email: String? = nil,
            fullName: String? = nil
        ) throws -> AppleIDCredential {
            let now = Date().timeIntervalSince1970.rounded(.down)
            var claims: [String: JSONValue] = [
                "iss": .string(issuer), "sub": .string(user), "aud": .string(LimenServerAppleTests.bundleID),
                "iat": .number(now), "exp": .number(now + 600), "nonce": .string(hashedNonce),
            ]
            if let email { (claims["email"], claims["email_verified"]) = (.string(email), .string("true")) }
            return AppleIDCredential(
                user: user, identityToken: try key.sign(claims), email: email, fullName: fullName)
        }
    }

    /// A server trusting the stand-in Apple, with mail for the account tests' codes.
    func withApple(_ body: (AccountServer, Apple) async throws -> Void) async throws {
        let key = try await TestSigningKey.rs256(kid: "apple-1")
        let jwks = TestSigningKey.jwksJSON([key])
        try await TestHTTPServer.withServer(["GET /auth/keys": { _ in .json(jwks) }]) { standIn in
            let issuer = standIn.baseURL.absoluteString
            let configuration = """
                apple:
                  bundle_ids: [\(Self.bundleID)]
                  base_url: "\(issuer)"
                """
            try await SMTPSink.with { sink in
                let settings = ["--sign-in-rate-limit", "100/s", "--mail-url", sink.mailURL]
                try await LimenServerPeer.with(configuration: configuration, settings: settings) { server in
                    try await body(AccountServer(server: server, sink: sink), Apple(key: key, issuer: issuer))
                }
            }
        }
    }

    @Test("nobody signed in: a new user named at the first sign-in; the same Apple ID again is that user, name kept")
    func newUser() async throws {
        try await withApple { fixture, apple in
            let client = try fixture.client()
            let nonce = AppleSignInNonce()
            let first = try await client.signInWithApple(
                try apple.credential(user: "000001.ada", nonce: nonce, email: "ada.apple@example.com", fullName: "Ada"),
                nonce: nonce, allowMigration: nil)
            #expect(first.anonymousUserID == nil && !first.replacedAnonymousUser)
            #expect(client.state.user.id == first.userID)
            #expect(client.state.user.name == "Ada")
            #expect(client.state.user.email == "ada.apple@example.com", "the address Apple verified, nobody else's")

            let device = try fixture.client()
            let again = AppleSignInNonce()
            let second = try await device.signInWithApple(
                try apple.credential(user: "000001.ada", nonce: again, fullName: "Someone Else"), nonce: again,
                allowMigration: nil)
            #expect(second.userID == first.userID, "the same Apple ID is the same user")
            #expect(device.state.user.name == "Ada", "Apple's name is kept from the first sign-in only")
        }
    }

    @Test("a token whose nonce is not the one sent is refused; nobody is signed in")
    func wrongNonce() async throws {
        try await withApple { fixture, apple in
            let client = try fixture.client()
            let credential = try apple.credential(user: "000002.eve", nonce: AppleSignInNonce())
            await #expect(throws: LimenError.self) {
                try await client.signInWithApple(credential, nonce: AppleSignInNonce(), allowMigration: nil)
            }
            #expect(!client.state.auth.isAuthenticated)
        }
    }

    @Test("a guest signing in with a new Apple ID keeps its user ID; with another account's, migrationRequired first")
    func guestLinking() async throws {
        try await withApple { fixture, apple in
            let client = try fixture.client()
            let guestID = try #require(try await client.signInAnonymously().id)
            let nonce = AppleSignInNonce()
            let linked = try await client.signInWithApple(
                try apple.credential(user: "000003.grace", nonce: nonce), nonce: nonce, allowMigration: nil)
            #expect(linked.userID == guestID, "case 1: linked to the guest, same user")
            #expect(!client.state.auth.isAnonymous)

            let other = try fixture.client()
            let otherGuest = try #require(try await other.signInAnonymously().id)
            let second = AppleSignInNonce()
            let credential = try apple.credential(user: "000003.grace", nonce: second)
            let asked: LoginCredentials
            do throws(LimenError) {
                try await other.signInWithApple(credential, nonce: second, allowMigration: nil)
                Issue.record("no migration question")
                return
            } catch {
                guard case .account(.migrationRequired(let kept)) = error else { throw error }
                asked = kept
            }
            #expect(asked.provider == .apple)
            #expect(other.state.user.id == otherGuest, "nothing changed while the person decides")
            let descriptor = try await other.login(with: asked, allowMigration: false)
            #expect(descriptor.userID == guestID && descriptor.anonymousUserID == otherGuest)
            #expect(other.state.user.id == guestID)
        }
    }

    @Test(
        "signInWithApple(allowMigration:) asks the configured sheet with a nonce's hash; a closed sheet is userCancelled"
    )
    func configuredSheet() async throws {
        try await withApple { fixture, apple in
            var configuration = Configuration(
                issuer: fixture.server.issuer, clientID: "limen-cli",
                redirectURI: try #require(URL(string: "http://127.0.0.1/callback")),
                scopes: ["profile", "email", "offline_access"], store: MemoryStore())
            await #expect(throws: LimenError.configuration(.missingKey("appleAuthorization"))) {
                try await AuthClient(configuration: configuration).signInWithApple(allowMigration: nil)
            }

            configuration.appleAuthorization = StandInAppleSheet(apple: apple, user: "000005.kay", refusal: .cancelled)
            let closed = AuthClient(configuration: configuration)
            await #expect(throws: LimenError.userCancelled) {
                try await closed.signInWithApple(allowMigration: nil)
            }
            #expect(!closed.state.auth.isAuthenticated)

            configuration.appleAuthorization = StandInAppleSheet(apple: apple, user: "000005.kay")
            let client = AuthClient(configuration: configuration)
            let descriptor = try await client.signInWithApple(allowMigration: nil)
            #expect(client.state.user.id == descriptor.userID)
            #expect(client.state.user.name == "Kay")
        }
    }

    @Test(
        "checkCredentialState: authorized keeps the session, revoked signs out; no answer keeps it; others not asked")
    func credentialState() async throws {
        try await withApple { fixture, apple in
            let client = try fixture.client()
            let nonce = AppleSignInNonce()
            try await client.signInWithApple(
                try apple.credential(user: "000004.ida", nonce: nonce), nonce: nonce, allowMigration: nil)

            let authorized = StubCredentialStates(.success(.authorized))
            #expect(try await client.checkCredentialState(using: authorized))
            #expect(await authorized.asked == ["000004.ida"])
            #expect(client.state.auth.isAuthenticated)

            let offline = StubCredentialStates(.failure(URLError(.notConnectedToInternet)))
            #expect(try await client.checkCredentialState(using: offline))
            #expect(client.state.auth.isAuthenticated, "no answer from Apple: the session is kept")

            #expect(!(try await client.checkCredentialState(using: StubCredentialStates(.success(.revoked)))))
            #expect(!client.state.auth.isAuthenticated, "revoked at Apple: signed out")

            let guest = try fixture.client()
            try await guest.signInAnonymously()
            let notAsked = StubCredentialStates(.success(.revoked))
            #expect(try await guest.checkCredentialState(using: notAsked))
            #expect(await notAsked.asked.isEmpty, "a user who did not sign in with Apple here is not checked")
        }
    }
}

extension LimenServerAppleTests {
    @Test("checkCredentialState() asks the configuration's source; without one nobody is asked and the session is kept")
    func configuredCredentialStates() async throws {
        try await withApple { fixture, apple in
            let store = MemoryStore()
            let unconfigured = try fixture.client(store: store)
            let nonce = AppleSignInNonce()
            try await unconfigured.signInWithApple(
                try apple.credential(user: "000005.ida", nonce: nonce), nonce: nonce, allowMigration: nil)
            #expect(try await unconfigured.checkCredentialState())
            #expect(unconfigured.state.auth.isAuthenticated)

            var configuration = unconfigured.configuration
            let revoked = StubCredentialStates(.success(.revoked))
            configuration.appleCredentialStates = revoked
            let configured = AuthClient(configuration: configuration)
            #expect(!(try await configured.checkCredentialState()))
            #expect(await revoked.asked == ["000005.ida"])
            #expect(!configured.state.auth.isAuthenticated, "revoked at Apple: signed out")
        }
    }
}

/// Plays Apple's sheet: answers with a credential for `user` whose identity token carries the hash it is given, or
/// with `refusal` (the person closing the sheet).
struct StandInAppleSheet: AppleIDAuthorizing {
    let apple: LimenServerAppleTests.Apple
    let user: String
    var refusal: UserAgentError?

    func authorize(hashedNonce: String) async throws(UserAgentError) -> AppleIDCredential {
        if let refusal { throw refusal }
        do {
            return try apple.credential(user: user, hashedNonce: hashedNonce, fullName: "Kay")
        } catch {
            throw .presentationFailed("\(error)")
        }
    }
}

/// Answers every credential-state question the same way and remembers who was asked about.
actor StubCredentialStates: AppleCredentialStateSource {
    private let answer: Result<AppleCredentialState, URLError>
    private(set) var asked: [String] = []

    init(_ answer: Result<AppleCredentialState, URLError>) {
        self.answer = answer
    }

    func credentialState(forUser user: String) async throws -> AppleCredentialState {
        asked.append(user)
        return try answer.get()
    }
}
