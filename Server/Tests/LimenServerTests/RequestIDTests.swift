import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenServerStorage
import Logging
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Request ids")
struct RequestIDTests {
    private static let header = HTTPField.Name("X-Request-Id")

    /// A router with the middleware and two routes: one answering the id its logger carries, one throwing.
    private func withRouter(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
        let router = Router(context: LimenRequestContext.self)
        router.add(middleware: RequestIDMiddleware())
        router.get("/logged") { _, context in
            "\(context.logger[metadataKey: "hb.request.id"].map { "\($0)" } ?? "none")|\(context.id)"
        }
        router.get("/fails") { _, _ -> String in throw HTTPError(.badRequest, message: "no") }
        try await Application(router: router).test(.router) { client in try await body(client) }
    }

    @Test("a caller's X-Request-Id is echoed and carried by every log line of the request")
    func acceptsCallersID() async throws {
        let name = try #require(Self.header)
        try await withRouter { client in
            try await client.execute(uri: "/logged", method: .get, headers: [name: "lb-7f3a.42:edge@eu"]) { response in
                #expect(response.headers[name] == "lb-7f3a.42:edge@eu")
                #expect(String(buffer: response.body) == "lb-7f3a.42:edge@eu|lb-7f3a.42:edge@eu")
            }
        }
    }

    @Test(
        "an id that could forge a log line or is too long is replaced by the server's own",
        arguments: ["a b", "line\u{0}break", "quote\"d", String(repeating: "x", count: 129), "é", ""])
    func refusesHostileID(hostile: String) async throws {
        let name = try #require(Self.header)
        try await withRouter { client in
            try await client.execute(uri: "/logged", method: .get, headers: [name: hostile]) { response in
                let echoed = try #require(response.headers[name])
                #expect(echoed != hostile)
                #expect(RequestIDMiddleware<LimenRequestContext>.acceptable(echoed) == echoed)
                #expect(String(buffer: response.body) == "\(echoed)|\(echoed)")
            }
        }
    }

    @Test("without one, each request gets its own id, and an error response carries it too")
    func makesIDs() async throws {
        let name = try #require(Self.header)
        try await withRouter { client in
            var ids: [String] = []
            for _ in 0..<2 {
                try await client.execute(uri: "/logged", method: .get) { response in
                    ids.append(try #require(response.headers[name]))
                }
            }
            #expect(Set(ids).count == 2)
            try await client.execute(uri: "/fails", method: .get, headers: [name: "trace-1"]) { response in
                #expect(response.status == .badRequest)
                #expect(response.headers[name] == "trace-1")
            }
        }
    }

    @Test("the provider's routes echo the id")
    func providerRoutesEchoID() async throws {
        let name = try #require(Self.header)
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let provider = try await ServerComposition.bootstrap(configuration: .testing(directory: directory))
        do {
            try await Application(router: LimenServerApplication.router(composition: provider)).test(.router) {
                client in
                for path in ["/healthz", "/no-such-route"] {
                    try await client.execute(uri: path, method: .get, headers: [name: "ops-42"]) { response in
                        #expect(response.headers[name] == "ops-42")
                    }
                }
            }
        } catch {
            await provider.store.close()
            throw error
        }
        await provider.store.close()
    }
}
