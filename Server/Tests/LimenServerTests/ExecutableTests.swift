import Foundation
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The limen-server executable")
struct ExecutableTests {
    @Test("it prints the issuer and the limen login command, serves, and exits 0 on SIGTERM")
    func servesAndShutsDownOnSIGTERM() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let stopped = try await Subprocess.withRunning(
            try serverExecutable(), arguments: ["--port", "0", "--data-dir", directory.path]
        ) { process in
            _ = try await process.firstLine(on: .standardOutput) { $0.contains("limen login") }
            let text = String(decoding: process.standardOutput, as: UTF8.self)
            let issuerLine = try #require(text.split(separator: "\n").first { $0.contains("issuer:") }, "\(text)")
            let issuer = issuerLine.split(separator: " ").last.map(String.init) ?? ""
            #expect(issuer.hasPrefix("http://127.0.0.1:"))
            #expect(text.contains("limen login --issuer \(issuer) --client-id limen-cli"))

            let metadata = try await ProviderDiscovery.fetch(
                issuer: try #require(URL(string: issuer)),
                transport: URLSessionTransport.forLiveTests()
            )
            #expect(metadata.issuer == issuer)
            return await process.stop()  // SIGTERM
        }
        #expect(!stopped.endedBySignal, "it handles SIGTERM and exits")
        #expect(stopped.status == 0)
        let database = (directory.path as NSString).appendingPathComponent("limen.sqlite")
        let attributes = try FileManager.default.attributesOfItem(atPath: database)
        let mode = (attributes[.posixPermissions] as? NSNumber)?.intValue
        #expect(mode.map { $0 & 0o077 } == 0, "the database is readable by others")
    }

    @Test("it refuses to start with a master key file others can read, saying how to fix it")
    func refusesLooseMasterKey() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let keyPath = (directory.path as NSString).appendingPathComponent("master.key")
        _ = try MasterKey.loadOrCreate(at: keyPath)
        try FileManager.default.setAttributes([.posixPermissions: 0o604], ofItemAtPath: keyPath)

        let refused = try await Subprocess.capture(
            try serverExecutable(), arguments: ["--port", "0", "--data-dir", directory.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("limen-server: The master key file \(keyPath) has mode 604"))
    }

    @Test("clients add prints a confidential client's secret once; the database holds only its hash")
    func clientsAddStoresOnlyTheHash() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let added = try await Subprocess.capture(
            try serverExecutable(),
            arguments: [
                "clients", "add", "--data-dir", directory.path, "--id", "web", "--redirect-uri",
                "https://app.example/cb",
            ])
        #expect(added.status == 0)
        let line = try #require(added.outputText.split(separator: "\n").first { $0.hasPrefix("client_secret: ") })
        let secret = String(line.dropFirst("client_secret: ".count))

        let store = try await SQLiteStore.open(
            path: (directory.path as NSString).appendingPathComponent("limen.sqlite"))
        let client = try await store.client(id: "web")
        await store.close()
        #expect(client?.kind == .confidential)
        #expect(client?.secretHash == ClientSecret.hash(secret))
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where file.hasPrefix("limen.sqlite") {
            let path = (directory.path as NSString).appendingPathComponent(file)
            let raw = try Data(contentsOf: URL(fileURLWithPath: path))
            #expect(!raw.containsBytes(Data(secret.utf8)), "the secret is in \(file)")
        }
    }

    @Test("users add refuses a 60,000-character name, saying the limit, and creates nobody")
    func usersAddLongName() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let add = try await Subprocess.capture(
            try serverExecutable(),
            arguments: [
                "users", "add", "--data-dir", directory.path, "--email", "ada@example.com",
                "--name", String(repeating: "n", count: 60_000),
            ],
            input: Data("analytical engine 1843\n".utf8))
        #expect(add.status != 0)
        #expect(add.standardError.contains("Use at most 256 characters for your name."))
        let store = try await SQLiteStore.open(
            path: (directory.path as NSString).appendingPathComponent("limen.sqlite"))
        #expect(try await store.users().isEmpty)
        await store.close()
    }

    @Test("users add reads the password from standard input and stores only its scrypt hash; users list shows it")
    func usersAdd() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let password = "analytical engine 1843"
        let add = try await Subprocess.capture(
            try serverExecutable(),
            arguments: ["users", "add", "--data-dir", directory.path, "--email", "Ada@Example.com", "--name", "Ada"],
            input: Data((password + "\n").utf8))
        #expect(add.status == 0)
        #expect(add.outputText.contains("Created user ada@example.com"))

        let store = try await SQLiteStore.open(
            path: (directory.path as NSString).appendingPathComponent("limen.sqlite"))
        let user = try #require(try await store.user(email: "ada@example.com"))
        await store.close()
        #expect(try await PasswordHasher().verify(password, against: try #require(user.passwordHash)))
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path)
        where file.hasPrefix("limen.sqlite") {
            let raw = try Data(
                contentsOf: URL(fileURLWithPath: (directory.path as NSString).appendingPathComponent(file)))
            #expect(!raw.containsBytes(Data(password.utf8)), "the password is in \(file)")
        }

        let rows = try await Subprocess.run(
            try serverExecutable(), arguments: ["users", "list", "--data-dir", directory.path])
        #expect(String(decoding: rows, as: UTF8.self).contains("\(user.id)\tada@example.com\tunverified\tAda\tuser"))
    }
}
