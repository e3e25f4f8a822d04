import Foundation
import Testing

@testable import LimenServer

/// A relying party written by someone else — Python's Authlib, verifying the ID token with joserfc — runs
/// code + PKCE against a live Limen Server (`Tests/Peers/authlib/code_flow.py`).
@Suite(
    "A third-party client (Authlib) against a live server",
    .enabled(if: AuthlibPeer.unavailableReason == nil, "python3 with authlib, joserfc and requests is missing")
)
struct ThirdPartyClientTests {
    struct Summary: Decodable {
        let sub: String
        let alg: String
        let tokenType: String?
        let hasRefreshToken: Bool
        let replayedCodeError: String?
        let wrongVerifierError: String?
    }

    @Test(
        "Authlib signs in, verifies the ID token, and sees a replayed code and a wrong verifier refused",
        arguments: [("rp", "RS256"), ("limen-cli", "ES256")]
    )
    func codeFlow(clientID: String, alg: String) async throws {
        try await withLiveServer { provider, issuer in
            let password = "correct horse battery"
            let user = try await provider.accounts.signUp(email: "ada@example.com", password: password, name: "Ada")
            let redirectURI = "http://127.0.0.1:9/callback"
            var secret: String?
            if clientID == "rp" {
                let registration = ClientRegistration(
                    id: clientID, kind: .confidential, redirectURIs: [redirectURI], idTokenSignedResponseAlg: alg)
                let (client, issuedSecret) = try registration.record(now: provider.now())
                try await provider.store.insertClientIfAbsent(client)
                secret = issuedSecret
            }
            var arguments = [
                AuthlibPeer.script.path, "--issuer", issuer, "--client-id", clientID, "--redirect-uri", redirectURI,
                "--email", "ada@example.com", "--password", password,
            ]
            if let secret { arguments += ["--client-secret", secret] }
            let output = try await AuthlibPeer.run(arguments)
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let summary = try decoder.decode(Summary.self, from: output)
            #expect(summary.sub == user.id)
            #expect(summary.alg == alg)
            #expect(summary.tokenType?.lowercased() == "bearer")
            #expect(summary.hasRefreshToken)
            #expect(summary.replayedCodeError == "invalid_grant")
            #expect(summary.wrongVerifierError == "invalid_grant")
        }
    }
}

/// Runs the Authlib script with python3.
enum AuthlibPeer {
    /// `Tests/Peers/authlib/code_flow.py` in the repository.
    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(
                "Tests/Peers/authlib/code_flow.py")
    }

    /// Why the script cannot run, or `nil`; with `LIMEN_REQUIRE_PEERS=1` it always runs (and fails when missing).
    static let unavailableReason: String? = {
        if ProcessInfo.processInfo.environment["LIMEN_REQUIRE_PEERS"] == "1" { return nil }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import authlib, joserfc, requests"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return "python3 is not installed" }
        process.waitUntilExit()
        return process.terminationStatus == 0 ? nil : "pip install authlib joserfc requests"
    }()

    /// Runs python3 with `arguments`; its standard output, or an error with its standard error. Output goes to files,
    /// so neither stream can fill a pipe and stall the script.
    static func run(_ arguments: [String]) async throws -> Data {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let outURL = URL(fileURLWithPath: directory.path + "/stdout")
        let errURL = URL(fileURLWithPath: directory.path + "/stderr")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        let exited = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exited.continuation.finish() }
        try process.run()
        for await _ in exited.stream {}
        guard process.terminationStatus == 0 else {
            throw AuthlibError(message: (try? String(contentsOf: errURL, encoding: .utf8)) ?? "")
        }
        return try Data(contentsOf: outURL)
    }

    /// The script failed; its standard error.
    struct AuthlibError: Error, CustomStringConvertible {
        let message: String
        var description: String { "code_flow.py failed: \(message)" }
    }
}
