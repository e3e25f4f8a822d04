import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A sign-in fixture whose hosted pages offer the stand-in issuer as upstream provider `standin`.
struct UpstreamFixture: Sendable {
    static let providerID = "standin"

    let fixture: SignInFixture
    let standIn: StandInIssuer

    /// Runs `body` with the stand-in and a provider offering it (`linkByVerifiedEmail` as its entry says).
    static func with(
        linkByVerifiedEmail: Bool = false,
        signUpEnabled: Bool = true,
        _ body: @escaping @Sendable (UpstreamFixture) async throws -> Void
    ) async throws {
        try await StandInIssuer.with(now: TestNow().now) { standIn in
            let entry = standIn.upstreamEntry(linkByVerifiedEmail: linkByVerifiedEmail)
            let configure: (inout ServerConfiguration) -> Void = {
                $0.identityProviders = [entry]
                $0.signUpEnabled = signUpEnabled
            }
            try await withSignIn(configure: configure) { fixture in
                try await body(UpstreamFixture(fixture: fixture, standIn: standIn))
            }
        }
    }

    /// Starts an authorization request in `browser` and presses "Continue with Stand-in ID"; the redirect upstream.
    func start(_ browser: inout Browser, _ extra: [(String, String)] = [], client: String = "limen-cli")
        async throws -> Page
    {
        let signIn = try await browser.send(fixture.client, SignInFixture.authorizeURI(client: client, extra))
        #expect(signIn.body.contains("Continue with Stand-in ID"))
        return try await browser.submit(fixture.client, signIn, to: "/federation/\(Self.providerID)/start", [])
    }

