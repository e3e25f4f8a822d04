import Foundation
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The SDK's device flow against the real server")
struct DeviceLiveTests {
    @Test("the SDK polls the live server while the person approves its code through the pages; tokens validate")
    func sdkDeviceFlow() async throws {
        let clock = TestNow(Date(timeIntervalSince1970: Date().timeIntervalSince1970.rounded(.down)))
        let now: @Sendable () -> Date = { clock.now }
        try await withLiveServer(now: now) { provider, issuer in
            _ = try await provider.accounts.signUp(
                email: SignInFixture.email, password: SignInFixture.password, name: "Ada", origin: RequestOrigin())
            let transport = URLSessionTransport.forLiveTests()
            let metadata = try await ProviderDiscovery.fetch(
                issuer: try #require(URL(string: issuer)), transport: transport)
            let tokens = TokenClient(
                metadata: metadata, authentication: .none(clientID: "limen-cli"), transport: transport)
            let authorization = try await tokens.authorizeDevice(scopes: ["profile", "offline_access"])
            #expect(authorization.verificationURI.absoluteString == issuer + "/device")

            // The device's waits pass on the provider's clock; after its first poll it waits for the approval.
            let gate = PollingGate()
            // Each wait of the device moves the provider's clock on by its length, then waits at the gate.
            let waits = TestClock { duration in
                let (seconds, attoseconds) = duration.components
                clock.advance(by: (Double(seconds) + Double(attoseconds) / 1e18).rounded())
                await gate.sleep()
            }
            async let polled = tokens.pollDeviceToken(authorization, now: { clock.now }, clock: waits)
            await gate.waitForFirstPoll()
            do {
                #expect(
                    try await provider.store.deviceAuthorization(
                        deviceCodeHash: RandomIdentifier.hash(authorization.deviceCode))?.lastPolledAt != nil)

                var browser = LiveBrowser(issuer: issuer, transport: transport)
                let linked = try #require(authorization.verificationURIComplete?.absoluteString)
                let codePage = try await browser.get(String(linked.dropFirst(issuer.count)))
                #expect(codePage.contains(authorization.userCode))
                let signIn = try await browser.submit(codePage, to: "/device", [("user_code", authorization.userCode)])
                let confirmation = try await browser.submit(
                    signIn, to: "/login", [("email", SignInFixture.email), ("password", SignInFixture.password)])
                #expect(confirmation.contains("id=\"device-request\""))
                let done = try await browser.submit(confirmation, to: "/consent", [("decision", "allow")])
                #expect(done.contains("Device connected"))
            } catch {
                await gate.open()  // the device stops polling once its code expires on the test clock
                _ = try? await polled
                throw error
            }
            await gate.open()

            let response = try await polled
            #expect(response.refreshToken != nil)
            let validator = IDTokenValidator(
                issuer: issuer, clientID: "limen-cli",
                keys: JWKSCache(jwksURI: try #require(metadata.jwksURI), transport: transport, now: { clock.now }),
                now: { clock.now })
            let claims = try await validator.validate(
                try #require(response.idToken), nonce: nil, accessToken: response.accessToken)
            #expect(try await provider.store.user(id: claims.subject)?.email == SignInFixture.email)
        }
    }
}

/// Lets the device's first poll through, then holds its next wait until the test has approved the code.
private actor PollingGate {
    private var sleeps = 0
    private var isOpen = false
    private var openWaiters: [CheckedContinuation<Void, Never>] = []
    private var pollWaiters: [CheckedContinuation<Void, Never>] = []

    /// One wait of the device: the first passes; later ones mean a poll happened, and wait for ``open()``.
    func sleep() async {
        sleeps += 1
        guard sleeps > 1 else { return }
        for waiter in pollWaiters { waiter.resume() }
        pollWaiters = []
        if !isOpen { await withCheckedContinuation { openWaiters.append($0) } }
    }

    /// Returns once the device has polled at least once.
    func waitForFirstPoll() async {
        if sleeps > 1 { return }
        await withCheckedContinuation { pollWaiters.append($0) }
    }

    /// Lets the device poll again.
    func open() {
        isOpen = true
        for waiter in openWaiters { waiter.resume() }
        openWaiters = []
    }
}

/// A browser over real HTTP: keeps the two cookies the pages set (the transport stores none) and fills forms.
private struct LiveBrowser {
    let issuer: String
    let transport: URLSessionTransport
    private var cookies: [String: String] = [:]

    init(issuer: String, transport: URLSessionTransport) {
        self.issuer = issuer
        self.transport = transport
    }

    /// `GET path`; the page's HTML.
    mutating func get(_ path: String) async throws -> String {
        try await send(HTTPRequest(url: try #require(URL(string: issuer + path))))
    }

    /// Posts `fields` with the page's hidden `request` and `csrf` fields to `path`; the next page's HTML.
    mutating func submit(_ page: String, to path: String, _ fields: [(String, String)]) async throws -> String {
        var form = fields
        for name in ["request", "csrf"] {
            if let value = Self.hiddenField(name, in: page) { form.append((name, value)) }
        }
        return try await send(
            HTTPRequest(
                method: "POST", url: try #require(URL(string: issuer + path)),
                headers: ["Content-Type": "application/x-www-form-urlencoded"],
                body: Data(FormEncoding.encode(form).utf8)))
    }

    private mutating func send(_ request: HTTPRequest) async throws -> String {
        var request = request
        if !cookies.isEmpty {
            request.headers["Cookie"] = cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                .joined(separator: "; ")
        }
        let response = try await transport.send(request)
        #expect(response.status == 200)
        // FoundationNetworking may fold several Set-Cookie lines into one; the values are base64url.
        let setCookie = response.header("Set-Cookie") ?? ""
        for name in [CSRFToken.cookieName, BrowserSessions.cookieName] {
            if let range = setCookie.range(of: "\(name)=[A-Za-z0-9_-]+", options: .regularExpression) {
                cookies[name] = String(setCookie[range].dropFirst(name.count + 1))
            }
        }
        return String(decoding: response.body, as: UTF8.self)
    }

    private static func hiddenField(_ name: String, in page: String) -> String? {
        guard let range = page.range(of: "name=\"\(name)\" value=\"") else { return nil }
        let rest = page[range.upperBound...]
        return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
    }
}
