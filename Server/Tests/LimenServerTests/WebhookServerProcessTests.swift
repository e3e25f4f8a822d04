import Foundation
import LimenOIDC
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite(
    "A real limen-server posts security events to a receiver using the standardwebhooks library",
    .enabled(if: StandardWebhooksPeer.unavailableReason == nil, "python3 cannot import standardwebhooks"))
struct WebhookServerProcessTests {
    @Test(
        "an admin change reaches the receiver signed; the event is the one /admin/events shows",
        arguments: TokenBackend.allCases)
    func delivered(_ backend: TokenBackend) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        guard backend == .postgres else { return try await Self.delivered(directory: directory, database: []) }
        let (_, url, drop) = try await PostgresTestDatabase.make()
        do {
            try await Self.delivered(directory: directory, database: ["--database", url])
        } catch {
            await drop()
            throw error
        }
        await drop()
    }

    /// Runs the server with its data in `directory` (and `database` when given) and a receiver, and checks a delivery.
    private static func delivered(directory: TemporaryDirectory, database: [String]) async throws {
        let tokenRun = try await Subprocess.capture(
            try serverExecutable(), arguments: ["admin-token", "--data-dir", directory.path] + database)
        let line = try #require(tokenRun.outputText.split(separator: "\n").first { $0.hasPrefix("admin_token: ") })
        let token = String(line.dropFirst("admin_token: ".count))
        let receiverDirectory = try TemporaryDirectory()
        defer { receiverDirectory.remove() }
        try await Subprocess.withRunning(
            URL(fileURLWithPath: "/usr/bin/env"),
            arguments: [
                "python3", PythonPeer.script("Tests/Peers/standardwebhooks/receiver.py").path, receiverDirectory.path,
            ]
        ) { receiver in
            let ready = try await receiver.firstLine(on: .standardOutput) { $0.hasPrefix("READY ") }
            let receiverURL = "http://127.0.0.1:\(ready.dropFirst("READY ".count))/hooks"
            try await withServerProcess(
                ["--port", "0", "--data-dir", directory.path, "--allow-http-webhooks"] + database
            ) { server in
                let output = String(decoding: server.standardOutput, as: UTF8.self)
                let issuerLine = try #require(output.split(separator: "\n").first { $0.contains("issuer:") })
                let issuer = String(issuerLine.split(separator: " ").last ?? "")
                let created = try await post(
                    issuer + "/admin/webhooks", token: token,
                    json: #"{"url": "\#(receiverURL)", "events": ["user.*"], "description": "e2e"}"#)
                let secret = try #require(created["secret"]?.stringValue)
                try Data(secret.utf8).write(to: URL(fileURLWithPath: receiverDirectory.path + "/secret"))
                _ = try await post(
                    issuer + "/admin/users", token: token,
                    json: #"{"email": "grace@example.com", "password": "correct horse battery"}"#)
                _ = try await receiver.firstLine(on: .standardOutput, timeout: .seconds(60)) { $0 == "KEPT 1" }
                let kept = try JSONValue(
                    parsing: Data(contentsOf: URL(fileURLWithPath: receiverDirectory.path + "/received/1.json")))
                let payload = try #require(kept.objectValue?["payload"]?.objectValue)
                #expect(payload["type"]?.stringValue == "user.created")
                #expect(payload["data"]?.objectValue?["actor"]?.stringValue == "admin_token")
            }
            _ = await receiver.stop()
        }
    }

    /// POSTs `json` to `url` with the admin token; the answer's object.
    private static func post(_ url: String, token: String, json: String) async throws -> [String: JSONValue] {
        let response = try await URLSessionTransport.forLiveTests().send(
            HTTPRequest(
                method: "POST", url: try #require(URL(string: url)),
                headers: ["Authorization": "Bearer \(token)", "Content-Type": "application/json"],
                body: Data(json.utf8)))
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))")
        return try JSONValue(parsing: response.body).objectValue ?? [:]
    }
}