    /// What the browser does at the stand-in: follows `redirect` there and returns the path of Limen's callback it is
    /// sent back to.
    func signInUpstream(_ redirect: Page) async throws -> String {
        let location = try #require(redirect.headers[.location])
        #expect(location.hasPrefix(standIn.issuer + "/authorize?"))
        let answer = try await URLSessionTransport.forLiveTests().send(
            HTTPRequest(url: try #require(URL(string: location))))
        let back = try #require(answer.header("Location"))
        let prefix = fixture.issuer + "/federation/\(Self.providerID)/callback?"
        #expect(back.hasPrefix(prefix), "\(back)")
        return String(back.dropFirst(fixture.issuer.count))
    }

    /// Signs in through the stand-in in `browser` from a new request; the subject of the code the client gets, or `nil`
    /// with the page when there is no code.
    func signIn(_ browser: inout Browser, _ extra: [(String, String)] = []) async throws -> (
        subject: String?, page: Page
    ) {
        let callback = try await signInUpstream(try await start(&browser, extra))
        let page = try await browser.send(fixture.client, callback)
        guard let code = page.redirect?.query["code"] else { return (nil, page) }
        let redeemed = try await fixture.provider.store.redeemedCode(
            hash: RandomIdentifier.hash(code), now: fixture.clock.now)
        return (redeemed?.subject, page)
    }

    /// The identity kind of the stand-in's people.
    var kind: String { TrustedIssuer.identityKind(issuer: standIn.issuer) }
}

@Suite("Upstream OpenID providers: Limen as relying party on the hosted pages")
struct UpstreamSignInTests {
    @Test(
        "a first sign-in through the provider creates a user linked to the upstream identity, with its verified address"
    )
    func newUser() async throws {
        try await UpstreamFixture.with { upstream in
            upstream.standIn.upstream.next {
                ($0.email, $0.emailVerified, $0.name) = ("grace@example.com", true, "Grace")
            }
            var browser = Browser()
            let (subject, page) = try await upstream.signIn(&browser)
            #expect(page.redirect?.base == SignInFixture.cliRedirect)
            #expect(page.redirect?.query["state"] == "s-1")
            let subjectID = try #require(subject)
            let user = try #require(try await upstream.fixture.provider.store.user(id: subjectID))
            #expect(user.id != upstream.fixture.user.id)
            #expect(user.email == "grace@example.com" && user.emailVerified)
            let identities = try await upstream.fixture.provider.store.identities(userID: user.id)
            #expect(identities.contains { $0.kind == upstream.kind && $0.subject == "upstream-user-1" })
        }
    }

    @Test("a second sign-in with the same upstream identity, in another browser, is the same user")
    func existingLink() async throws {
        try await UpstreamFixture.with { upstream in
            var first = Browser()
            let (created, _) = try await upstream.signIn(&first)
            var second = Browser()
            let (again, _) = try await upstream.signIn(&second)
            #expect(created != nil && again == created)
        }
    }

    @Test(
        "a verified address of a Limen user links to that user only with link_by_verified_email",
        arguments: [false, true])
    func linkByVerifiedEmail(enabled: Bool) async throws {
        try await UpstreamFixture.with(linkByVerifiedEmail: enabled) { upstream in
            let owner = try await upstream.fixture.provider.accounts.signUp(
                email: "owner@example.com", password: "a long passphrase", name: nil, emailVerified: true,
                origin: RequestOrigin())
            upstream.standIn.upstream.next { ($0.email, $0.emailVerified) = ("owner@example.com", true) }
            var browser = Browser()
            let subject = try #require(try await upstream.signIn(&browser).subject)
            #expect((subject == owner.id) == enabled)
            if !enabled {
                #expect(
                    try await upstream.fixture.provider.store.user(id: subject)?.email == nil, "the address is taken")
            }
        }
    }

    @Test("a user with two-step sign-in on goes on from the provider to the second step; the code says fed otp mfa")
    func secondStepAfterUpstream() async throws {
        try await UpstreamFixture.with(linkByVerifiedEmail: true) { upstream in
            let fixture = upstream.fixture
            let owner = try await fixture.provider.accounts.signUp(
                email: "owner@example.com", password: "a long passphrase", name: nil, emailVerified: true,
                origin: RequestOrigin())
            let totp = try await fixture.provider.enableTOTP(for: owner, at: fixture.clock.now)
            upstream.standIn.upstream.next { ($0.email, $0.emailVerified) = ("owner@example.com", true) }
            var browser = Browser()
            let (subject, page) = try await upstream.signIn(&browser)
            #expect(subject == nil, "no code before the second step")
            let location = try #require(page.headers[.location])
            #expect(location.hasPrefix("../../login?request="), "\(location)")
            let step = try await browser.send(fixture.client, "/" + location.dropFirst("../../".count))
            #expect(step.body.contains("<h1>Two-step sign-in</h1>"))
            fixture.clock.advance(by: 30)
            let done = try await browser.submit(
                fixture.client, step, to: "/login",
                [("totp", totp.code(at: fixture.clock.now)), ("action", "submit-totp")])
            let code = try #require(done.redirect?.query["code"])
            let redeemed = try #require(
                try await fixture.provider.store.redeemedCode(hash: RandomIdentifier.hash(code), now: fixture.clock.now)
            )
            #expect(redeemed.subject == owner.id)
            #expect(redeemed.methods == AuthenticationMethods([.federated, .oneTimePassword, .multipleFactors]))
        }
    }

    @Test("with sign-up turned off a new upstream identity is refused; one leading to an account signs in")
    func signUpOff() async throws {
        try await UpstreamFixture.with(linkByVerifiedEmail: true, signUpEnabled: false) { upstream in
            let store = upstream.fixture.provider.store
            var browser = Browser()
            let (refused, page) = try await upstream.signIn(&browser)
            #expect(refused == nil && page.status == .forbidden)
            #expect(try await store.user(identityKind: upstream.kind, subject: "upstream-user-1") == nil)
            let owner = try await upstream.fixture.provider.accounts.signUp(
                email: "owner@example.com", password: "a long passphrase", name: nil, emailVerified: true,
                origin: RequestOrigin())
            upstream.standIn.upstream.next { ($0.email, $0.emailVerified) = ("owner@example.com", true) }
            var again = Browser()
            #expect(try await upstream.signIn(&again).subject == owner.id)
        }
    }

