import Foundation
import LimenOIDC
import TestSupport
import Testing

@testable import Limen

/// What a flow's start sends for the session it is given: the signed-in user's token and the client's secret only when
/// the start carries the session and someone is signed in.
@Suite("FlowClient")
struct FlowClientTests {
    static let issuer = URL(string: "https://id.example")!
    static let start = issuer.appendingPathComponent("flows/sign-in")

    /// A flow client with the secret `s3cret`, over `session`, whose start answers a step.
    static func flows(_ session: some FlowSession) async -> (FlowClient, RecordingTransport) {
        let transport = RecordingTransport()
        await transport.respond(
            to: start, json: #"{"interaction": "i1", "node": {"type": "continue", "id": "n", "collectors": []}}"#)
        let configuration = Configuration(
            issuer: issuer, clientID: "app", redirectURI: URL(string: "com.example.app:/callback"),
            clientSecret: "s3cret", store: MemoryStore(), transport: transport)
        return (FlowClient(configuration: configuration, emailCodeSteps: EmailCodeSteps(), session: session), transport)
    }

    /// The fields of a form-encoded body.
    static func fields(of request: HTTPRequest) -> [String: String] {
        let query = "?" + String(decoding: request.body ?? Data(), as: UTF8.self)
        let items = URLComponents(string: query)?.queryItems ?? []
        return Dictionary(items.map { ($0.name, $0.value ?? "") }) { first, _ in first }
    }

    @Test("a start for a signed-in user carries their access token and the client's secret")
    func carriesSession() async throws {
        let (flows, transport) = await Self.flows(StubSession(accessToken: .success("at-1")))

        guard case .continue = await flows.start("sign-in", options: SignInOptions(), carryingSession: true) else {
            Issue.record("the start did not go on")
            return
        }
        let sent = try #require(await transport.requests.first)
        #expect(sent.headers["Authorization"] == "Bearer at-1")
        #expect(Self.fields(of: sent)["client_secret"] == "s3cret")
    }

    @Test(
        "a start without a signed-in user, or one that ignores the session, carries neither token nor secret",
        arguments: [(Result<String?, LimenError>.success(nil), true), (.success("at-1"), false)])
    func carriesNoSession(accessToken: Result<String?, LimenError>, carryingSession: Bool) async throws {
        let (flows, transport) = await Self.flows(StubSession(accessToken: accessToken))

        _ = await flows.start("sign-in", options: SignInOptions(), carryingSession: carryingSession, pressing: "submit")
        let sent = try #require(await transport.requests.first)
        let fields = Self.fields(of: sent)
        #expect(sent.headers["Authorization"] == nil)
        #expect(fields["client_secret"] == nil)
        #expect(fields["action"] == "submit")
        #expect(fields["client_id"] == "app")
    }

    @Test("a PASSKEY step gives a PasskeyCollector whose credential is sent as a JSON object; registered ends it")
    func passkeyStep() async throws {
        let transport = RecordingTransport()
        await transport.respond(
            to: Self.issuer.appendingPathComponent("flows/passkey-register"),
            json: """
                {"interaction": "i1", "node": {"type": "continue", "id": "register", "collectors": [
                  {"type": "PASSKEY", "key": "passkey", "label": "Passkey", "required": true, "mode": "register",
                   "options": {"challenge": "Y2g", "rp": {"id": "id.example", "name": "Limen"}}},
                  {"type": "SUBMIT_BUTTON", "key": "submit", "label": "Save"}]}}
                """)
        await transport.respond(
            to: Self.issuer.appendingPathComponent("flows/interactions/i1"),
            json: #"{"interaction": "i1", "node": {"type": "success", "registered": true}}"#)
        let configuration = Configuration(
            issuer: Self.issuer, clientID: "app", redirectURI: URL(string: "com.example.app:/callback"),
            store: MemoryStore(), transport: transport)
        let flows = FlowClient(
            configuration: configuration, emailCodeSteps: EmailCodeSteps(),
            session: StubSession(accessToken: .success("at-1")))

        guard
            case .continue(let step) = await flows.start(
                "passkey-register", options: SignInOptions(), carryingSession: true)
        else {
            Issue.record("the start did not go on")
            return
        }
        let passkey = try #require(step.collectors.first as? PasskeyCollector)
        #expect(passkey.mode == .register)
        #expect(passkey.options.objectValue?["challenge"]?.stringValue == "Y2g")
        #expect(passkey.validate() == [.required])
        let credential = JSONValue.object(["id": .string("abc"), "type": .string("public-key")])
        passkey.value = credential
        #expect(passkey.validate().isEmpty)
        guard case .failure(let failure) = await step.next() else {
            Issue.record("registered did not reach the session")
            return
        }
        #expect(failure.cause == .incomplete(step: "registered"))
        let submitted = try #require(await transport.requests.last)
        let body = try JSONValue(parsing: submitted.body ?? Data())
        #expect(body.objectValue?["values"]?.objectValue?["passkey"] == credential)
    }

    @Test("a token that cannot be refreshed now makes the start a failure with that cause, and nothing is sent")
    func unrefreshableToken() async throws {
        let (flows, transport) = await Self.flows(StubSession(accessToken: .failure(.network(.timeout))))

        guard case .failure(let failure) = await flows.start("sign-in", options: SignInOptions(), carryingSession: true)
        else {
            Issue.record("the start did not fail")
            return
        }
        #expect(failure.cause == .network(.timeout))
        #expect(await transport.requests.isEmpty)
    }
}

/// A session whose access token is `accessToken`; it redeems no code.
private struct StubSession: FlowSession {
    let accessToken: Result<String?, LimenError>

    func validAccessToken(minimumTimeToLive: TimeInterval?) async throws(LimenError) -> String? {
        try accessToken.get()
    }

    func authorizationRequest(redirectURI: URL, options: SignInOptions) -> AuthorizationRequest {
        AuthorizationRequest(clientID: "app", redirectURI: redirectURI, scopes: ["openid"])
    }

    func authorizationCode(of callback: URL, answering request: AuthorizationRequest) async throws(LimenError)
        -> String
    {
        throw .notSignedIn
    }

    func redeemFlowCode(_ code: String, state: String?, issuer: String?, newUser: Bool?, interaction: FlowInteraction)
        async -> Node
    {
        .failure(FailureNode(cause: .incomplete(step: "success")))
    }

    func registeredForSignedInUser() -> Node {
        .failure(FailureNode(cause: .incomplete(step: "registered")))
    }
}
