import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// The `IDP` collector from canned answers: the press, the web session a scripted user agent plays, the checks of
/// its redirect and the continuation, and what is sent at each step (the wire contract of issue 13 §1).
@Suite("IDP collectors")
struct IdpCollectorTests {
    static let issuer = URL(string: "https://id.example")!
    static let start = issuer.appendingPathComponent("flows/sign-in")
    static let interaction = issuer.appendingPathComponent("flows/interactions/i1")
    static let token = issuer.appendingPathComponent("token")
    static let redirectURI = URL(string: "com.example.app:/callback")!
    static let upstream = URL(string: "https://upstream.example/authorize?state=up&nonce=n&code_challenge=c")!
    static let idpKey = "idp-glewlwyd"

    static let credentials = """
        {"type": "continue", "id": "credentials", "name": "Sign in", "description": "", "collectors": [
          {"type": "TEXT", "key": "email", "label": "Email"},
          {"type": "IDP", "key": "idp-glewlwyd", "label": "Continue with Glewlwyd", "required": false,
           "provider": "glewlwyd"},
          {"type": "SUBMIT_BUTTON", "key": "submit", "label": "Sign in"}]}
        """
    static let redirect = #"{"type": "redirect", "url": "\#(upstream)", "provider": "glewlwyd"}"#

    /// A started `sign-in` flow on the credentials step, its IDP collector, and the start's form (its `state`,
    /// `nonce` and `code_challenge`). The press of the IDP collector is answered with `pressAnswer`.
    struct Flow {
        let client: AuthClient
        let transport: RecordingTransport
        let step: ContinueNode
        let idp: IdpCollector
        let start: [String: String]

        /// The redirect URI with `query` (`state=…` is the flow's own state unless `query` sets it).
        func callback(_ query: String) -> URL {
            let state = query.contains("state=") ? "" : "&state=\(start["state"] ?? "")"
            return URL(string: "\(IdpCollectorTests.redirectURI)?\(query)\(state)")!
        }

        /// The JSON bodies posted to the interaction, in order.
        func interactionBodies() async throws -> [JSONValue] {
            try await transport.requests.filter { $0.url == IdpCollectorTests.interaction }.map {
                try JSONValue(parsing: $0.body ?? Data())
            }
        }
    }