    @Test("an address the provider did not verify never links, even with link_by_verified_email")
    func unverifiedAddress() async throws {
        try await UpstreamFixture.with(linkByVerifiedEmail: true) { upstream in
            let owner = try await upstream.fixture.provider.accounts.signUp(
                email: "owner@example.com", password: "a long passphrase", name: nil, emailVerified: true,
                origin: RequestOrigin())
            upstream.standIn.upstream.next { ($0.email, $0.emailVerified) = ("owner@example.com", false) }
            var browser = Browser()
            let subject = try await upstream.signIn(&browser).subject
            #expect(subject != nil && subject != owner.id)
        }
    }

    @Test(
        "an ID token with a bad signature, for another audience or with another nonce, or a response naming another issuer, is refused",
        arguments: [StandInUpstream.Tamper.signature, .audience, .nonce, .issuerParameter])
    func refused(tamper: StandInUpstream.Tamper) async throws {
        try await UpstreamFixture.with { upstream in
            upstream.standIn.upstream.next { $0.tamper = tamper }
            var browser = Browser()
            let (subject, page) = try await upstream.signIn(&browser)
            #expect(subject == nil)
            #expect(page.status == .badRequest && page.isHTML)
            #expect(page.body.contains("Signing in with Stand-in ID did not work"))
            #expect(browser.cookies[BrowserCookies(issuer: upstream.fixture.issuer).sessionName] == nil, "no session")
            #expect(
                try await upstream.fixture.provider.store.user(identityKind: upstream.kind, subject: "upstream-user-1")
                    == nil)
        }
    }

    @Test("the sign-in form itself does not press the IDP collector: its button is a form of its own, posting upstream")
    func idpCollectorNotPressedByTheForm() async throws {
        try await UpstreamFixture.with { upstream in
            var browser = Browser()
            let signIn = try await browser.send(upstream.fixture.client, SignInFixture.authorizeURI())
            #expect(signIn.body.contains(#"<form method="post" action="federation/standin/start">"#))
            #expect(!signIn.body.contains(#"value="idp-standin""#), "no button of the sign-in form presses it")
            let pressed = try await browser.submit(
                upstream.fixture.client, signIn, to: "/login", [("node", "credentials"), ("action", "idp-standin")])
            #expect(pressed.status == .badRequest && pressed.headers[.location] == nil)
            #expect(pressed.body.contains("Continue with Stand-in ID"))
            #expect(upstream.standIn.upstream.redemptions.withLock { $0 } == 0)
        }
    }

    @Test("for a third-party client the consent page follows, its form posting to the issuer's root")
    func consentFollows() async throws {
        try await UpstreamFixture.with { upstream in
            var browser = Browser()
            let callback = try await upstream.signInUpstream(try await upstream.start(&browser, client: "web"))
            let consent = try await browser.send(upstream.fixture.client, callback)
            #expect(consent.body.contains(#"<form method="post" action="../../consent">"#))
            #expect(consent.body.contains(#"href="../../static/limen.css""#))
            let done = try await browser.submit(
                upstream.fixture.client, consent, to: "/consent", [("decision", "allow")])
            #expect(done.redirect?.base == SignInFixture.webRedirect && done.redirect?.query["code"] != nil)
        }
    }

    @Test("the stored attempt holds neither the pending request's identifier nor the PKCE verifier in the clear")
    func attemptSealed() async throws {
        try await UpstreamFixture.with { upstream in
            var browser = Browser()
            let signIn = try await browser.send(upstream.fixture.client, SignInFixture.authorizeURI())
            let requestID = try #require(signIn.hiddenField("request"))
            let redirect = try await browser.submit(
                upstream.fixture.client, signIn, to: "/federation/\(UpstreamFixture.providerID)/start", [])
            let location = try #require(redirect.headers[.location].flatMap(URLComponents.init(string:)))
            let state = try #require(location.queryItems?.first { $0.name == "state" }?.value)
            let record = try #require(
                try await upstream.fixture.provider.store.flowInteraction(
                    idHash: RandomIdentifier.hash("federation." + state)))
            let stored = String(decoding: record.context, as: UTF8.self)
            #expect(!stored.contains(requestID) && !stored.contains("code_verifier"))
            #expect(record.expiresAt <= upstream.fixture.clock.now.addingTimeInterval(UpstreamAttempt.lifetime))
        }
    }

    @Test("a replayed callback is refused: the state is used once")
    func replayedState() async throws {
        try await UpstreamFixture.with { upstream in
            var browser = Browser()
            let callback = try await upstream.signInUpstream(try await upstream.start(&browser))
            let first = try await browser.send(upstream.fixture.client, callback)
            #expect(first.redirect?.query["code"] != nil)
            let replay = try await browser.send(upstream.fixture.client, callback)
            #expect(replay.status == .badRequest && replay.redirect == nil)
            #expect(upstream.standIn.upstream.redemptions.withLock { $0 } == 1, "the code was not redeemed again")
        }
    }

    @Test("a callback with a state nobody sent, or opened in another browser, is refused")
    func foreignCallback() async throws {
        try await UpstreamFixture.with { upstream in
            var browser = Browser()
            let callback = try await upstream.signInUpstream(try await upstream.start(&browser))
            var attacker = Browser()
            let elsewhere = try await attacker.send(upstream.fixture.client, callback)
            #expect(elsewhere.status == .forbidden && elsewhere.redirect == nil)
            let forged = try await browser.send(
                upstream.fixture.client, "/federation/standin/callback?code=x&state=made-up")
            #expect(forged.status == .badRequest && forged.redirect == nil)
            let done = try await browser.send(upstream.fixture.client, callback)
            #expect(done.redirect?.query["code"] != nil, "the victim's own sign-in still finishes")
        }
    }

    @Test("the start button needs the page's CSRF token; an unknown provider is not found")
    func startChecks() async throws {
        try await UpstreamFixture.with { upstream in
            var browser = Browser()
            let signIn = try await browser.send(upstream.fixture.client, SignInFixture.authorizeURI())
            let request = try #require(signIn.hiddenField("request"))
            let forged = try await browser.send(
                upstream.fixture.client, "/federation/standin/start", method: .post, form: [("request", request)])
            #expect(forged.status == .forbidden && forged.headers[.location] == nil)
            let unknown = try await browser.submit(upstream.fixture.client, signIn, to: "/federation/nobody/start", [])
            #expect(unknown.status == .notFound)
        }
    }

    @Test("idp_hint naming a provider goes upstream at once; an unknown one is ignored and the page shown")
    func providerHint() async throws {
        try await UpstreamFixture.with { upstream in
            var browser = Browser()
            let hinted = try await browser.send(
                upstream.fixture.client, SignInFixture.authorizeURI([("idp_hint", UpstreamFixture.providerID)]))
            let callback = try await upstream.signInUpstream(hinted)
            let done = try await browser.send(upstream.fixture.client, callback)
            #expect(done.redirect?.query["code"] != nil)
            var other = Browser()
            let unknown = try await other.send(
                upstream.fixture.client, SignInFixture.authorizeURI([("idp_hint", "nobody")]))
            #expect(unknown.status == .ok && unknown.body.contains("Continue with Stand-in ID"))
        }
    }

    @Test("a guest upgrading with a new upstream identity keeps their user ID; with a linked one, moves to its account")
    func guestUpgrade() async throws {
        try await UpstreamFixture.with { upstream in
            let store = upstream.fixture.provider.store
            var linked = Browser()
            let existing = try #require(try await upstream.signIn(&linked).subject)

            var browser = Browser()
            let guest = try await browser.becomeGuest(upstream.fixture)
            upstream.standIn.upstream.next { $0.subject = "upstream-user-2" }
            let upgraded = try await upstream.signIn(&browser, [("prompt", "login")]).subject
            #expect(upgraded == guest, "case 1: the identity is linked to the guest")
            #expect(try await store.user(id: guest)?.isAnonymous == false)

            var second = Browser()
            let otherGuest = try await second.becomeGuest(upstream.fixture)
            _ = try await store.writeProfile(
                userID: otherGuest, data: ["score": .number(3)], expectedRevision: 0, now: upstream.fixture.clock.now)
            upstream.standIn.upstream.next { $0.subject = "upstream-user-1" }
            let moved = try await upstream.signIn(&second, [("prompt", "login")]).subject
            #expect(moved == existing, "case 2: the identity's account replaces the guest")
            #expect(try await store.user(id: otherGuest) == nil)
            #expect(try await store.profile(userID: existing)?.data == ["score": .number(3)])
        }
    }
}
