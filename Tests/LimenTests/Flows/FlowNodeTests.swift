import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// Nodes and collectors from canned answers: what `startFlow` and `next` make of each node and collector type, and
/// what they send.
@Suite("Flow nodes")
struct FlowNodeTests {
    static let issuer = URL(string: "https://id.example")!
    static let start = issuer.appendingPathComponent("flows/test")
    static let interaction = issuer.appendingPathComponent("flows/interactions/i1")

    /// A client whose transport answers the flow start with `node` (JSON) and records what it is sent.
    func client(answering node: String, status: Int = 200) async -> (AuthClient, RecordingTransport) {
        let transport = RecordingTransport()
        await transport.respond(to: Self.start, json: #"{"interaction": "i1", "node": \#(node)}"#, status: status)
        let client = AuthClient(
            configuration: Configuration(
                issuer: Self.issuer, clientID: "app", redirectURI: URL(string: "com.example.app:/callback"),
                store: MemoryStore(), transport: transport))
        return (client, transport)
    }

    func step(_ collectors: String) -> String {
        #"{"type": "continue", "id": "n", "name": "N", "description": "D", "collectors": [\#(collectors)]}"#
    }

    func continued(_ node: Node) throws -> ContinueNode {
        guard case .continue(let step) = node else { throw Failure(description: "not a continue node: \(node)") }
        return step
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let everyType = """
        {"type": "LABEL", "key": "intro", "label": "Welcome"},
        {"type": "TEXT", "key": "email", "label": "Email", "required": true, "value": "ada@example.com",
         "validation": {"regex": "[^@ ]+@[^@ ]+", "message": "Enter an email address."}},
        {"type": "PASSWORD", "key": "password", "label": "Password", "required": true,
         "policy": {"length": {"min": 8, "max": 64}, "min_unique_characters": 0, "max_repeated_characters": 0,
                    "min_characters": {"lowercase": 0, "uppercase": 0, "digits": 1, "special": 0}}},
        {"type": "PASSWORD_VERIFY", "key": "password-verify", "label": "Again", "required": true},
        {"type": "DROPDOWN", "key": "country", "label": "Country", "options": [{"label": "France", "value": "fr"}]},
        {"type": "RADIO", "key": "plan", "label": "Plan", "required": true,
         "options": [{"label": "Free", "value": "free"}, {"label": "Pro", "value": "pro"}]},
        {"type": "COMBOBOX", "key": "topics", "label": "Topics", "options": [{"label": "A", "value": "a"}]},
        {"type": "CHECKBOX", "key": "news", "label": "News", "options": [{"label": "Weekly", "value": "weekly"}]},
        {"type": "CHECKBOX", "key": "terms", "label": "I accept the terms", "required": true},
        {"type": "PASSKEY", "key": "passkey", "label": "Use a passkey", "mode": "authenticate",
         "options": {"challenge": "Y2g", "allowCredentials": []}},
        {"type": "SLIDER", "key": "volume", "label": "Volume"},
        {"type": "SUBMIT_BUTTON", "key": "submit", "label": "Create"},
        {"type": "FLOW_BUTTON", "key": "other", "label": "Other"},
        {"type": "FLOW_LINK", "key": "sign-in", "label": "Sign in instead"}
        """

    @Test("each collector type becomes its typed collector; a type from a newer server an UnknownCollector")
    func collectorTypes() async throws {
        let (client, _) = await client(answering: step(Self.everyType))
        let node = try continued(await client.startFlow("test"))
        #expect((node.id, node.name, node.description) == ("n", "N", "D"))
        let kinds = node.collectors.map { String(describing: type(of: $0)) }
        #expect(
            kinds == [
                "LabelCollector", "TextCollector", "PasswordCollector", "PasswordCollector", "SingleSelectCollector",
                "SingleSelectCollector", "MultiSelectCollector", "MultiSelectCollector", "CheckboxCollector",
                "PasskeyCollector", "UnknownCollector", "ButtonCollector<SubmitAction>", "ButtonCollector<FlowAction>",
                "ButtonCollector<FlowAction>",
            ])
        #expect((node.collectors[0] as? LabelCollector)?.content == "Welcome")
        #expect((node.collectors[1] as? TextCollector)?.value == "ada@example.com", "the server's value is kept")
        #expect((node.collectors[2] as? PasswordCollector)?.passwordPolicy()?.length == 8...64)
        #expect((node.collectors[3] as? PasswordCollector)?.isVerification == true)
        #expect((node.collectors[5] as? SingleSelectCollector)?.options.map(\.value) == ["free", "pro"])
        #expect((node.collectors[9] as? PasskeyCollector)?.mode == .authenticate)
        #expect((node.collectors[10] as? UnknownCollector)?.type == "SLIDER")
        #expect(node.actions.map(\.key) == ["submit", "other", "sign-in"])
        #expect(node.collectors[11] is SubmitCollector && !(node.collectors[12] is SubmitCollector))
    }

    @Test("a LABEL keeps the server's value (a setup key, recovery codes) and shows it under its caption")
    func labelValues() async throws {
        let (client, _) = await client(
            answering: step(
                #"""
                {"type": "LABEL", "key": "intro", "label": "Welcome"},
                {"type": "LABEL", "key": "secret", "label": "Setup key", "value": "JBSWY3DPEHPK3PXP"},
                {"type": "LABEL", "key": "recovery_codes", "label": "Recovery codes", "value": "aaaa-bbbb\ncccc-dddd"}
                """#))
        let labels = try continued(await client.startFlow("test")).collectors.compactMap { $0 as? LabelCollector }
        #expect(labels.map(\.value) == [nil, "JBSWY3DPEHPK3PXP", "aaaa-bbbb\ncccc-dddd"])
        #expect(
            labels.map(\.content) == ["Welcome", "Setup key\nJBSWY3DPEHPK3PXP", "Recovery codes\naaaa-bbbb\ncccc-dddd"])
    }

    @Test("validate() checks required, regex, the policy, the repeated password, the options and the box")
    func validation() async throws {
        let (client, _) = await client(answering: step(Self.everyType))
        let node = try continued(await client.startFlow("test"))
        let email = try #require(node.collectors[1] as? TextCollector)
        let password = try #require(node.collectors[2] as? PasswordCollector)
        let verify = try #require(node.collectors[3] as? PasswordCollector)
        let country = try #require(node.collectors[4] as? SingleSelectCollector)
        let plan = try #require(node.collectors[5] as? SingleSelectCollector)
        let topics = try #require(node.collectors[6] as? MultiSelectCollector)
        let terms = try #require(node.collectors[8] as? CheckboxCollector)

        #expect(email.validate().isEmpty)
        email.value = "not an address"
        #expect(email.validate() == [.regex("[^@ ]+@[^@ ]+", message: "Enter an email address.")])
        email.value = ""
        #expect(email.validate() == [.required])
        email.value = String(repeating: "a", count: 1025)
        #expect(email.validate() == [.tooLong(max: 1024)])

        #expect(password.validate() == [.required])
        password.value = "short"
        #expect(
            password.validate() == [.invalidLength(min: 8, max: 64), .minCharacters(.init(digits: 1))])
        password.value = "long enough 1"
        #expect(password.validate().isEmpty)
        verify.value = "long enough 2"
        #expect(verify.validate() == [.passwordMismatch])
        verify.value = "long enough 1"
        #expect(verify.validate().isEmpty, "the repeated password carries no policy of its own")

        #expect(country.validate().isEmpty, "an optional choice may stay empty")
        #expect(plan.validate() == [.required])
        plan.value = "gold"
        #expect(plan.validate() == [.invalidOption])
        plan.value = "pro"
        #expect(plan.validate().isEmpty)
        topics.value = ["a", "a"]
        #expect(topics.validate() == [.invalidOption], "a choice made twice")
        topics.value = ["b"]
        #expect(topics.validate() == [.invalidOption])
        #expect(terms.validate() == [.required])
        terms.value = true
        #expect(terms.validate().isEmpty)

        #expect(Set(node.validate().keys) == ["email", "topics"])
    }

    @Test("next() sends the node, the pressed button and the non-empty values, then shows the answer")
    func submission() async throws {
        let (client, transport) = await client(answering: step(Self.everyType))
        await transport.respond(
            to: Self.interaction,
            json: #"{"interaction": "i1", "node": \#(step(#"{"type": "LABEL", "key": "done"}"#))}"#)
        let node = try continued(await client.startFlow("test"))
        (node.collectors[2] as? PasswordCollector)?.value = "pw"
        (node.collectors[6] as? MultiSelectCollector)?.value = ["a"]
        (node.collectors[8] as? CheckboxCollector)?.value = true
        (node.collectors[9] as? PasskeyCollector)?.value = .object(["id": .string("credential")])
        (node.collectors[13] as? FlowCollector)?.value = "pressed"
        let next = try continued(await node.next())
        #expect(next.collectors.map(\.key) == ["done"])

        let requests = await transport.requests
        let start = try #require(requests.first)
        let form = Dictionary(
            uniqueKeysWithValues: FormEncoding.decode(String(decoding: start.body ?? Data(), as: UTF8.self)))
        #expect(
            Set(form.keys) == [
                "client_id", "redirect_uri", "scope", "state", "nonce", "code_challenge", "code_challenge_method",
            ])
        #expect(form["code_challenge_method"] == "S256")
        let body = try JSONValue(parsing: try #require(requests.last?.body))
        #expect(
            body
                == .object([
                    "node": .string("n"), "action": .string("sign-in"), "client_id": .string("app"),
                    "values": .object([
                        "email": .string("ada@example.com"), "password": .string("pw"),
                        "topics": .array([.string("a")]),
                        "terms": .bool(true), "passkey": .object(["id": .string("credential")]),
                    ]),
                ]))
    }

    @Test("an error node keeps the values sent, so only the wrong field needs changing")
    func errorKeepsValues() async throws {
        let fields = #"{"type": "TEXT", "key": "email", "label": "Email"}, {"type": "PASSWORD", "key": "password"}"#
        let (client, transport) = await client(answering: step(fields))
        await transport.respond(
            to: Self.interaction,
            json: """
                {"interaction": "i1", "node": {"type": "error", "id": "n", "message": "Wrong", "collectors": [\(fields)],
                 "details": [{"key": "", "code": "invalid_credentials", "message": "The email address or password is wrong."}]}}
                """, status: 401)
        let node = try continued(await client.startFlow("test"))
        (node.collectors[0] as? TextCollector)?.value = "ada@example.com"
        (node.collectors[1] as? PasswordCollector)?.value = "wrong"
        guard case .error(let error) = await node.next() else {
            Issue.record("not an error node")
            return
        }
        #expect(error.message == "Wrong")
        #expect(error.details.map(\.code) == ["invalid_credentials"])
        #expect((error.collectors[0] as? TextCollector)?.value == "ada@example.com")
        #expect((error.collectors[1] as? PasswordCollector)?.value == "wrong")
        #expect(client.state.phase != .signedIn)
    }

    @Test("a dropped connection mid-flow is a failure node with the network cause")
    func networkDrop() async throws {
        let (client, transport) = await client(answering: step(#"{"type": "SUBMIT_BUTTON", "key": "submit"}"#))
        await transport.fail(Self.interaction, with: .connectionLost("the server closed the connection"))
        let node = try continued(await client.startFlow("test"))
        guard case .failure(let failure) = await node.next() else {
            Issue.record("not a failure node")
            return
        }
        #expect(failure.cause == .network(.connectionLost("the server closed the connection")))
        #expect(failure.code == "network.connection_lost")
        #expect(failure.cause.isRetryable)
    }

    @Test(
        "failures: the server's, a newer node type, a redirect no IDP press asked for, an unreadable answer, a 5xx",
        arguments: [
            (
                #"{"type": "failure", "code": "too_many_attempts", "message": "Later"}"#, 429,
                FlowError.server(code: "too_many_attempts", message: "Later")
            ),
            (#"{"type": "passkey"}"#, 200, .unsupportedNode("passkey")),
            (#"{"type": "redirect", "url": "https://up.example"}"#, 200, .invalidResponse("unexpected redirect node")),
            (#"{"type": "continue"}"#, 200, .invalidResponse("missing node.id")),
            (#"0"#, 502, .network(.httpStatus(502))),
        ]
    )
    func failures(node: String, status: Int, cause: FlowError) async throws {
        let (client, _) = await client(answering: node, status: status)
        guard case .failure(let failure) = await client.startFlow("test") else {
            Issue.record("not a failure node")
            return
        }
        #expect(failure.cause == cause)
    }

    @Test("a success whose state is not this flow's is refused: no session, signInFailed")
    func stateMismatch() async throws {
        let (client, _) = await client(answering: #"{"type": "success", "code": "c", "state": "forged"}"#)
        let events = client.eventStream()
        guard case .failure(let failure) = await client.startFlow("test") else {
            Issue.record("not a failure node")
            return
        }
        #expect(failure.cause == .client(.protocolViolation(.authorizationResponse(.stateMismatch))))
        #expect(client.state.phase == .signedOut)
        var iterator = events.makeAsyncIterator()
        #expect(await iterator.next() == .signInStarted(method: .flow))
        #expect(
            await iterator.next() == .signInFailed(reason: .protocolViolation(.authorizationResponse(.stateMismatch))))
    }

    @Test("without a redirect URI a flow cannot start: a failure naming the missing setting, nothing sent")
    func missingRedirect() async throws {
        let transport = RecordingTransport()
        let client = AuthClient(
            configuration: Configuration(
                issuer: Self.issuer, clientID: "app", store: MemoryStore(), transport: transport))
        guard case .failure(let failure) = await client.startFlow("sign-in") else {
            Issue.record("not a failure node")
            return
        }
        #expect(failure.cause == .client(.configuration(.missingKey("redirectURI"))))
        #expect(await transport.requests.isEmpty)
    }
}
