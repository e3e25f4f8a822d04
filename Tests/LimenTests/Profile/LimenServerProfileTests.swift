import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

/// The profile API (`client.user.get` / `set`) against the `limen-server` binary with an app schema of plain and
/// encrypted fields. One test at a time: each starts its own server, and eight of them at once (each hashing a password
/// with scrypt per sign-in) on a loaded two-core machine pushed requests past the transport's 30 s timeout.
@Suite(
    "Profiles against Limen Server",
    .serialized,
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct LimenServerProfileTests {
    @Test("set and get round trip: fields by PATCH, the whole profile by PUT; get(field:) reads the state, id is sub")
    func roundTrip() async throws {
        try await ProfileServer.with { server in
            let store = MemoryStore()
            let client = try await ProfileServer.signedIn(server, store: store)
            #expect(try await client.user.get() == [:])
            try await client.user.set(field: "nickname", value: "Ada")
            try await client.user.set(field: "age", value: 36)
            try await client.user.set(field: "diagnosis", value: "hay fever")
            try await client.user.set(field: "allergies", value: ["pollen", "cats"])
            let expected: [String: JSONValue] = [
                "nickname": .string("Ada"), "age": .number(36), "diagnosis": .string("hay fever"),
                "allergies": .array([.string("pollen"), .string("cats")]),
            ]
            #expect(try await client.user.get() == expected)
            #expect(client.user.get(field: "nickname") == "Ada")
            #expect(client.user.get(field: "age") == 36)
            #expect(client.user.get(field: "allergies") == ["pollen", "cats"])
            #expect(client.user.get(field: "id") == client.state.user.id)
            #expect(client.user.get(field: "missing") as String? == nil)

            try await client.user.set(data: ["nickname": .string("Grace"), "diagnosis": .string("hay fever")])
            let relaunched = try ProfileServer.client(server, store: store)
            await relaunched.restore()
            #expect(
                try await relaunched.user.get() == ["nickname": .string("Grace"), "diagnosis": .string("hay fever")])
            try await client.user.set(field: "nickname", value: JSONValue.null)
            #expect(try await client.user.get() == ["diagnosis": .string("hay fever")])

            let schema = try await client.user.schema()
            #expect(schema.isEncryptionEnabled)
            #expect(schema.fields["diagnosis"]?.isEncrypted == true)
            #expect(schema.fields["nickname"]?.maximum == 20)
            #expect(schema.fields["nickname"]?.displayName == "Nickname")
        }
    }

    @Test("a value the schema refuses is a typed invalidField naming the field; nothing is written")
    func validation() async throws {
        try await ProfileServer.with { server in
            let client = try await ProfileServer.signedIn(server)
            let tooLong = await #expect(throws: LimenError.self) {
                try await client.user.set(field: "nickname", value: String(repeating: "x", count: 21))
            }
            guard case .profile(.invalidField(let field, let reason))? = tooLong else {
                Issue.record("not invalidField: \(String(describing: tooLong))")
                return
            }
            #expect(field == "nickname")
            #expect(!reason.isEmpty)
            let negative = await #expect(throws: LimenError.self) {
                try await client.user.set(data: ["age": .number(-1)])
            }
            #expect(negative?.code == "profile.invalid_field")
            #expect(try await client.user.get() == [:])
        }
    }

    @Test("after sign-in with encryption enabled, the user has a key on the device before any field is encrypted")
    func keyAtSignIn() async throws {
        try await ProfileServer.with { server in
            let store = OpenStore()
            _ = try await ProfileServer.signedIn(server, store: store)
            let keys = await store.fieldKeys
            #expect(keys.count == 1)
            #expect(try FieldEncryptionKey(jwk: try #require(keys.values.first)).keyID.isEmpty == false)
        }
    }

    @Test("without encrypted fields in the app schema, sign-in creates no key")
    func noKeyWithoutEncryption() async throws {
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let store = OpenStore()
            let client = try await ProfileServer.signedIn(server, store: store)
            #expect(try await client.user.schema().isEncryptionEnabled == false)
            #expect(await store.fieldKeys.isEmpty)
        }
    }

    @Test("the plaintext of an encrypted field and the key are in no request and nowhere in the server's files")
    func plaintextStaysOnDevice() async throws {
        try await ProfileServer.with { server in
            let store = OpenStore()
            let transport = PassThroughTransport()
            let client = try await ProfileServer.signedIn(server, store: store, transport: transport)
            let secret = "diagnosis-plaintext-7f3a9c"
            let allergy = "allergy-plaintext-51be02"
            try await client.user.set(field: "diagnosis", value: secret)
            try await client.user.set(data: [
                "diagnosis": .string(secret), "allergies": .array([.string(allergy)]), "nickname": .string("Ada"),
            ])
            #expect(try await client.user.get()["diagnosis"] == .string(secret))

            let jwk = try #require(await store.fieldKeys.values.first)
            let encodedKey = try #require(try JSONValue(parsing: jwk).objectValue?["k"]?.stringValue)
            let rawKey = try #require(Base64URL.decode(encodedKey))
            let needles = [Data(secret.utf8), Data(allergy.utf8), Data(encodedKey.utf8), rawKey]

            let sentDiagnoses = try await
                (transport.requests("PATCH", path: "/v1/me/data")
                + transport.requests("PUT", path: "/v1/me/data")).map { request in
                    try JSONValue(parsing: try #require(request.body)).objectValue?["data"]?.objectValue?["diagnosis"]
                }
            #expect(sentDiagnoses.count == 2)
            #expect(sentDiagnoses.first == sentDiagnoses.last, "an unchanged encrypted field keeps its ciphertext")
            for request in await transport.requests {
                let sent =
                    Data(request.url.absoluteString.utf8) + Data(request.headers.description.utf8)
                    + (request.body ?? Data())
                for needle in needles {
                    #expect(sent.range(of: needle) == nil, "\(request.method) \(request.url.path) carries a secret")
                }
            }
            let files = try serverFiles(server.dataDirectory)
            #expect(files.contains { $0.lastPathComponent.contains("sqlite") || $0.pathExtension == "db" })
            for file in files {
                let contents = try Data(contentsOf: file)
                for needle in needles {
                    #expect(contents.range(of: needle) == nil, "\(file.lastPathComponent) holds a secret")
                }
            }
        }
    }

    @Test("two clients: a stale write to another field is applied again; a write to the same field is a conflict")
    func conflicts() async throws {
        try await ProfileServer.with { server in
            let first = try await ProfileServer.signedIn(server)
            let transport = PassThroughTransport()
            let second = try await ProfileServer.signedIn(server, transport: transport)
            try await first.user.get()
            try await second.user.get()

            try await first.user.set(field: "nickname", value: "Ada")
            try await second.user.set(field: "age", value: 40)
            let patches = await transport.requests("PATCH", path: "/v1/me/data")
            #expect(patches.count == 2, "a 412, then the same change on the new revision")
            #expect(patches.allSatisfy { $0.headers["If-Match"] != nil })
            #expect(patches.first?.headers["If-Match"] != patches.last?.headers["If-Match"])
            #expect(try await first.user.get() == ["nickname": .string("Ada"), "age": .number(40)])

            try await second.user.set(field: "nickname", value: "Grace")
            await #expect(throws: LimenError.profile(.conflict(fields: ["nickname"]))) {
                try await first.user.set(field: "nickname", value: "Ada Lovelace")
            }
            #expect(try await second.user.get()["nickname"] == .string("Grace"), "the conflicting write wrote nothing")
            #expect(await transport.requests("GET", path: "/v1/app").count == 1, "the schema is read once per session")
        }
    }

    @Test("a profile that changes again while the write is applied once more: a conflict, nothing written")
    func conflictWhileReapplying() async throws {
        try await ProfileServer.with { server in
            let first = try await ProfileServer.signedIn(server)
            let transport = PassThroughTransport()
            let second = try await ProfileServer.signedIn(server, transport: transport)
            try await second.user.get()
            try await first.user.set(field: "nickname", value: "Ada")
            await transport.beforeRequest("PATCH", path: "/v1/me/data", skipping: 1) {
                try? await first.user.set(field: "age", value: 50)
            }
            await #expect(throws: LimenError.profile(.conflict(fields: ["diagnosis"]))) {
                try await second.user.set(field: "diagnosis", value: "hay fever")
            }
            #expect(await transport.requests("PATCH", path: "/v1/me/data").count == 2, "applied again once only")
            #expect(try await first.user.get() == ["nickname": .string("Ada"), "age": .number(50)])
        }
    }

    @Test("offline, get() returns the profile cached by the last read, encrypted fields decrypted; sign-out deletes it")
    func offlineRead() async throws {
        try await ProfileServer.with { server in
            let store = OpenStore()
            let online = try await ProfileServer.signedIn(server, store: store)
            try await online.user.set(field: "nickname", value: "Ada")
            try await online.user.set(field: "diagnosis", value: "hay fever")
            let profile = try await online.user.get()

            let transport = PassThroughTransport()
            await transport.goOffline()
            let offline = try ProfileServer.client(server, store: store, transport: transport)
            await offline.restore()
            #expect(try await offline.user.get() == profile)
            #expect(offline.state.user.data == profile)
            #expect(await !transport.requests("GET", path: "/v1/app").isEmpty, "the server was asked first")
            let write = await #expect(throws: LimenError.self) { try await offline.user.set(field: "age", value: 1) }
            #expect(write?.code == "network.offline", "a write needs the server")

            let cached = { await store.entries.keys.filter { $0.hasPrefix("default.profile.") } }
            #expect(await cached().count == 1)
            await online.signOut()
            #expect(await cached().isEmpty, "the cached profile is deleted at sign-out")
            let afterSignOut = try ProfileServer.client(server, store: store, transport: transport)
            await afterSignOut.restore()
            await #expect(throws: LimenError.notSignedIn) { try await afterSignOut.user.get() }
        }
    }

    @Test("a second client reads the encrypted fields only once the first one's key is imported")
    func keyTransfer() async throws {
        try await ProfileServer.with { server in
            let first = try await ProfileServer.signedIn(server)
            try await first.user.set(field: "diagnosis", value: "hay fever")
            let export = try await first.user.exportEncryptionKey(passphrase: "correct horse battery staple")

            let second = try await ProfileServer.signedIn(server)
            let before = await #expect(throws: LimenError.self) { try await second.user.get() }
            guard case .profile(.undecryptableField(let field, .wrongKeyID))? = before else {
                Issue.record("not undecryptableField: \(String(describing: before))")
                return
            }
            #expect(field == "diagnosis")
            try await second.user.importEncryptionKey(export, passphrase: "correct horse battery staple")
            #expect(try await second.user.get() == ["diagnosis": .string("hay fever")])
        }
    }

    @Test("state and events: subscribe { $0.user.data } emits each change, userDataUpdated follows every write")
    func stateAndEvents() async throws {
        try await ProfileServer.with { server in
            let client = try await ProfileServer.signedIn(server)
            var data = client.subscribe { $0.user.data }.makeAsyncIterator()
            var events = client.eventStream().makeAsyncIterator()
            #expect(await data.next() == [:])
            try await client.user.set(field: "nickname", value: "Ada")
            #expect(await data.next() == ["nickname": .string("Ada")])
            #expect(await events.next() == .userDataUpdated)
            try await client.user.set(field: "age", value: 36)
            #expect(await data.next() == ["nickname": .string("Ada"), "age": .number(36)])
            #expect(await events.next() == .userDataUpdated)
            await client.signOut()
            #expect(await data.next() == [:], "sign-out empties the profile in the state")
        }
    }

    /// Every regular file under `directory`.
    private func serverFiles(_ directory: URL) throws -> [URL] {
        let enumerator = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        return (enumerator?.allObjects as? [URL] ?? []).filter {
            (try? $0.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true
        }
    }
}
