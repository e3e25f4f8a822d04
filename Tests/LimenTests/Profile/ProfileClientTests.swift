import Foundation
import LimenOIDC
import Testing

@testable import Limen

/// The profile client over a stub session and server: the app schema's lifetime and the `If-Match` retry of a write.
@Suite("ProfileClient")
struct ProfileClientTests {
    static let issuer = URL(string: "https://id.example")!
    static let schema = #"{"schema": {"fields": {"nickname": {"type": "string"}, "city": {"type": "string"}}}}"#

    /// A profile client for `alice` whose server answers from `server`.
    private static func profiles(_ server: ProfileServerStub) -> (ProfileClient, StubSession) {
        let store = MemoryStore()
        let configuration = Configuration(issuer: issuer, clientID: "app", store: store, transport: server)
        let session = StubSession(server: server)
        let profiles = ProfileClient(
            configuration: configuration, memory: ProfileMemory(), cache: ProfileCache(store: store, namespace: "t"),
            keyring: FieldKeyring(sessions: SessionStore(store: store, namespace: "t"), namespace: "t"),
            stateStore: StateStore(), events: EventBus(), session: session)
        return (profiles, session)
    }

    /// A profile answer with `data` (JSON members) and `etag`.
    static func profile(_ data: String, etag: String) -> HTTPResponse {
        HTTPResponse(status: 200, headers: ["ETag": etag], body: Data(#"{"data": {\#(data)}}"#.utf8))
    }

    @Test("the app schema is fetched once per session, and again after a sign-in or sign-out")
    func schemaPerSession() async throws {
        let schema = HTTPResponse(status: 200, body: Data(Self.schema.utf8))
        let server = ProfileServerStub(["GET /v1/app": [schema, schema]])
        let (profiles, session) = Self.profiles(server)

        _ = try await profiles.appSchema()
        _ = try await profiles.appSchema()
        #expect(await server.sent("GET /v1/app").count == 1)
        await session.changeSession()
        _ = try await profiles.appSchema()
        #expect(await server.sent("GET /v1/app").count == 2)
    }

    @Test("a write refused with 412 after another writer changed other fields is sent once more on the new revision")
    func retriesOnNewRevision() async throws {
        let server = ProfileServerStub([
            "GET /v1/app": [HTTPResponse(status: 200, body: Data(Self.schema.utf8))],
            "GET /v1/me/data": [
                Self.profile(#""nickname": "A", "city": "Paris""#, etag: "1"),
                Self.profile(#""nickname": "A", "city": "Lyon""#, etag: "2"),
            ],
            "PATCH /v1/me/data": [
                HTTPResponse(status: 412), Self.profile(#""nickname": "Ada", "city": "Lyon""#, etag: "3"),
            ],
        ])
        let (profiles, _) = Self.profiles(server)

        try await profiles.writeProfile(["nickname": .string("Ada")], kind: .merge)
        let writes = await server.sent("PATCH /v1/me/data")
        #expect(writes.map { $0.headers["If-Match"] } == ["1", "2"])
        #expect(writes.last?.body == writes.first?.body)
        #expect(await profiles.memory.snapshot(of: "alice")?.etag == "3")
    }

    @Test("a write refused with 412 after another writer changed the same field is a conflict naming it, sent once")
    func conflict() async throws {
        let server = ProfileServerStub([
            "GET /v1/app": [HTTPResponse(status: 200, body: Data(Self.schema.utf8))],
            "GET /v1/me/data": [
                Self.profile(#""nickname": "A""#, etag: "1"), Self.profile(#""nickname": "B""#, etag: "2"),
            ],
            "PATCH /v1/me/data": [HTTPResponse(status: 412)],
        ])
        let (profiles, _) = Self.profiles(server)

        await #expect(throws: LimenError.profile(.conflict(fields: ["nickname"]))) {
            try await profiles.writeProfile(["nickname": .string("Ada")], kind: .merge)
        }
        #expect(await server.sent("PATCH /v1/me/data").count == 1)
    }
}

/// A server answering each `METHOD /path` with its queued responses in order (then 404), recording every request.
private actor ProfileServerStub: HTTPTransport {
    private var answers: [String: [HTTPResponse]]
    private var requests: [(route: String, request: HTTPRequest)] = []

    init(_ answers: [String: [HTTPResponse]]) {
        self.answers = answers
    }

    /// The requests sent to `route` (`METHOD /path`), in order.
    func sent(_ route: String) -> [HTTPRequest] {
        requests.filter { $0.route == route }.map(\.request)
    }

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        let route = "\(request.method) \(request.url.path)"
        requests.append((route, request))
        guard let next = answers[route]?.first else { return HTTPResponse(status: 404) }
        answers[route]?.removeFirst()
        return next
    }
}

/// `alice`'s session, sending its requests to `server` as they are.
private actor StubSession: ProfileSession {
    private(set) var generation = 0
    let server: ProfileServerStub

    init(server: ProfileServerStub) {
        self.server = server
    }

    /// A sign-in or sign-out.
    func changeSession() {
        generation += 1
    }

    func signedInUserID() async throws(LimenError) -> String { "alice" }

    func authorizedRequest(_ request: HTTPRequest) async throws(LimenError) -> HTTPResponse {
        do {
            return try await server.send(request)
        } catch {
            throw .network(error)
        }
    }
}
