import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("limen-account, the account page's own client: hidden from the admin API and limen-server clients")
struct InternalClientTests {
    @Test("the admin API neither lists, reads, brands, removes nor registers limen-account")
    func adminAPI() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let store = fixture.provider.store
            #expect(try await store.insertClientIfAbsent(SeedClients.account(now: fixture.clock.now)))
            let list = try await fixture.admin(.get, "/admin/clients", token: token)
            let ids = list.objects(in: "clients").compactMap { $0["client_id"]?.stringValue }
            #expect(!ids.isEmpty && !ids.contains(SeedClients.accountClientID))
            let path = "/admin/clients/\(SeedClients.accountClientID)"
            #expect(try await fixture.admin(.get, path, token: token).status == .notFound)
            #expect(try await fixture.admin(.delete, path, token: token).status == .notFound)
            let branding = try await fixture.admin(
                .put, path + "/branding", token: token, json: ##"{"accent_color": "#112233"}"##)
            #expect(branding.status == .notFound)
            #expect(try await store.client(id: SeedClients.accountClientID) != nil, "still there")

            // Nobody registers it first either (its pending sign-ins would then use their redirect URIs).
            #expect(try await store.deleteClient(id: SeedClients.accountClientID))
            let registered = try await fixture.admin(
                .post, "/admin/clients", token: token,
                json: #"{"client_id": "limen-account", "redirect_uris": ["https://evil.example/cb"]}"#)
            #expect(registered.status == .badRequest)
            #expect(registered["error_description"]?.hasPrefix("client_id: ") == true)
            #expect(try await store.client(id: SeedClients.accountClientID) == nil)
        }
    }

    @Test("clients list leaves limen-account out; clients remove and clients add refuse it")
    func command() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        func run(_ arguments: [String]) async throws -> (output: String, status: Int32) {
            let result = try await Subprocess.capture(
                try serverExecutable(), arguments: arguments + ["--data-dir", directory.path])
            return (result.outputText, result.status)
        }
        let added = try await run(
            ["clients", "add", "--id", "app", "--public", "--redirect-uri", "http://127.0.0.1/cb"])
        #expect(added.status == 0)
        let path = (directory.path as NSString).appendingPathComponent("limen.sqlite")
        var store = try await SQLiteStore.open(path: path)
        #expect(try await store.insertClientIfAbsent(SeedClients.account(now: Date())))
        await store.close()

        let listed = try await run(["clients", "list"])
        #expect(listed.status == 0)
        #expect(listed.output.contains("app\t") && !listed.output.contains(SeedClients.accountClientID))
        #expect(try await run(["clients", "remove", "--id", SeedClients.accountClientID]).status != 0)
        let registered = try await run(
            [
                "clients", "add", "--id", SeedClients.accountClientID, "--public", "--redirect-uri",
                "http://127.0.0.1/cb",
            ])
        #expect(registered.status != 0)
        store = try await SQLiteStore.open(path: path)
        #expect(try await store.client(id: SeedClients.accountClientID)?.redirectURIs == [])
        await store.close()
    }
}
