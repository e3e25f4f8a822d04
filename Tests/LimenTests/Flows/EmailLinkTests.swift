import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// `handle(url:)` from canned answers: which links continue which step, and what they send.
@Suite("Email links opened in the app")
struct EmailLinkTests {
    static let issuer = URL(string: "https://id.example")!
    static let start = issuer.appendingPathComponent("flows/email-code")
    static let interaction = issuer.appendingPathComponent("flows/interactions/i1")

    /// A client whose `email-code` flow starts on a step with `fields` and a submit button, as interaction `i1`; the
    /// submission is answered with a label-only step.
    func client(fields: String) async -> (AuthClient, RecordingTransport) {
        let transport = RecordingTransport()
        let step = """
            {"type": "continue", "id": "code", "name": "N", "description": "D",
             "collectors": [\(fields), {"type": "SUBMIT_BUTTON", "key": "submit", "label": "Go"}]}
            """
        await transport.respond(to: Self.start, json: #"{"interaction": "i1", "node": \#(step)}"#)
        await transport.respond(
            to: Self.interaction,
            json: #"{"interaction": "i1", "node": {"type": "continue", "id": "done", "name": "", "description": "", "#
                + #""collectors": [{"type": "LABEL", "key": "done", "label": "Done"}]}}"#)
        let client = AuthClient(
            configuration: Configuration(
                issuer: Self.issuer, clientID: "app", redirectURI: URL(string: "com.example.app:/callback"),
                store: MemoryStore(), transport: transport))
        return (client, transport)
    }

    static let codeField = #"{"type": "TEXT", "key": "code", "label": "Code", "required": true}"#

    @Test("a link naming the waiting interaction submits its code on that step (from the fragment, not the query)")
    func submitsTheCode() async throws {
        let (client, transport) = await client(fields: Self.codeField)
        _ = await client.startFlow("email-code")
        let link = try #require(URL(string: "com.example.app:/email-link#limen_interaction=i1&code=123456"))
        guard case .continue(let next)? = await client.handle(url: link) else {
            Issue.record("the link did not continue the step")
            return
        }
        #expect(next.id == "done")
        let sent = try JSONValue(parsing: try #require(await transport.requests.last?.body))
        #expect(sent.objectValue?["node"]?.stringValue == "code")
        #expect(sent.objectValue?["values"]?.objectValue?["code"]?.stringValue == "123456")
        #expect(await transport.requests.last?.url == Self.interaction)
    }

    @Test("a step that needs more than the code comes back with the code filled in, nothing sent")
    func needsMore() async throws {
        let (client, transport) = await client(
            fields: Self.codeField + #", {"type": "PASSWORD", "key": "password", "label": "New", "required": true}"#)
        _ = await client.startFlow("email-code")
        let link = try #require(URL(string: "https://app.example/link#limen_interaction=i1&code=654321"))
        guard case .continue(let step)? = await client.handle(url: link) else {
            Issue.record("the step did not come back")
            return
        }
        #expect((step.collectors.first { $0.key == "code" } as? TextCollector)?.value == "654321")
        #expect(await transport.requests.count == 1, "only the start was sent")
    }

    @Test(
        "ignored (nil): another interaction, a link without the fragment, a code in the query, no code",
        arguments: [
            "com.example.app:/email-link#limen_interaction=other&code=123456",
            "com.example.app:/email-link",
            "com.example.app:/email-link?limen_interaction=i1&code=123456",
            "com.example.app:/email-link#limen_interaction=i1",
        ])
    func ignored(link: String) async throws {
        let (client, transport) = await client(fields: Self.codeField)
        _ = await client.startFlow("email-code")
        #expect(await client.handle(url: try #require(URL(string: link))) == nil)
        #expect(await transport.requests.count == 1)
    }

    @Test("signIn(email:code:) without requestEmailCode for that address throws incomplete, sending nothing")
    func codeWithoutRequest() async throws {
        let (client, transport) = await client(fields: Self.codeField)
        do throws(FlowError) {
            try await client.signIn(email: "ada@example.com", code: "123456")
            Issue.record("signed in without a code request")
        } catch {
            #expect(error == .incomplete(step: "email"))
        }
        #expect(await transport.requests.isEmpty)
    }
}
