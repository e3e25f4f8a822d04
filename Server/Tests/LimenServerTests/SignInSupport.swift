import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import Logging
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A provider for the sign-in tests: a settable clock, cheap password hashing, a user, and a third-party client
/// (`web`, with a post-logout redirect URI) next to the first-party `limen-cli`.
struct SignInFixture: Sendable {
    static let email = "ada@example.com"
    static let password = "correct horse battery"
    static let cliRedirect = "http://127.0.0.1:53124/callback"
    static let webRedirect = "https://app.example/cb"
    static let webSignedOut = "https://app.example/signed-out"
    static let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"  // RFC 7636 Appendix B

    let provider: ServerComposition
    let clock: TestNow
    let user: UserRecord
    let client: any TestClientProtocol

    var issuer: String { provider.issuer.current }

    /// The query of an authorization request from `limen-cli` (first party) or `web` (third party), with `extra`
    /// parameters added or replacing the defaults.
    static func authorizeURI(client: String = "limen-cli", _ extra: [(String, String)] = []) -> String {
        var fields: [(String, String)] = [
            ("response_type", "code"), ("client_id", client),
            ("redirect_uri", client == "web" ? webRedirect : cliRedirect), ("scope", "openid profile"),
            ("state", "s-1"), ("nonce", "n-1"), ("code_challenge", challenge), ("code_challenge_method", "S256"),
        ]
        for (name, value) in extra {
            fields.removeAll { $0.0 == name }
            fields.append((name, value))
        }
        return "/authorize?" + FormEncoding.encode(fields)
    }
}

extension SignInFixture {
    /// A token about `subject` signed with the provider's keys (or `keys`), issued two hours ago and expired an hour
    /// ago: an ID token issued to `audience` by default; `type: "at+jwt"` with the issuer as audience is an access
    /// token's shape (RFC 9068).
    func signedToken(
        subject: String,
        audience: String = "web",
        issuer: String? = nil,
        type: String = "JWT",
        keys: KeyRing? = nil
    ) async throws -> String {
        let now = clock.now.timeIntervalSince1970
        let signer = try await TokenSigner(keys: keys ?? provider.keys)
        return try await signer.sign(
            [
                "iss": .string(issuer ?? self.issuer), "sub": .string(subject), "aud": .string(audience),
                "iat": .number(now - 7200), "exp": .number(now - 3600),
            ],
            algorithm: .es256,
            type: type,
            at: clock.now
        )
    }
}

extension SignInFixture {
    /// The CSRF token the server expects from `browser` for `purpose`, computed as one who holds the server key would;
    /// `nil` when the browser has no CSRF cookie.
    func csrfToken(in browser: Browser, for purpose: String) -> String? {
        browser.cookies[BrowserCookies(issuer: issuer).csrfName].map {
            CSRFToken.make(serverKey: provider.derivedKeys.key(for: .csrf), browserSecret: $0, purpose: purpose)
        }
    }
}

/// Runs `body` against a fresh provider (router-level test client); `issuer` overrides the configured issuer and
/// `configure` changes other settings.
func withSignIn(
    issuer: String? = nil,
    logger: Logger? = nil,
    configure: (inout ServerConfiguration) -> Void = { _ in },
    _ body: @Sendable (SignInFixture) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let clock = TestNow()
    var configuration = ServerConfiguration.testing(directory: directory)
    configuration.issuer = issuer
    configuration.passwordHashing = .testing
    configure(&configuration)
    let provider = try await ServerComposition.bootstrap(configuration: configuration, now: { clock.now })
    do {
        try await provider.store.insertClientIfAbsent(
            ClientRecord(
                id: "web", name: "Example Web", kind: .confidential, secretHash: Data(repeating: 7, count: 32),
                redirectURIs: [SignInFixture.webRedirect], postLogoutRedirectURIs: [SignInFixture.webSignedOut],
                createdAt: clock.now
            )
        )
        let user = try await provider.accounts.signUp(
            email: SignInFixture.email, password: SignInFixture.password, name: "Ada", origin: RequestOrigin())
        let app = Application(router: LimenServerApplication.router(composition: provider), logger: logger)
        try await app.test(.router) { client in
            try await body(SignInFixture(provider: provider, clock: clock, user: user, client: client))
        }
    } catch {
        await provider.store.close()
        throw error
    }
    await provider.store.close()
}

/// Runs `body` like ``withSignIn``, with the provider's mail sent to a real SMTP server on 127.0.0.1 (the codes the
/// sign-up, password-reset and email-code pages send).
func withMailedSignIn(
    configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
    _ body: @escaping @Sendable (SignInFixture, SMTPPeer) async throws -> Void
) async throws {
    try await SMTPPeer.with { peer in
        try await withSignIn(
            configure: {
                $0.mailTransport = MailTransport(url: "smtp://127.0.0.1:\(peer.port)") ?? .log
                configure(&$0)
            },
            { fixture in try await body(fixture, peer.delivering(for: fixture.provider)) })
    }
}

/// A browser, by hand: keeps the cookies responses set and sends them back.
struct Browser {
    /// Cookie values by name.
    private(set) var cookies: [String: String]
    /// The raw `Set-Cookie` lines of the last response.
    private(set) var lastSetCookies: [String] = []

    /// A browser holding `cookies`.
    init(cookies: [String: String] = [:]) {
        self.cookies = cookies
    }

    /// Sets a cookie as another site could (a sibling subdomain planting a value it knows).
    mutating func plant(_ name: String, _ value: String) {
        cookies[name] = value
    }

