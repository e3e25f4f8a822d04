import Foundation
import LimenTestSupport
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("limen command-line tool")
struct LimenCLITests {
    /// base64url without padding (RFC 7515 §2).
    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    static let knownToken =
        base64URL(#"{"alg":"RS256","kid":"key-1","typ":"JWT"}"#) + "."
        + base64URL(#"{"iss":"https://issuer.example","sub":"alice","aud":"cli","exp":1900000000}"#)
        + ".c2lnbmF0dXJl"

    @Test("--help lists the subcommands and exits 0")
    func help() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try await cli.complete(["--help"])
        #expect(result.status == 0)
        for name in ["login", "token", "whoami", "logout", "jwt"] {
            #expect(result.outputText.contains(name))
        }
    }

    @Test("jwt decode prints the header and claims, labelled not verified")
    func decodeKnownToken() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try await cli.complete(["jwt", "decode", Self.knownToken])
        #expect(result.status == 0)
        #expect(result.outputText.contains("Header (not verified):"))
        #expect(result.outputText.contains("Payload (not verified):"))
        #expect(result.outputText.contains("\"alice\""))
        #expect(result.outputText.contains("\"https://issuer.example\""))
        #expect(result.outputText.contains("\"key-1\""))
        #expect(result.standardError.isEmpty)
    }

    @Test("jwt decode of garbage exits non-zero with one error line")
    func decodeGarbage() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try await cli.complete(["jwt", "decode", "garbage"])
        #expect(result.status != 0)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("error: jwt.") == true)
        #expect(result.standardOutput.isEmpty)
    }

    @Test("token with an empty credentials directory fails with not_signed_in")
    func tokenWithoutSession() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try await cli.complete(["token"])
        #expect(result.status != 0)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("error: not_signed_in: ") == true)
        #expect(result.standardOutput.isEmpty)
    }

    @Test("whoami and logout without a session fail with not_signed_in", arguments: [["whoami"], ["logout"]])
    func sessionCommandsWithoutSession(arguments: [String]) async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try await cli.complete(arguments + ["--profile", "work"])
        #expect(result.status != 0)
        #expect(result.errorLines.first?.hasPrefix("error: not_signed_in: ") == true)
    }

    @Test("a profile name that is not an identifier is refused")
    func invalidProfile() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let result = try await cli.complete(["token", "--profile", "../escape"])
        #expect(result.status != 0)
        #expect(result.errorLines.count == 1)
        #expect(result.errorLines.first?.hasPrefix("error: cli.invalid_profile: ") == true)
    }

    @Test("login against an unreachable issuer says it could not connect to it, and saves nothing")
    func loginUnreachableIssuer() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        // Port 1 on the loopback interface has no listener: the connection is refused at once.
        let result = try await cli.complete([
            "login", "--issuer", "http://127.0.0.1:1", "--client-id", "cli", "--client-secret", "s3cr3t-value",
            "--no-browser",
        ])
        #expect(result.status != 0)
        #expect(result.errorLines.count == 1)
        #expect(
            result.errorLines.first
                == "error: network.offline: could not connect to http://127.0.0.1:1 (connection refused)")
        #expect(!result.standardError.contains("s3cr3t-value"))
        let settings = cli.configDirectory.appendingPathComponent("default.json")
        #expect(!FileManager.default.fileExists(atPath: settings.path))
    }
}

@Suite("limen login with a provider")
struct LimenLoginTests {
    @Test("login --no-browser prints the authorization URL alone on a line (with idp_hint); a denial fails cleanly")
    func loginNoBrowserPrintsParseableURL() async throws {
        let cli = try CLIRunner()
        defer { cli.cleanUp() }
        let current = Locked<TestHTTPServer?>(nil)
        let routes: [String: TestHTTPServer.Handler] = [
            "GET /.well-known/openid-configuration": { _ in
                guard let server = current.withLock({ $0 }) else { return .json("{}", status: 503) }
                return .json(server.metadata())
            }
        ]
        let result = try await TestHTTPServer.withServer(routes) { server in
            current.withLock { $0 = server }
            return try await cli.withLaunched([
                "login", "--issuer", server.baseURL.absoluteString, "--client-id", "cli-app", "--no-browser",
                "--profile", "work", "--identity-provider", "partner",
            ]) { running in
                let line = try await running.firstLine()
                let url = try #require(URLComponents(string: line))
                #expect(line.hasPrefix(server.url("authorize").absoluteString + "?"))
                #expect(!line.contains(" "))
                let query = Dictionary(
                    (url.queryItems ?? []).map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
                #expect(query["client_id"] == "cli-app")
                #expect(query["scope"] == "openid profile email offline_access")
                #expect(query["code_challenge_method"] == "S256")
                #expect(query["idp_hint"] == "partner")
                let redirect = try #require(query["redirect_uri"].flatMap(URLComponents.init(string:)))
                #expect(redirect.scheme == "http")
                #expect(redirect.host == "127.0.0.1")
                #expect(redirect.path == "/callback")
                #expect(redirect.port != nil)

                var denial = redirect
                denial.queryItems = [
                    URLQueryItem(name: "error", value: "access_denied"),
                    URLQueryItem(name: "state", value: query["state"]),
                ]
                _ = try? await URLSession.shared.data(from: try #require(denial.url))

                return try await running.wait()
            }
        }
        #expect(result.status != 0)
        #expect(result.standardOutput.isEmpty)
        #expect(result.errorLines.count == 2)
        #expect(result.errorLines.last?.hasPrefix("error: ") == true)
        #expect(result.errorLines.last?.contains("access_denied") == true)
        let settings = cli.configDirectory.appendingPathComponent("work.json")
        #expect(!FileManager.default.fileExists(atPath: settings.path))
    }
}
