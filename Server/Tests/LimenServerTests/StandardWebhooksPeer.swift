import Foundation
import LimenTestSupport
import LimenWire

@testable import LimenServerCore

/// An event-webhook receiver over plain HTTP on 127.0.0.1 (Python, `Tests/Peers/standardwebhooks/receiver.py`) that
/// verifies each POST with the Standard Webhooks specification's own library, with the secret in ``writeSecret(_:)``.
struct StandardWebhooksPeer {
    /// Why the peer cannot run here; `nil` when it can.
    static let unavailableReason = Peers.missingPythonModules(
        "standardwebhooks", install: "pip install standardwebhooks")

    let directory: TemporaryDirectory
    let port: Int

    /// Its URL.
    var url: String { "http://127.0.0.1:\(port)/hooks/limen" }

    /// Runs `body` with a receiver giving `answers` to its first POSTs (a status code, or `hang`), then verifying.
    static func with(answers: [String] = [], _ body: (StandardWebhooksPeer) async throws -> Void) async throws {
        try await PythonPeer.serve(
            script: "Tests/Peers/standardwebhooks/receiver.py",
            arguments: ["--answers", answers.joined(separator: ",")]
        ) { directory, port in
            try await body(StandardWebhooksPeer(directory: directory, port: port))
        }
    }

    /// Makes the receiver verify with `secret` from now on.
    func writeSecret(_ secret: WebhookSecret) throws {
        try Data(secret.rawValue.utf8).write(to: URL(fileURLWithPath: directory.path + "/secret"))
    }

    /// The POSTs it verified, oldest first: each its `webhook-id` and the payload.
    func received() throws -> [(id: String, payload: [String: JSONValue])] {
        let folder = directory.path + "/received"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted {
            (Int($0.split(separator: ".")[0]) ?? 0) < (Int($1.split(separator: ".")[0]) ?? 0)
        }
        return try names.map { name in
            let object = try JSONValue(parsing: Data(contentsOf: URL(fileURLWithPath: folder + "/" + name))).objectValue
            return (object?["id"]?.stringValue ?? "", object?["payload"]?.objectValue ?? [:])
        }
    }

    /// What it answered each POST (`204`, `401`, `500`, `hang`, …), in order.
    func answers() -> [String] {
        ((try? String(contentsOfFile: directory.path + "/attempts", encoding: .utf8)) ?? "")
            .split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
    }
}