    /// Sends a request with the browser's cookies, remembering what the response sets.
    mutating func send(
        _ client: any TestClientProtocol,
        _ uri: String,
        method: HTTPRequest.Method = .get,
        form: [(String, String)]? = nil
    ) async throws -> Page {
        try await send(uri, method: method, form: form) { uri, method, headers, body in
            Page(response: try await client.executeRequest(uri: uri, method: method, headers: headers, body: body))
        }
    }

    /// As ``send(_:_:method:form:)``, through `transport` (a connection to a live server, say).
    mutating func send(
        _ uri: String,
        method: HTTPRequest.Method = .get,
        form: [(String, String)]? = nil,
        through transport: (String, HTTPRequest.Method, HTTPFields, ByteBuffer?) async throws -> Page
    ) async throws -> Page {
        var headers: HTTPFields = [:]
        if !cookies.isEmpty {
            headers[.cookie] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: "; ")
        }
        var body: ByteBuffer?
        if let form {
            headers[.contentType] = "application/x-www-form-urlencoded"
            body = ByteBuffer(string: FormEncoding.encode(form))
        }
        let page = try await transport(uri, method, headers, body)
        lastSetCookies = page.headers[values: .setCookie]
        for line in lastSetCookies {
            let pair = line.split(separator: ";")[0].split(separator: "=", maxSplits: 1)
            let name = String(pair[0])
            let value = pair.count > 1 ? String(pair[1]) : ""
            if line.lowercased().contains("max-age=0") || value.isEmpty {
                cookies[name] = nil
            } else {
                cookies[name] = value
            }
        }
        return page
    }

    /// Submits the form on `page` to `action` with its hidden fields plus `fields`.
    mutating func submit(
        _ client: any TestClientProtocol,
        _ page: Page,
        to action: String,
        _ fields: [(String, String)]
    ) async throws -> Page {
        var form = fields
        if let request = page.hiddenField("request") { form.append(("request", request)) }
        if let csrf = page.hiddenField("csrf") { form.append(("csrf", csrf)) }
        return try await send(client, action, method: .post, form: form)
    }

    /// Signs up through the sign-up page `page`: its email, then on the code step the code `peer` received last, the
    /// name and the password twice; returns the answer to the code step.
    mutating func signUp(
        _ client: any TestClientProtocol,
        from page: Page,
        email: String,
        name: String = "",
        password: String,
        mail peer: SMTPPeer
    ) async throws -> Page {
        let sent = try await submit(client, page, to: "/signup", [("email", email)])
        #expect(sent.body.contains("<h1>Confirm your email address</h1>"), "the code step")
        return try await submit(
            client, sent, to: "/signup",
            [
                ("code", try await peer.lastCode()), ("name", name), ("password", password),
                ("password-verify", password),
            ])
    }

    /// Makes this browser a guest through the `anonymous` flow's page and returns the guest's user ID.
    mutating func becomeGuest(_ fixture: SignInFixture) async throws -> String {
        let signIn = try await send(fixture.client, SignInFixture.authorizeURI())
        let requestID = try #require(signIn.hiddenField("request"))
        let page = try await send(fixture.client, "/login?flow=anonymous&request=\(requestID)")
        #expect(page.body.contains("<h1>Continue as a guest</h1>"))
        let done = try await submit(fixture.client, page, to: "/login", [("flow", "anonymous")])
        let code = try #require(done.redirect?.query["code"])
        let redeemed = try #require(
            try await fixture.provider.store.redeemedCode(hash: RandomIdentifier.hash(code), now: fixture.clock.now))
        #expect(try await fixture.provider.store.user(id: redeemed.subject)?.isAnonymous == true)
        return redeemed.subject
    }

    /// Signs in through the form `page` shows.
    mutating func signIn(
        _ client: any TestClientProtocol,
        from page: Page,
        email: String = SignInFixture.email,
        password: String = SignInFixture.password
    ) async throws -> Page {
        try await submit(client, page, to: "/login", [("email", email), ("password", password)])
    }
}

/// A response as a test reads it.
struct Page {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let body: String

    init(response: TestResponse) {
        self.init(status: response.status, headers: response.headers, body: response.body)
    }

    init(status: HTTPResponse.Status, headers: HTTPFields, body: ByteBuffer) {
        self.status = status
        self.headers = headers
        self.body = String(buffer: body)
    }

    /// Whether this is an HTML page.
    var isHTML: Bool { headers[.contentType]?.hasPrefix("text/html") == true }

    /// The body without the values of its hidden `request` and `csrf` fields, which differ from browser to browser.
    var withoutFormSecrets: String {
        body.replacingOccurrences(
            of: #"name="(request|csrf)" value="[^"]*""#, with: #"name="$1" value="""#, options: .regularExpression)
    }

    /// The value of a hidden form field.
    func hiddenField(_ name: String) -> String? {
        guard let range = body.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = body[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }

    /// The text of the page's `role="alert"` paragraph.
    var alert: String? {
        guard let range = body.range(of: "role=\"alert\""), let open = body[range.upperBound...].firstIndex(of: ">")
        else { return nil }
        let rest = body[body.index(after: open)...]
        return rest.range(of: "</p>").map { String(rest[..<$0.lowerBound]) }
    }

    /// The redirect's query parameters, with the redirect itself without its query.
    var redirect: (base: String, query: [String: String])? {
        guard status == .found, let location = headers[.location], var components = URLComponents(string: location)
        else { return nil }
        let query = Dictionary(
            (components.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        components.query = nil
        return (components.string ?? location, query)
    }
}
