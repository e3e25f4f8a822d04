import Foundation
import LimenOIDC
import Testing

@testable import LimenServer

@Suite("The limen-server executable")
struct ExecutableTests {
    @Test("it prints the issuer and the limen login command, serves, and exits 0 on SIGTERM")
    func servesAndShutsDownOnSIGTERM() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let process = Process()
        process.executableURL = try serverExecutable()
        process.arguments = ["--port", "0", "--data-dir", directory.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.interrupt() } }

        let text = await readOutput(of: output.fileHandleForReading, until: "limen login", timeout: .seconds(60))
        let issuerLine = try #require(text.split(separator: "\n").first { $0.contains("issuer:") }, "\(text)")
        let issuer = issuerLine.split(separator: " ").last.map(String.init) ?? ""
        #expect(issuer.hasPrefix("http://127.0.0.1:"))
        #expect(text.contains("limen login --issuer \(issuer) --client-id limen-cli"))

        let metadata = try await ProviderDiscovery.fetch(
            issuer: try #require(URL(string: issuer)),
            transport: URLSessionTransport.forLiveTests()
        )
        #expect(metadata.issuer == issuer)

        process.terminate()  // SIGTERM
        await waitForExit(process)
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
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

        let process = Process()
        process.executableURL = try serverExecutable()
        process.arguments = ["--port", "0", "--data-dir", directory.path]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        try process.run()
        let message = await readOutput(of: errors.fileHandleForReading, until: "chmod 600", timeout: .seconds(60))
        await waitForExit(process)
        #expect(process.terminationStatus == 1)
        #expect(message.contains("limen-server: The master key file \(keyPath) has mode 604"))
    }

    @Test("clients add prints a confidential client's secret once; the database holds only its hash")
    func clientsAddStoresOnlyTheHash() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let process = Process()
        process.executableURL = try serverExecutable()
        process.arguments = [
            "clients", "add", "--data-dir", directory.path, "--id", "web", "--redirect-uri", "https://app.example/cb",
        ]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = await readOutput(of: output.fileHandleForReading, until: "client_secret:", timeout: .seconds(60))
        await waitForExit(process)
        #expect(process.terminationStatus == 0)
        let line = try #require(text.split(separator: "\n").first { $0.hasPrefix("client_secret: ") })
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
        let add = Process()
        add.executableURL = try serverExecutable()
        add.arguments = [
            "users", "add", "--data-dir", directory.path, "--email", "ada@example.com",
            "--name", String(repeating: "n", count: 60_000),
        ]
        let input = Pipe()
        let errors = Pipe()
        add.standardInput = input
        add.standardOutput = FileHandle.nullDevice
        add.standardError = errors
        try add.run()
        input.fileHandleForWriting.write(Data("analytical engine 1843\n".utf8))
        try input.fileHandleForWriting.close()
        let text = await readOutput(of: errors.fileHandleForReading, until: "for your name", timeout: .seconds(60))
        await waitForExit(add)
        #expect(add.terminationStatus != 0)
        #expect(text.contains("Use at most 256 characters for your name."))
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
        let add = Process()
        add.executableURL = try serverExecutable()
        add.arguments = ["users", "add", "--data-dir", directory.path, "--email", "Ada@Example.com", "--name", "Ada"]
        let input = Pipe()
        let output = Pipe()
        add.standardInput = input
        add.standardOutput = output
        add.standardError = FileHandle.nullDevice
        try add.run()
        input.fileHandleForWriting.write(Data((password + "\n").utf8))
        try input.fileHandleForWriting.close()
        let text = await readOutput(of: output.fileHandleForReading, until: "Created user", timeout: .seconds(60))
        await waitForExit(add)
        #expect(add.terminationStatus == 0)
        #expect(text.contains("Created user ada@example.com"))

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

        let list = Process()
        list.executableURL = try serverExecutable()
        list.arguments = ["users", "list", "--data-dir", directory.path]
        let listed = Pipe()
        list.standardOutput = listed
        try list.run()
        let rows = await readOutput(of: listed.fileHandleForReading, until: "ada@example.com", timeout: .seconds(60))
        await waitForExit(list)
        #expect(rows.contains("\(user.id)\tada@example.com\tunverified\tAda"))
    }
}