    func flow(
        step: String = credentials,
        pressAnswer: String = redirect,
        issParameterSupported: Bool = true
    ) async throws -> Flow {
        let transport = RecordingTransport()
        await transport.respond(to: Self.start, json: #"{"interaction": "i1", "node": \#(step)}"#)
        await transport.respond(to: Self.interaction, json: #"{"interaction": "i1", "node": \#(pressAnswer)}"#)
        await transport.respond(
            to: Self.issuer.appendingPathComponent(".well-known/openid-configuration"),
            json: """
                {"issuer": "\(Self.issuer)", "authorization_endpoint": "\(Self.issuer)/authorize",
                 "token_endpoint": "\(Self.token)", "jwks_uri": "\(Self.issuer)/jwks",
                 "authorization_response_iss_parameter_supported": \(issParameterSupported)}
                """)
        let client = AuthClient(
            configuration: Configuration(
                issuer: Self.issuer, clientID: "app", redirectURI: Self.redirectURI, store: MemoryStore(),
                transport: transport))
        guard case .continue(let first) = await client.startFlow("sign-in") else {
            throw Failure(description: "the flow did not start on a step")
        }
        let idp = try #require(first.collectors.first { $0 is IdpCollector } as? IdpCollector)
        let form = FormEncoding.decode(String(decoding: await transport.requests.first?.body ?? Data(), as: UTF8.self))
        return Flow(
            client: client, transport: transport, step: first, idp: idp,
            start: Dictionary(form, uniquingKeysWith: { first, _ in first }))
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static func pressBody(values: [String: JSONValue] = [:]) -> JSONValue {
        .object([
            "node": "credentials", "action": .string(idpKey), "values": .object(values), "client_id": "app",
        ])
    }

    @Test("an IDP collector is typed, listed among the actions in order, with its label and provider")
    func collector() async throws {
        let flow = try await flow()
        #expect((flow.idp.type, flow.idp.key, flow.idp.label) == ("IDP", Self.idpKey, "Continue with Glewlwyd"))
        #expect(flow.idp.provider == "glewlwyd")
        #expect(flow.step.actions.map(\.key) == [Self.idpKey, "submit"])
        #expect(flow.step.fields.map(\.key) == ["email"])
    }

    @Test("a step and its IDP collector do not keep each other alive")
    func noCycle() async throws {
        weak var released: ContinueNode?
        do {
            let flow = try await flow()
            released = flow.step
        }
        #expect(released == nil)
    }

    @Test("the press opens the server's page, the callback's code continues the step, the success is redeemed")
    func signsIn() async throws {
        let flow = try await flow()
        let key = try await TestSigningKey.es256()
        let nonce = try #require(flow.start["nonce"])
        let now = Date().timeIntervalSince1970
        let idToken = try key.sign([
            "iss": .string(Self.issuer.absoluteString), "sub": "ada", "aud": "app", "nonce": .string(nonce),
            "iat": .number(now), "exp": .number(now + 3600), "email": "ada@example.com",
        ])
        let jwks = Self.issuer.appendingPathComponent("jwks")
        await flow.transport.respond(to: jwks, json: TestSigningKey.jwksJSON([key]))
        await flow.transport.respond(
            to: Self.token,
            json: #"{"access_token": "at", "token_type": "Bearer", "expires_in": 3600, "id_token": "\#(idToken)"}"#)
        let agent = ScriptedUserAgent { url, callback async throws(UserAgentError) in
            #expect(url == Self.upstream, "the redirect node's URL is opened as it is")
            #expect(callback == CallbackMatcher(redirectURI: Self.redirectURI), "waiting for the flow's redirect URI")
            await flow.transport.respond(
                to: Self.interaction,
                json: #"{"interaction": "i1", "node": {"type": "success", "code": "authz-1", "#
                    + #""state": "\#(flow.start["state"] ?? "")", "iss": "\#(Self.issuer)", "new_user": true}}"#)
            return flow.callback("code=continue-1&iss=\(Self.issuer)")
        }
        (flow.step.collectors[0] as? TextCollector)?.value = "typed, but not sent with the press"

        guard case .success(let success) = await flow.idp.authorize(using: agent) else {
            Issue.record("the flow did not succeed")
            return
        }
        #expect(success.user.id == "ada")
        #expect(success.userType == .new)
        #expect(flow.client.state.phase == .signedIn)
        #expect(
            try await flow.interactionBodies() == [
                Self.pressBody(), Self.pressBody(values: ["code": "continue-1"]),
            ])
        let exchange = try #require(await flow.transport.requests.first { $0.url == Self.token })
        let form = Dictionary(
            FormEncoding.decode(String(decoding: exchange.body ?? Data(), as: UTF8.self)),
            uniquingKeysWith: { first, _ in first })
        #expect(form["grant_type"] == "authorization_code")
        #expect(form["code"] == "authz-1")
        #expect(form["redirect_uri"] == Self.redirectURI.absoluteString)
        let verifier = try #require(form["code_verifier"])
        #expect(PKCE(verifier: verifier)?.challenge == flow.start["code_challenge"], "the flow's own verifier")
    }

    @Test(
        "a provider's error is the same step again, keyed by the IDP collector, values kept, nothing sent after",
        arguments: ["access_denied", "temporarily_unavailable"])
    func providerError(error: String) async throws {
        let flow = try await flow()
        (flow.step.collectors[0] as? TextCollector)?.value = "ada@example.com"
        let agent = ScriptedUserAgent { _, _ async throws(UserAgentError) in
            flow.callback("error=\(error)&error_description=no&iss=\(Self.issuer)")
        }
        guard case .error(let again) = await flow.idp.authorize(using: agent) else {
            Issue.record("not an error node")
            return
        }
        #expect(again.id == "credentials")
        #expect(again.details.map(\.key) == [Self.idpKey])
        #expect(again.details.map(\.code) == [error])
        #expect(!again.message.isEmpty)
        #expect((again.collectors[0] as? TextCollector)?.value == "ada@example.com")
        #expect(again.node !== flow.step, "a fresh node of the same step")
        #expect(again.collectors.contains { $0 is IdpCollector }, "another way can be chosen, or this one again")
        #expect(try await flow.interactionBodies() == [Self.pressBody()])
        #expect(await flow.transport.requestCount(for: Self.token) == 0)
    }

    @Test(
        "a web session that is cancelled or fails is the same step again with the user agent's code",
        arguments: [
            (UserAgentError.cancelled, "user_agent.cancelled"),
            (.presentationFailed("no window"), "user_agent.presentation_failed"),
            (.timedOut, "user_agent.timed_out"),
        ])
    func userAgentError(error: UserAgentError, code: String) async throws {
        let flow = try await flow()
        let agent = ScriptedUserAgent { _, _ async throws(UserAgentError) in throw error }
        guard case .error(let again) = await flow.idp.authorize(using: agent) else {
            Issue.record("not an error node")
            return
        }
        #expect(again.id == "credentials")
        #expect(again.details == [FlowErrorDetail(key: Self.idpKey, code: code, message: again.message)])
        #expect(try await flow.interactionBodies() == [Self.pressBody()])
    }

    @Test(
        "a callback with another state or issuer is a failure, and its code or error is never sent",
        arguments: [
            ("code=continue-1&state=forged&iss=https://id.example", AuthorizationResponseError.stateMismatch),
            ("error=access_denied&state=forged&iss=https://id.example", .stateMismatch),
            (
                "code=continue-1&iss=https://evil.example",
                .issuerMismatch(expected: "https://id.example", actual: "https://evil.example")
            ),
            ("code=continue-1", .missingIssuer),
        ])
    func forgedCallback(query: String, refusal: AuthorizationResponseError) async throws {
        let flow = try await flow()
        let agent = ScriptedUserAgent { _, _ async throws(UserAgentError) in flow.callback(query) }
        guard case .failure(let failure) = await flow.idp.authorize(using: agent) else {
            Issue.record("not a failure node")
            return
        }
        #expect(failure.cause == .client(.protocolViolation(.authorizationResponse(refusal))))
        #expect(try await flow.interactionBodies() == [Self.pressBody()])
    }

    @Test("without iss from a provider that does not promise it, the callback's code continues the step")
    func issuerOptional() async throws {
        let flow = try await flow(issParameterSupported: false)
        let agent = ScriptedUserAgent { _, _ async throws(UserAgentError) in
            await flow.transport.respond(
                to: Self.interaction, json: #"{"interaction": "i1", "node": \#(Self.credentials)}"#)
            return flow.callback("code=continue-1")
        }
        guard case .continue = await flow.idp.authorize(using: agent) else {
            Issue.record("not a continue node")
            return
        }
        #expect(
            try await flow.interactionBodies() == [Self.pressBody(), Self.pressBody(values: ["code": "continue-1"])])
    }

    @Test("a press answered with another node than a redirect is that node, and no page is opened")
    func pressRefused() async throws {
        let refusal = """
            {"type": "error", "id": "credentials", "message": "Unavailable", "collectors": \(Self.credentialsCollectors),
             "details": [{"key": "idp-glewlwyd", "code": "provider_unavailable", "message": "Unavailable"}]}
            """
        let flow = try await flow(pressAnswer: refusal)
        (flow.step.collectors[0] as? TextCollector)?.value = "ada@example.com"
        let agent = ScriptedUserAgent { _, _ async throws(UserAgentError) in
            Issue.record("a page was opened")
            throw .cancelled
        }
        guard case .error(let error) = await flow.idp.authorize(using: agent) else {
            Issue.record("not an error node")
            return
        }
        #expect(error.details.map(\.code) == ["provider_unavailable"])
        #expect((error.collectors[0] as? TextCollector)?.value == "ada@example.com")
    }

    @Test("next(action:) with an IDP collector's key is the same step with user_agent_required, nothing sent")
    func needsUserAgent() async throws {
        let flow = try await flow()
        guard case .error(let again) = await flow.step.next(action: Self.idpKey) else {
            Issue.record("not an error node")
            return
        }
        #expect(again.id == "credentials")
        #expect(again.details.map(\.key) == [Self.idpKey])
        #expect(again.details.map(\.code) == ["user_agent_required"])
        #expect(await flow.transport.requests.count == 1, "only the start was sent")
    }

    @Test("next() never presses an IDP collector, even the first action")
    func nextSkipsIdp() async throws {
        let step = """
            {"type": "continue", "id": "credentials", "collectors": [
              {"type": "IDP", "key": "idp-glewlwyd", "label": "Continue with Glewlwyd", "provider": "glewlwyd"},
              {"type": "FLOW_LINK", "key": "sign-up", "label": "Create an account"}]}
            """
        let flow = try await flow(step: step, pressAnswer: Self.credentials)
        _ = await flow.step.next()
        let sent = try await flow.interactionBodies()
        #expect(sent.map { $0.objectValue?["action"] } == [.string("sign-up")])
    }

    @Test("a redirect node answering a start or a submit is a failure: only an IDP press is answered so")
    func unexpectedRedirect() async throws {
        let flow = try await flow()
        guard case .failure(let failure) = await flow.step.next() else {
            Issue.record("not a failure node")
            return
        }
        #expect(failure.cause == .invalidResponse("unexpected redirect node"))
    }

    static let credentialsCollectors = """
        [{"type": "TEXT", "key": "email", "label": "Email"},
         {"type": "IDP", "key": "idp-glewlwyd", "label": "Continue with Glewlwyd", "provider": "glewlwyd"}]
        """
}

/// A user agent whose page is played by a closure: it gets the URL to open and the redirect to wait for.
private struct ScriptedUserAgent: UserAgent {
    let play: @Sendable (URL, CallbackMatcher) async throws(UserAgentError) -> URL

    func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
        try await play(url, callback)
    }
}
