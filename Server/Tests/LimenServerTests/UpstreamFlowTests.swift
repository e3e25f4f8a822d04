import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// A flow fixture whose server offers the stand-in issuer as upstream provider `standin`, and the steps of a native
/// app's `IDP` collector: the press, the web session at the stand-in and back through Limen, the continuation.
private struct NativeUpstream: Sendable {
    static let key = "idp-standin"

    let fixture: TokenFixture
    let standIn: StandInIssuer

    /// Runs `body` with the stand-in and a flow fixture offering it.
    static func with(
        on backend: TokenBackend = .sqlite,
        signUpEnabled: Bool = true,
        _ body: @escaping @Sendable (NativeUpstream) async throws -> Void
    ) async throws {
        try await StandInIssuer.with(now: TestNow().now) { standIn in
            let entry = standIn.upstreamEntry()
            try await FlowFixture.run(
                on: backend,
                configure: {
                    $0.identityProviders = [entry]
                    $0.signUpEnabled = signUpEnabled
                }
            ) { fixture in
                try await body(NativeUpstream(fixture: fixture, standIn: standIn))
            }
        }
    }

    /// Starts `sign-in` for `client` (with `bearer`, the signed-in user's access token) and presses the IDP
    /// collector; the interaction and the answer.
    func press(client: String = "app", bearer: String? = nil) async throws -> (id: String, answer: RecordedResponse) {
        var fields = TokenFixture.appStartFields()
        fields[0] = ("client_id", client)
        let started = try await fixture.post(
            "/flows/sign-in", fields, headers: bearer.map { [.authorization: "Bearer \($0)"] } ?? [:])
        let id = try #require(started["interaction"])
        return (id, try await fixture.continueFlow(id, node: "credentials", action: Self.key))
    }

