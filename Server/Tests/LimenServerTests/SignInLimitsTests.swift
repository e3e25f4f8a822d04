import Dispatch
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Sign-in limits: lock per address, hashing capacity, per-address rate, sign-up switch, field sizes")
struct SignInLimitsTests {
    @Test("19 parallel wrong sign-ins to one email from one address: at most five get a guess (400), the rest 429")
    func parallelGuesses() async throws {
        // Room in the hashing queue for all 19 from one address (an address holds a quarter of the places).
        try await withSignIn(
            configure: { $0.passwordHashingLimits = .init(concurrency: 2, waiting: 78) },
            { fixture in
                var browser = Browser()
                let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 1...19 {
                        group.addTask { [browser] in
                            var copy = browser
                            return try await copy.signIn(fixture.client, from: form, password: "wrong").status
                        }
                    }
                    return try await group.reduce(into: [HTTPResponse.Status]()) { $0.append($1) }
                }
                #expect(statuses.filter { $0 == .badRequest }.count <= 5, "\(statuses)")
                #expect(statuses.allSatisfy { $0 == .badRequest || $0 == .tooManyRequests }, "\(statuses)")
            }
        )
    }

    @Test(
        "with password hashing full, sign-in and sign-up answer 503 with Retry-After, uncounted; then they work",
        .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
    func hashingFull() async throws {
        try await withMailedSignIn(
            configure: { $0.passwordHashingLimits = .init(concurrency: 1, waiting: 0) },
            { fixture, peer in
                var browser = Browser()
                let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
                let requestID = try #require(form.hiddenField("request"))
                let signUp = try await browser.send(fixture.client, "/signup?request=\(requestID)")
                let codeStep = try await browser.submit(
                    fixture.client, signUp, to: "/signup", [("email", "grace@example.com")])
                let code = try await peer.lastCode()

                let (started, didStart) = AsyncStream.makeStream(of: Void.self)
                let release = DispatchSemaphore(value: 0)
                let holder = Task {
                    try await fixture.provider.passwordHashingQueue.run {
                        didStart.yield()
                        release.wait()
                    }
                }
                for await _ in started { break }
                for _ in 1...6 {
                    let busy = try await browser.signIn(fixture.client, from: form)
                    #expect(busy.status == .serviceUnavailable, "refused before it counts towards a lock")
                    #expect(busy.headers[.retryAfter] == "1")
                    #expect(busy.alert == "The server is busy. Try again in a moment.")
                }
                let busySignUp = try await browser.submit(
                    fixture.client, codeStep, to: "/signup",
                    [("code", code), ("password", "a long one"), ("password-verify", "a long one")])
                #expect(busySignUp.status == .serviceUnavailable)
                #expect(busySignUp.headers[.retryAfter] == "1")
                release.signal()
                try await holder.value

                let done = try await browser.signIn(fixture.client, from: form)
                #expect(done.redirect?.query["code"] != nil)
            }
        )
    }

    @Test(
        "sign-in, sign-up and email-link POSTs have their own, lower per-address limit; other POSTs do not count against it"
    )
    func signInRateLimit() async throws {
        let paths = ["/login", "/signup", EmailLinkRoutes.submitPath]
        try await withSignIn(
            configure: { $0.signInRateLimit = RateLimit(burst: Double(paths.count), perSecond: 0.1) },
            { fixture in
                let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                for path in paths {
                    try await fixture.client.execute(uri: path, method: .post, headers: form, body: ByteBuffer()) {
                        #expect($0.status != .tooManyRequests)
                    }
                }
                for path in paths {
                    try await fixture.client.execute(uri: path, method: .post, headers: form, body: ByteBuffer()) {
                        #expect($0.status == .tooManyRequests)
                        #expect($0.headers[.retryAfter] == "10")
                    }
                }
                try await fixture.client.execute(uri: "/authorize", method: .post, headers: form, body: ByteBuffer()) {
                    #expect($0.status != .tooManyRequests)
                }
            }
        )
    }

    @Test("with sign-up turned off the sign-in page has no link to it and /signup refuses, creating nothing")
    func signUpOff() async throws {
        try await withSignIn(
            configure: { $0.signUpEnabled = false },
            { fixture in
                var browser = Browser()
                let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
                let requestID = try #require(form.hiddenField("request"))
                #expect(form.status == .ok)
                #expect(!form.body.contains("signup"))
                let wrong = try await browser.signIn(fixture.client, from: form, password: "not the password")
                #expect(!wrong.body.contains("signup"))
                let page = try await browser.send(fixture.client, "/signup?request=\(requestID)")
                #expect(page.status == .forbidden)
                #expect(page.body.contains("Sign-up is turned off"))
                let csrf = try #require(
                    fixture.csrfToken(in: browser, for: CSRFToken.signInPurpose(requestID: requestID)))
                let posted = try await browser.send(
                    fixture.client, "/signup", method: .post,
                    form: [
                        ("request", requestID), ("csrf", csrf), ("email", "grace@example.com"),
                        ("password", "a long passphrase"),
                    ])
                #expect(posted.status == .forbidden)
                #expect(try await fixture.provider.store.user(email: "grace@example.com") == nil)
                let signedIn = try await browser.signIn(fixture.client, from: form)
                #expect(signedIn.redirect?.query["code"] != nil, "signing in still works")
            }
        )
    }

    @Test("a 60,000-character name on the sign-up page is refused with the field's limit, and no account is made")
    func longName() async throws {
        try await withSignIn { fixture in
            var browser = Browser()
            let form = try await browser.send(fixture.client, SignInFixture.authorizeURI())
            let signUp = try await browser.send(
                fixture.client, "/signup?request=\(try #require(form.hiddenField("request")))")
            let codeStep = try await browser.submit(
                fixture.client, signUp, to: "/signup", [("email", "grace@example.com")])
            let refused = try await browser.submit(
                fixture.client, codeStep, to: "/signup",
                [
                    ("code", "123456"), ("name", String(repeating: "n", count: 60_000)),
                    ("password", "a long passphrase"), ("password-verify", "a long passphrase"),
                ])
            #expect(refused.status == .badRequest)
            #expect(refused.alert == "Use at most 1024 characters.")
            #expect(try await fixture.provider.store.user(email: "grace@example.com") == nil)
        }
    }

    @Test("over a real socket: an address that failed five times is locked, the owner at another address signs in")
    func lockedPerAddress() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory, port: 0)
        configuration.trustedProxies = try #require(TrustedProxies(["127.0.0.1"]))
        let provider = try await ServerComposition.bootstrap(configuration: configuration)
        let app = Application(router: LimenServerApplication.router(composition: provider))
        do {
            _ = try await provider.accounts.signUp(
                email: SignInFixture.email, password: SignInFixture.password, name: "Ada", origin: RequestOrigin())
            try await app.test(.live) { client in
                let forwardedFor = try #require(HTTPField.Name("X-Forwarded-For"))
                /// Signs in through a fresh form, as a browser behind the proxy at `address` would.
                @Sendable func signIn(from address: String, password: String) async throws -> Page {
                    var browser = Browser()
                    let transport: (String, HTTPRequest.Method, HTTPFields, ByteBuffer?) async throws -> Page = {
                        uri, method, headers, body in
                        var headers = headers
                        headers[forwardedFor] = address
                        return Page(
                            response: try await client.executeRequest(
                                uri: uri, method: method, headers: headers, body: body))
                    }
                    let form = try await browser.send(SignInFixture.authorizeURI(), through: transport)
                    let fields = [
                        ("email", SignInFixture.email), ("password", password),
                        ("request", try #require(form.hiddenField("request"))),
                        ("csrf", try #require(form.hiddenField("csrf"))),
                    ]
                    return try await browser.send("/login", method: .post, form: fields, through: transport)
                }
                for _ in 1...5 {
                    #expect(try await signIn(from: "198.51.100.66", password: "wrong").status == .badRequest)
                }
                let attacker = try await signIn(from: "198.51.100.66", password: SignInFixture.password)
                #expect(attacker.status == .tooManyRequests)
                let owner = try await signIn(from: "203.0.113.7", password: SignInFixture.password)
                #expect(owner.redirect?.query["code"] != nil, "the owner is not locked out")
            }
        } catch {
            await provider.store.close()
            throw error
        }
        await provider.store.close()
    }
}
