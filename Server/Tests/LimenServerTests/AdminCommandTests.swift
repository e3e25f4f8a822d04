import Foundation
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The limen-server admin commands")
struct AdminCommandTests {
    /// Runs `limen-server arguments…` to completion; its standard output and exit status.
    private func run(_ arguments: [String]) async throws -> (output: String, status: Int32) {
        let result = try await Subprocess.capture(try serverExecutable(), arguments: arguments)
        return (result.outputText, result.status)
    }

    private func openStore(_ directory: TemporaryDirectory) async throws -> SQLiteStore {
        try await SQLiteStore.open(path: (directory.path as NSString).appendingPathComponent("limen.sqlite"))
    }

    @Test("admin-token prints a new token once, stores only its hash, and --remove turns the API off")
    func adminToken() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let (text, status) = try await run(["admin-token", "--data-dir", directory.path])
        #expect(status == 0)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("admin_token: ") })
        let token = String(line.dropFirst("admin_token: ".count))

        var store = try await openStore(directory)
        #expect(try await store.adminTokenHash() == ClientSecret.hash(token))
        await store.close()
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where file.hasPrefix("limen.sqlite") {
            let raw = try Data(
                contentsOf: URL(fileURLWithPath: (directory.path as NSString).appendingPathComponent(file)))
            #expect(!raw.containsBytes(Data(token.utf8)), "the token is in \(file)")
        }

