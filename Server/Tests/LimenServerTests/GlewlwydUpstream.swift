import Foundation
import LimenOIDC
import LimenTestSupport
import Testing

/// glewlwyd (`Tests/Peers/glewlwyd`), a third-party OpenID provider, as the upstream provider of Limen's hosted pages:
/// started on a free port for one test, with its test user and the confidential client Limen signs in as. (The SDK's
/// tests have their own launcher in the root package's test support, which this package cannot import.)
struct GlewlwydUpstream: Sendable {
    /// The peer's description, as `start.sh` prints it.
    private struct Description: Decodable {
        struct User: Decodable {
            let username: String
            let password: String
        }

        struct Client: Decodable {
            let clientID: String
            let clientSecret: String?
        }

        let issuer: String
        let baseURL: String
        let user: User
        let clients: [Client]
    }

    /// Its issuer identifier (`http://127.0.0.1:PORT/api/oidc`).
    let issuer: String
    /// The confidential client's ID and secret (registered with Limen's callback).
    let clientID: String
    /// The confidential client's secret.
    let clientSecret: String
    private let peer: Description

    /// The test user's login name at glewlwyd.
    var username: String { peer.user.username }
    /// The test user's password at glewlwyd.
    var password: String { peer.user.password }

    /// Why glewlwyd cannot run here, or `nil` when it can (with `LIMEN_REQUIRE_PEERS=1` it always runs).
    static var unavailableReason: String? {
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/glewlwyd") || Peers.areRequired { return nil }
        return "glewlwyd is not installed (run Tests/Peers/glewlwyd/install.sh)"
    }

    /// Runs `body` with a fresh glewlwyd, stopped and removed in every path.
    static func with(_ body: (GlewlwydUpstream) async throws -> Void) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let output = try await Subprocess.run(
            PythonPeer.script("Tests/Peers/glewlwyd/start.sh"),
            arguments: ["--port", String(try FreePort.find()), "--dir", directory.path])
        do {
            let description = try JSONDecoder().decode(Description.self, from: output)
            let client = try #require(description.clients.first { $0.clientSecret != nil })
            try await body(
                GlewlwydUpstream(
                    issuer: description.issuer, clientID: client.clientID, clientSecret: client.clientSecret ?? "",
                    peer: description))
        } catch {
            _ = try? await Subprocess.run(
                PythonPeer.script("Tests/Peers/glewlwyd/stop.sh"), arguments: [directory.path])
            throw error
        }
        _ = try? await Subprocess.run(PythonPeer.script("Tests/Peers/glewlwyd/stop.sh"), arguments: [directory.path])
    }

    /// What the person does at glewlwyd: signs in with the test user's name and password (its login API, which its
    /// login page calls), then opens the authorization URL Limen redirected to; the URL glewlwyd sends the browser back
    /// to.
    func signIn(at authorizationURL: String) async throws -> String {
        let transport = URLSessionTransport.forLiveTests()
        let credentials = try JSONEncoder().encode([
            "username": username, "password": password,
        ])
        let login = try await transport.send(
            HTTPRequest(
                method: "POST", url: try #require(URL(string: peer.baseURL + "/api/auth/")),
                headers: ["Content-Type": "application/json"], body: credentials))
        #expect(login.status == 200, "glewlwyd's login API")
        let cookie = try #require(login.header("Set-Cookie")?.split(separator: ";").first.map(String.init))
        // glewlwyd's `g_continue`: "the login page is done, continue the authorization".
        let answer = try await transport.send(
            HTTPRequest(url: try #require(URL(string: authorizationURL + "&g_continue")), headers: ["Cookie": cookie]))
        #expect(answer.status == 302, "glewlwyd redirects back")
        return try #require(answer.header("Location"))
    }
}