    /// What the web session does with a `redirect` node: the stand-in signs the person in and sends the browser to
    /// Limen's callback; the path of that callback.
    func callbackPath(of answer: RecordedResponse) async throws -> String {
        #expect(answer.status == .ok)
        #expect(answer.nodeType == "redirect")
        #expect(answer.node["provider"]?.stringValue == "standin")
        let url = try #require(answer.node["url"]?.stringValue)
        #expect(url.hasPrefix(standIn.issuer + "/authorize?"))
        let upstream = try await URLSessionTransport.forLiveTests().send(
            HTTPRequest(url: try #require(URL(string: url))))
        let back = try #require(upstream.header("Location"))
        let issuer = fixture.provider.issuer.current
        #expect(back.hasPrefix(issuer + "/federation/standin/callback?"), "\(back)")
        return String(back.dropFirst(issuer.count))
    }

    /// Limen's answer to the callback at `path`: where it sends the web session back to, as parts.
    func returnToApp(_ path: String) async throws -> (base: String, query: [String: String]) {
        let answer = try await fixture.get(path)
        #expect(answer.status == .found)
        let location = try #require(answer.headers[.location])
        let parts = location.split(separator: "?", maxSplits: 1).map(String.init)
        let query = Dictionary(FormEncoding.decode(parts.count > 1 ? parts[1] : ""), uniquingKeysWith: { $1 })
        return (parts[0], query)
    }

    /// Presses, signs in upstream and comes back; the interaction and the code the app received.
    func signInUpstream(client: String = "app", bearer: String? = nil) async throws -> (id: String, code: String) {
        let (id, answer) = try await press(client: client, bearer: bearer)
        let back = try await returnToApp(try await callbackPath(of: answer))
        #expect(back.base == TokenFixture.nativeRedirect)
        #expect(back.query["state"] == "s-1")
        #expect(back.query["iss"] == fixture.provider.issuer.current)
        return (id, try #require(back.query["code"]))
    }

    /// Continues interaction `id` with the code the app received.
    func continueWith(_ id: String, code: String) async throws -> RecordedResponse {
        try await fixture.continueFlow(id, node: "credentials", action: Self.key, values: ["code": .string(code)])
    }

    /// Redeems a success node's code for the `app` client; the subject of the ID token.
    func subject(redeeming success: RecordedResponse, client: String = "app") async throws -> String {
        #expect(success.nodeType == "success")
        let tokens = try await fixture.redeem(try #require(success.node["code"]?.stringValue), clientID: client)
        #expect(tokens.status == .ok)
        return try TokenFixture.subject(of: tokens)
    }

    /// The identity kind of the stand-in's people.
    var kind: String { TrustedIssuer.identityKind(issuer: standIn.issuer) }
}

@Suite("The IDP collector: upstream providers in native flows, through the platform's web session")
struct UpstreamFlowTests {
    @Test("the sign-in flow's first node offers each configured provider as an IDP collector")
    func offered() async throws {
        try await NativeUpstream.with { upstream in
            let started = try await upstream.fixture.startFlow("sign-in")
            let idp = try #require(started.collectors.first { $0["type"]?.stringValue == "IDP" })
            #expect(
                idp == [
                    "type": .string("IDP"), "key": .string(NativeUpstream.key),
                    "label": .string("Continue with Stand-in ID"),
                    "required": .bool(false), "provider": .string("standin"),
                ])
        }
    }

    @Test(
        "press, sign in upstream, come back with a code, continue: a new user linked to the upstream identity",
        arguments: TokenBackend.allCases)
    func newUser(backend: TokenBackend) async throws {
        try await NativeUpstream.with(on: backend) { upstream in
            upstream.standIn.upstream.next { ($0.email, $0.emailVerified) = ("new@example.com", true) }
            let (id, code) = try await upstream.signInUpstream()
            let success = try await upstream.continueWith(id, code: code)
            #expect(success.node["new_user"] == .bool(true))
            #expect(success.node["state"]?.stringValue == "s-1")
            let subject = try await upstream.subject(redeeming: success)
            let store = upstream.fixture.provider.store
            #expect(try await store.user(identityKind: upstream.kind, subject: "upstream-user-1")?.id == subject)
            #expect(try await store.user(id: subject)?.email == "new@example.com")
        }
    }

    @Test("the start's action presses the IDP collector at once; a second sign-in is the same user")
    func startPressing() async throws {
        try await NativeUpstream.with { upstream in
            let first = try await upstream.signInUpstream()
            let created = try await upstream.subject(
                redeeming: try await upstream.continueWith(first.id, code: first.code))
            let started = try await upstream.fixture.startFlow("sign-in", pressing: NativeUpstream.key)
            let id = try #require(started["interaction"])
            let back = try await upstream.returnToApp(try await upstream.callbackPath(of: started))
            let success = try await upstream.continueWith(id, code: try #require(back.query["code"]))
            #expect(success.node["new_user"] == .bool(false))
            #expect(try await upstream.subject(redeeming: success) == created)
        }
    }

    @Test(
        "a wrong code is refused on the button and spends nothing; the right one works once",
        arguments: TokenBackend.allCases)
    func continuationCode(backend: TokenBackend) async throws {
        try await NativeUpstream.with(on: backend) { upstream in
            let (id, code) = try await upstream.signInUpstream()
            let wrong = try await upstream.continueWith(id, code: RandomIdentifier.make())
            #expect(wrong.nodeType == "error")
            #expect(wrong.detailCodes == [NativeUpstream.key: [FlowFederationStep.invalidCode]])
            let success = try await upstream.continueWith(id, code: code)
            #expect(success.nodeType == "success")
            let replay = try await upstream.continueWith(id, code: code)
            #expect(replay.status == .conflict)
            #expect(replay.nodeType == "failure")
        }
    }

    @Test("a code of one interaction does not continue another")
    func codeOfAnotherInteraction() async throws {
        try await NativeUpstream.with { upstream in
            let (_, code) = try await upstream.signInUpstream()
            let (other, _) = try await upstream.press()
            let refused = try await upstream.continueWith(other, code: code)
            #expect(refused.detailCodes == [NativeUpstream.key: [FlowFederationStep.invalidCode]])
        }
    }

    @Test("a replayed upstream callback is refused with a page, not a second code")
    func replayedCallback() async throws {
        try await NativeUpstream.with { upstream in
            let (_, answer) = try await upstream.press()
            let path = try await upstream.callbackPath(of: answer)
            _ = try await upstream.returnToApp(path)
            let replay = try await upstream.fixture.get(path)
            #expect(replay.status == .badRequest)
            #expect(replay.headers[.location] == nil)
        }
    }

    @Test(
        "a refusal upstream or a bad ID token returns to the app with error=access_denied; the interaction goes on",
        arguments: [StandInUpstream.Tamper.denied, .signature, .nonce, .audience])
    func refusedUpstream(tamper: StandInUpstream.Tamper) async throws {
        try await NativeUpstream.with { upstream in
            upstream.standIn.upstream.next { $0.tamper = tamper }
            let (id, answer) = try await upstream.press()
            let back = try await upstream.returnToApp(try await upstream.callbackPath(of: answer))
            #expect(back.base == TokenFixture.nativeRedirect)
            #expect(back.query["error"] == "access_denied")
            #expect(back.query["state"] == "s-1")
            #expect(back.query["code"] == nil)
            let store = upstream.fixture.provider.store
            #expect(try await store.user(identityKind: upstream.kind, subject: "upstream-user-1") == nil)
            let password = try await upstream.fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
            #expect(password.nodeType == "success")
        }
    }

    @Test("with sign-up turned off a new upstream identity ends the interaction with sign_up_disabled")
    func signUpOff() async throws {
        try await NativeUpstream.with(signUpEnabled: false) { upstream in
            let (id, code) = try await upstream.signInUpstream()
            let refused = try await upstream.continueWith(id, code: code)
            #expect(refused.status == .forbidden)
            #expect(refused.node["code"]?.stringValue == FlowActionRunner.signUpDisabled.code)
            let store = upstream.fixture.provider.store
            #expect(try await store.user(identityKind: upstream.kind, subject: "upstream-user-1") == nil)
        }
    }

    @Test("a guest signed in on the device keeps their user ID: the upstream identity is linked to them (case 1)")
    func guestUpgrade() async throws {
        try await NativeUpstream.with { upstream in
            let guestTokens = try await upstream.fixture.guestTokens()
            let guest = try TokenFixture.subject(of: guestTokens)
            let (id, code) = try await upstream.signInUpstream(bearer: try TokenFixture.accessToken(guestTokens))
            let success = try await upstream.continueWith(id, code: code)
            #expect(try await upstream.subject(redeeming: success) == guest)
            let store = upstream.fixture.provider.store
            #expect(try await store.user(identityKind: upstream.kind, subject: "upstream-user-1")?.id == guest)
        }
    }

    @Test("an upstream attempt's record cannot be continued as an interaction")
    func attemptIsNoInteraction() async throws {
        try await NativeUpstream.with { upstream in
            let (_, answer) = try await upstream.press()
            let location = try #require(answer.node["url"]?.stringValue)
            let url = try #require(URLComponents(string: location))
            let state = try #require(url.queryItems?.first { $0.name == "state" }?.value)
            let refused = try await upstream.fixture.continueFlow(
                "federation." + state, node: "callback", action: NativeUpstream.key)
            #expect(refused.status == .notFound)
        }
    }
}

@Suite("IDP collectors in flow definitions")
struct IDPCollectorDefinitionTests {
    private static func parse(_ collector: String) throws -> FlowDefinition {
        try FlowDefinitionParser(source: "test").parse(
            """
            id: partner
            start: choose
            nodes:
              - id: choose
                name: Choose
                collectors:
                  - \(collector)
            """)
    }

    @Test("an IDP collector names its provider")
    func parsed() throws {
        let flow = try Self.parse("{type: IDP, key: partner, label: Continue with Partner, provider: partner-id}")
        #expect(flow.nodes[0].collectors[0].behaviour == .federate(provider: "partner-id"))
    }

    @Test(
        "an IDP collector without a provider, with actions, or a provider on another type is refused",
        arguments: [
            "{type: IDP, key: partner, label: Continue with Partner}",
            "{type: IDP, key: partner, label: Continue, provider: p, actions: [complete]}",
            "{type: IDP, key: partner, label: Continue, provider: p, next: choose}",
            "{type: SUBMIT_BUTTON, key: go, label: Go, actions: [complete], provider: p}",
        ])
    func refused(collector: String) {
        #expect(throws: FlowDefinitionError.self) { try Self.parse(collector) }
    }

    @Test("a flow naming a provider that is not configured is refused at start, naming the collector")
    func unknownProvider() throws {
        let flow = try Self.parse("{type: IDP, key: partner, label: Continue with Partner, provider: partner-id}")
        let catalog = FlowCatalog(flows: [flow.id: flow])
        let configured = IdentityProvider(
            id: "partner-id", displayName: "Partner", issuer: "https://id.partner.example", clientID: "limen")
        try catalog.checkProviders([configured])
        let error = try #require(throws: FlowDefinitionError.self) { try catalog.checkProviders([]) }
        #expect(error.path == "nodes[0].collectors[0].provider")
    }

    @Test("the sign-in flow offers each provider once, in the configuration's order")
    func injected() throws {
        let providers = ["a", "b"].map {
            IdentityProvider(id: $0, displayName: $0.uppercased(), issuer: "https://\($0).example", clientID: "limen")
        }
        let offered = FlowCatalog.builtIn.withUpstreamProviders(providers).withUpstreamProviders(providers)
        let start = try #require(offered.flows["sign-in"]?.node("credentials"))
        #expect(start.collectors.filter { $0.type == .idp }.map(\.key) == ["idp-a", "idp-b"])
    }
}