        let removed = try await run(["admin-token", "--remove", "--data-dir", directory.path])
        #expect(removed.status == 0)
        store = try await openStore(directory)
        #expect(try await store.adminTokenHash() == nil)
        await store.close()
    }

    @Test("clients add stores the client's own token lifetimes (seconds or 2m-style), and refuses one out of range")
    func clientLifetimes() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let added = try await run(
            [
                "clients", "add", "--data-dir", directory.path, "--id", "app", "--public",
                "--redirect-uri", "http://127.0.0.1/cb", "--access-token-ttl", "2m", "--refresh-token-ttl", "3600",
            ])
        #expect(added.status == 0)
        let refused = try await run(
            [
                "clients", "add", "--data-dir", directory.path, "--id", "other", "--public",
                "--redirect-uri", "http://127.0.0.1/cb", "--access-token-ttl", "5",
            ])
        #expect(refused.status != 0)
        let listed = try await run(["clients", "list", "--data-dir", directory.path])
        #expect(listed.output.contains("access-token-ttl=2m,refresh-token-ttl=1h"))

        let store = try await openStore(directory)
        let client = try await store.client(id: "app")
        #expect(client?.accessTokenLifetime == 120)
        #expect(client?.refreshTokenLifetime == 3600)
        #expect(try await store.client(id: "other") == nil)
        await store.close()
    }

    @Test("clients rotate-secret prints a confidential client's new secret, recorded; a public or unknown one refused")
    func rotateClientSecret() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        for (id, kind) in [("web", "--first-party"), ("app", "--public")] {
            let added = try await run([
                "clients", "add", "--data-dir", directory.path, "--id", id, kind, "--redirect-uri",
                "http://127.0.0.1/cb",
            ])
            #expect(added.status == 0)
        }
        let rotated = try await run(["clients", "rotate-secret", "--data-dir", directory.path, "--id", "web"])
        #expect(rotated.status == 0)
        let line = try #require(rotated.output.split(separator: "\n").first { $0.hasPrefix("client_secret: ") })
        let secret = String(line.dropFirst("client_secret: ".count))
        for id in ["app", "nobody"] {
            let refused = try await run(["clients", "rotate-secret", "--data-dir", directory.path, "--id", id])
            #expect(refused.status != 0 && !refused.output.contains("client_secret"), "\(id)")
        }

        let store = try await openStore(directory)
        #expect(try await store.client(id: "web")?.isProved(bySecret: secret) == true)
        #expect(try await store.client(id: "app")?.secretHash == nil)
        let events = try await store.securityEvents(SecurityEventFilter(type: "admin.client_secret_rotated"), limit: 10)
        #expect(events.count == 1 && events.first?.client == "web" && events.first?.actor == "command_line")
        await store.close()
    }

    @Test("clients add --allow-no-pkce lets a confidential client off PKCE, lists it, and refuses it for a public one")
    func clientWithoutPKCE() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let added = try await run(
            [
                "clients", "add", "--data-dir", directory.path, "--id", "legacy", "--allow-no-pkce",
                "--redirect-uri", "https://legacy.example/cb",
            ])
        #expect(added.status == 0)
        let refused = try await run(
            [
                "clients", "add", "--data-dir", directory.path, "--id", "app", "--public", "--allow-no-pkce",
                "--redirect-uri", "http://127.0.0.1/cb",
            ])
        #expect(refused.status != 0)
        let listed = try await run(["clients", "list", "--data-dir", directory.path])
        #expect(listed.output.contains("confidential,no-pkce"))

        let store = try await openStore(directory)
        #expect(try await store.client(id: "legacy")?.allowsNoPKCE == true)
        #expect(try await store.client(id: "app") == nil)
        await store.close()
    }

    @Test("clients add --app2app-host registers the provider's own app as a host, lists it, and refuses a web client")
    func appToAppHost() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let added = try await run(
            [
                "clients", "add", "--data-dir", directory.path, "--id", "host", "--native", "--first-party",
                "--app2app-host", "--redirect-uri", "com.example.host:/cb",
            ])
        #expect(added.status == 0)
        let refused = try await run(
            [
                "clients", "add", "--data-dir", directory.path, "--id", "web", "--first-party", "--app2app-host",
                "--redirect-uri", "https://web.example/cb",
            ])
        #expect(refused.status != 0)
        let listed = try await run(["clients", "list", "--data-dir", directory.path])
        #expect(listed.output.contains("public,native,first-party,app2app-host"))

        let store = try await openStore(directory)
        #expect(try await store.client(id: "host")?.isAppToAppHost == true)
        #expect(try await store.client(id: "web") == nil)
        await store.close()
    }

    @Test("clients add --require-dpop registers a client whose tokens must be DPoP-bound, and lists it so")
    func requireDPoP() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let added = try await run(
            [
                "clients", "add", "--data-dir", directory.path, "--id", "app", "--native", "--require-dpop",
                "--redirect-uri", "com.example.app:/cb",
            ])
        #expect(added.status == 0)
        let listed = try await run(["clients", "list", "--data-dir", directory.path])
        #expect(listed.output.contains("public,native,require-dpop"))
        let store = try await openStore(directory)
        #expect(try await store.client(id: "app")?.requiresDPoP == true)
        await store.close()
    }

    @Test("clients add --require-acr registers a client every sign-in of which must reach the level; others refused")
    func requireACR() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let refused = try await run(
            [
                "clients", "add", "--data-dir", directory.path, "--id", "app", "--native", "--require-acr", "gold",
                "--redirect-uri", "com.example.app:/cb",
            ])
        #expect(refused.status != 0)
        // Nothing was stored: the same ID registers next.
        let added = try await run(
            [
                "clients", "add", "--data-dir", directory.path, "--id", "app", "--native", "--require-acr", "phr",
                "--redirect-uri", "com.example.app:/cb",
            ])
        #expect(added.status == 0)
        let listed = try await run(["clients", "list", "--data-dir", directory.path])
        #expect(listed.output.contains("public,native,require-acr=phr"))
        let store = try await openStore(directory)
        #expect(try await store.client(id: "app")?.requiredACR == "phr")
        await store.close()
    }

    @Test(
        "users add --admin, grant-admin and revoke-admin give and take the role, list shows it, each an admin event")
    func adminRole() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        func add(_ email: String, _ flags: [String] = []) async throws -> Int32 {
            try await Subprocess.capture(
                try serverExecutable(),
                arguments: ["users", "add", "--data-dir", directory.path, "--email", email] + flags,
                input: Data("analytical engine 1843\n".utf8)
            ).status
        }
        #expect(try await add("ada@example.com", ["--admin"]) == 0)
        #expect(try await add("grace@example.com") == 0)
        func roleOf(_ email: String) async throws -> Substring? {
            let listed = try await run(["users", "list", "--data-dir", directory.path])
            let row = listed.output.split(separator: "\n").first { $0.split(separator: "\t")[1] == email }
            return row?.split(separator: "\t", omittingEmptySubsequences: false)[4]
        }
        #expect(try await roleOf("ada@example.com") == "admin")
        #expect(try await roleOf("grace@example.com") == "user")

        #expect(
            try await run(["users", "revoke-admin", "--data-dir", directory.path, "--email", "ADA@example.com"]).status
                == 0)
        #expect(try await roleOf("ada@example.com") == "user")
        var store = try await openStore(directory)
        let grace = try #require(try await store.user(email: "grace@example.com"))
        await store.close()
        #expect(try await run(["users", "grant-admin", "--data-dir", directory.path, "--id", grace.id]).status == 0)
        #expect(try await roleOf("grace@example.com") == "admin")

        let refusals = [
            ["--email", "nobody@example.com"], ["--id", "nobody"], [],
            ["--email", "grace@example.com", "--id", grace.id],
        ]
        for selection in refusals {
            let refused = try await run(["users", "grant-admin", "--data-dir", directory.path] + selection)
            #expect(refused.status != 0, "\(selection)")
        }

        store = try await openStore(directory)
        let admins = try await store.securityEvents(SecurityEventFilter(), limit: 100).reversed()
            .filter { $0.type.hasPrefix("admin.role_") }
        await store.close()
        #expect(admins.map(\.type) == ["admin.role_granted", "admin.role_revoked", "admin.role_granted"])
        #expect(admins.map(\.user) == [admins.first?.user, admins.first?.user, grace.id])
        #expect(admins.allSatisfy { $0.actor == "command_line" })
    }

    @Test("users disable and enable change a user's state once each, say so, and refuse an unknown user")
    func disableAndEnable() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await addAda(in: directory)
        func users(_ command: String, _ email: String = "ada@example.com") async throws -> (String, Int32) {
            try await run(["users", command, "--data-dir", directory.path, "--email", email])
        }
        #expect(try await users("disable") == ("ada@example.com is now disabled\n", 0))
        #expect(try await users("disable") == ("ada@example.com was disabled already\n", 0))
        #expect(try await users("disable", "nobody@example.com").1 != 0)
        var store = try await openStore(directory)
        let ada = try #require(try await store.user(email: "ada@example.com"))
        #expect(try await store.disabledAt(userID: ada.id) != nil)
        await store.close()
        #expect(try await users("enable") == ("ada@example.com is enabled again\n", 0))
        #expect(try await users("enable") == ("ada@example.com was not disabled\n", 0))
        store = try await openStore(directory)
        #expect(try await store.disabledAt(userID: ada.id) == nil)
        let types = try await store.securityEvents(SecurityEventFilter(user: ada.id), limit: 100).map(\.type)
        await store.close()
        #expect(types.filter { $0 == "admin.user_disabled" || $0 == "admin.user_enabled" }.count == 2)
        #expect(Set(types).isSuperset(of: ["admin.user_disabled", "admin.user_enabled"]))
    }

    @Test("users revoke-sessions signs a user out everywhere, says so, records it, and refuses an unknown user")
    func revokeSessions() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try await addAda(in: directory)
        var store = try await openStore(directory)
        let ada = try #require(try await store.user(email: "ada@example.com"))
        let now = Date()
        try await store.insertBrowserSession(
            BrowserSessionRecord(
                idHash: Data("ada's browser".utf8), subject: ada.id, authTime: now,
                expiresAt: now.addingTimeInterval(3600)))
        await store.close()
        let arguments = ["users", "revoke-sessions", "--data-dir", directory.path, "--email"]
        #expect(try await run(arguments + ["ada@example.com"]) == ("ada@example.com is signed out everywhere\n", 0))
        #expect(try await run(arguments + ["nobody@example.com"]).1 != 0)
        store = try await openStore(directory)
        let left = try await store.browserSessions(subject: ada.id, now: now)
        let types = try await store.securityEvents(SecurityEventFilter(), limit: 100).map(\.type)
        await store.close()
        #expect(left.isEmpty)
        #expect(types.filter { $0 == "admin.sessions_revoked" }.count == 1)
    }

    /// Adds the user ada@example.com with `users add` to the data in `directory`.
    private func addAda(in directory: TemporaryDirectory) async throws {
        let added = try await Subprocess.capture(
            try serverExecutable(),
            arguments: ["users", "add", "--data-dir", directory.path, "--email", "ada@example.com"],
            input: Data("analytical engine 1843\n".utf8))
        #expect(added.status == 0)
    }
}
