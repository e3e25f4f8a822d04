import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Client records cached for client authentication")
struct ClientCacheTests {
    /// `POST /introspect` of a garbage token by `web`: 200 when the client authenticates, 401 when it does not.
    private func introspect(_ fixture: TokenFixture, secret: String = TokenFixture.webSecret) async throws
        -> RecordedResponse
    {
        try await fixture.post("/introspect", [("token", "garbage")], headers: TokenFixture.basic("web", secret))
    }

    @Test("a cached client still has its secret checked on every request")
    func secretCheckedEveryTime() async throws {
        try await TokenFixture.run { fixture in
            #expect(try await introspect(fixture).status == .ok)
            let wrong = try await introspect(fixture, secret: "wrong")
            #expect(wrong.status == .unauthorized)
            #expect(wrong.error == "invalid_client")
            #expect(try await introspect(fixture).status == .ok)
        }
    }

    @Test("a client removed on this node is refused at once, through the admin API or the provider")
    func removedOnThisNode() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            #expect(try await introspect(fixture).status == .ok)
            #expect(try await fixture.admin(.delete, "/admin/clients/web", token: token).status == .noContent)
            let refused = try await introspect(fixture)
            #expect(refused.status == .unauthorized)
            #expect(refused.error == "invalid_client")

            #expect(try await fixture.post("/token", [("client_id", "native")]).error != "invalid_client")
            #expect(try await fixture.provider.removeClient(id: "native"))
            #expect(try await fixture.post("/token", [("client_id", "native")]).error == "invalid_client")
        }
    }

    @Test(
        "a client removed by another provider on the same store is served for at most the cache's lifetime",
        arguments: TokenBackend.allCases)
    func removedOnAnotherNode(_ backend: TokenBackend) async throws {
        try await TokenFixture.run(on: backend) { fixture in
            let clock = fixture.clock
            let otherNode = try await ServerComposition.bootstrap(configuration: fixture.provider.configuration) {
                clock.now
            }
            #expect(try await introspect(fixture).status == .ok)
            #expect(try await otherNode.removeClient(id: "web"))
            await otherNode.store.close()

            clock.advance(by: fixture.provider.clientCache.timeToLive - 1)
            #expect(try await introspect(fixture).status == .ok)
            clock.advance(by: 1)
            let refused = try await introspect(fixture)
            #expect(refused.status == .unauthorized)
            #expect(refused.error == "invalid_client")
        }
    }

    @Test("the cache keeps at most its capacity of records, dropping the oldest when none has expired")
    func boundedSize() async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let clock = TestNow()
        let cache = ClientCache(capacity: 2) { clock.now }
        for id in ["a", "b", "c"] {
            try await store.insertClientIfAbsent(
                ClientRecord(id: id, name: id, kind: .public, redirectURIs: [], createdAt: clock.now))
            #expect(try await cache.client(id: id, in: store)?.id == id)
            clock.advance(by: 1)
        }
        for id in ["a", "b", "c"] { try await store.deleteClient(id: id) }
        #expect(try await cache.client(id: "a", in: store) == nil)
        #expect(try await cache.client(id: "b", in: store)?.id == "b")
        #expect(try await cache.client(id: "c", in: store)?.id == "c")
        await store.close()
    }
}
