import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// Flow requests against a ``TokenFixture``, whose first-party native client `app` (same redirect as `native`) and
/// user `grace@example.com` (password ``FlowFixture/password``) the flows sign in.
enum FlowFixture {
    static let email = "grace@example.com"
    static let password = "correct horse battery"

    /// A fixture with the first-party `app` client and Grace's account.
    static func run(
        on backend: TokenBackend = .sqlite,
        configure: (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (TokenFixture) async throws -> Void
    ) async throws {
        try await TokenFixture.run(on: backend, configure: configure) { fixture in
            try await prepare(fixture)
            try await body(fixture)
        }
    }

    /// Adds the first-party `app` client and Grace's account to `fixture`.
    static func prepare(_ fixture: TokenFixture) async throws {
        try await fixture.provider.store.insertClientIfAbsent(
            ClientRecord(
                id: "app", name: "App", kind: .public, isNative: true, redirectURIs: [TokenFixture.nativeRedirect],
                isFirstParty: true, createdAt: fixture.clock.now))
        _ = try await fixture.provider.accounts.signUp(
            email: email, password: password, name: "Grace", origin: RequestOrigin())
    }
}

extension TokenFixture {
    /// `POST /flows/{flow}` as a form, for the `app` client with the PKCE fixture's challenge unless `fields` say;
    /// `action` asks the server to press that button of the start node at once.
    func startFlow(
        _ flow: String,
        _ fields: [(String, String)]? = nil,
        pressing action: String? = nil
    ) async throws -> RecordedResponse {
        let request =
            fields ?? [
                ("client_id", "app"), ("redirect_uri", Self.nativeRedirect), ("scope", "openid email offline_access"),
                ("state", "s-1"), ("nonce", "n-1"), ("code_challenge", PKCE.fixture.challenge),
                ("code_challenge_method", "S256"),
            ]
        return try await post("/flows/\(flow)", request + (action.map { [("action", $0)] } ?? []))
    }

    /// `POST /flows/interactions/{id}` with a JSON submission.
    func continueFlow(
        _ interaction: String,
        node: String,
        action: String,
        values: [String: JSONValue] = [:],
        extra: [String: JSONValue] = [:]
    ) async throws -> RecordedResponse {
        let body = JSONValue.object(
            ["node": .string(node), "action": .string(action), "values": .object(values)].merging(extra) { $1 })
        return try await post(
            "/flows/interactions/\(interaction)", [], headers: [.contentType: "application/json"],
            body: String(decoding: body.serialized(), as: UTF8.self))
    }

    /// Asks for a code for Grace in a new `email-code` interaction while mail cannot be delivered: the step answers as
    /// when it can (the request only writes to the outbox), and the worker's failed delivery leaves the message in the
    /// outbox for its next try.
    func expectCodeKeptForRetry() async throws {
        let id = try #require(try await startFlow("email-code")["interaction"])
        let sent = try await continueFlow(
            id, node: "email", action: "submit", values: ["email": .string(FlowFixture.email)])
        #expect(sent.status == .ok)
        #expect(sent.node["id"]?.stringValue == "code")
        #expect(await provider.mailOutboxWorker.deliverDue() == 0)
        let kept = try await provider.store.claimOutboxMail(
            now: clock.now.addingTimeInterval(60), until: clock.now.addingTimeInterval(120), claim: "test")
        #expect(kept?.attempts == 2, "tried once, kept for the next try")
    }

    /// Submits a wrong code on `interaction`'s `code` step as many times as a code may be tried, each refused as
    /// `invalid_code`, then `rightCode`: refused too, since the tries are used up.
    func expectTriesUsedUp(_ interaction: String, rightCode: String) async throws {
        let wrong = rightCode == "000000" ? "111111" : "000000"
        for _ in 0..<EmailCodes.maximumAttempts {
            let refused = try await continueFlow(
                interaction, node: "code", action: "submit", values: ["code": .string(wrong)])
            #expect(refused.detailCodes == ["code": ["invalid_code"]])
        }
        let last = try await continueFlow(
            interaction, node: "code", action: "submit", values: ["code": .string(rightCode)])
        #expect(last.detailCodes == ["code": ["invalid_code"]], "even the right code no longer works")
    }

    /// Signs Grace in through the sign-in flow and returns the success answer.
    func signInThroughFlow(password: String = FlowFixture.password) async throws -> RecordedResponse {
        let started = try await startFlow("sign-in")
        let id = try #require(started["interaction"])
        return try await continueFlow(
            id, node: "credentials", action: "submit",
            values: ["email": .string(FlowFixture.email), "password": .string(password)])
    }
}

extension RecordedResponse {
    /// The answer's node.
    var node: [String: JSONValue] { json["node"]?.objectValue ?? [:] }
    /// The node's `type`.
    var nodeType: String? { node["type"]?.stringValue }
    /// The node's collectors.
    var collectors: [[String: JSONValue]] { Self.items(node["collectors"]).compactMap(\.objectValue) }
    /// An error node's details.
    var details: [[String: JSONValue]] { Self.items(node["details"]).compactMap(\.objectValue) }
    /// The collectors' keys, in order.
    var collectorKeys: [String] { collectors.compactMap { $0["key"]?.stringValue } }
    /// The error node's detail codes by key.
    var detailCodes: [String: [String]] {
        details.reduce(into: [:]) { codes, detail in
            guard let key = detail["key"]?.stringValue, let code = detail["code"]?.stringValue
            else { return }
            codes[key, default: []].append(code)
        }
    }

    private static func items(_ value: JSONValue?) -> [JSONValue] {
        guard case .array(let items)? = value else { return [] }
        return items
    }
}
