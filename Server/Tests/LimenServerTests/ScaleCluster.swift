import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import NIOCore

@testable import LimenServer
@testable import LimenServerCore

/// Two `limen-server` processes on one PostgreSQL database and one data folder (one master key, so both open the same
/// signing keys), both named by the proxy's issuer URL, behind nginx.
struct ScaleCluster {
    /// The issuer: nginx's URL.
    let issuer: String
    /// nginx's port.
    let proxyPort: Int
    /// The nodes, node A first.
    let nodes: [ScaleNode]
    /// The shared database, for arranging data.
    let store: PostgresStore
    /// The shared data folder.
    let dataDirectory: String
    /// The shared database's URL.
    let databaseURL: String
    /// The configuration file nginx runs with.
    let proxyConfigurationPath: String

    /// The nodes' ports, node A first.
    var nodePorts: [Int] { nodes.map(\.port) }

    /// Why the cluster cannot run (nginx, PostgreSQL or the binary missing), or `nil` when it can; always `nil` with
    /// `LIMEN_REQUIRE_PEERS=1`, so CI fails instead of skipping.
    static var unavailableReason: String? { unavailableReason(database: PostgresTestDatabase.unavailableReason) }

    /// ``unavailableReason`` with `database` saying why its database cannot be had (`nil`: it can).
    static func unavailableReason(database: String?) -> String? {
        if Peers.areRequired { return nil }
        if serverExecutableURL == nil { return "the limen-server binary is missing: swift build --package-path Server" }
        return database ?? NginxProxy.unavailableReason
    }
}

/// Starts a fresh database, node A, node B (after A, so that A alone creates the master key and the signing keys) and
/// nginx, runs `body`, and stops them all and drops the database in every path. The database is made through
/// `adminURL` (the shared test server's by default); nodes trust 127.0.0.1 (nginx) as a proxy and get `nodeArguments`
/// too. `body` gets the cluster; stopping a node must end it with status 0.
func withScaleCluster(
    adminURL: String? = PostgresTestDatabase.adminURL,
    nodeArguments: [String] = [],
    _ body: (ScaleCluster) async throws -> Void
) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let database = try await PostgresTestDatabase.make(through: adminURL)
    var nodes: [ScaleNode] = []
    var proxy: RunningProcess?
    func stopAll() async -> [(program: String, result: Subprocess.Result)] {
        var stopped: [(program: String, result: Subprocess.Result)] = []
        if let proxy { stopped.append(("nginx", await proxy.stop())) }
        for node in nodes.reversed() { stopped.append(("limen-server on port \(node.port)", await node.stop())) }
        await database.cleanup()
        return stopped
    }
    do {
        let proxyPort = try FreePort.find()
        let issuer = "http://127.0.0.1:\(proxyPort)"
        let dataDirectory = directory.path + "/data"
        for _ in ["node a", "node b"] {
            let port = try FreePort.find()
            let arguments = [
                "--host", "127.0.0.1", "--port", String(port), "--data-dir", dataDirectory, "--issuer", issuer,
                "--trusted-proxy", "127.0.0.1",
            ]
            let environment = [
                "LIMEN_DATABASE_URL": database.url, "LIMEN_DATABASE_POOL_SIZE": String(PostgresTestDatabase.poolSize),
            ]
            nodes.append(
                try await ScaleNode(port: port, arguments: arguments + nodeArguments, environment: environment))
        }
        proxy = try await NginxProxy.start(port: proxyPort, upstreamPorts: nodes.map(\.port), directory: directory.path)
        try await body(
            ScaleCluster(
                issuer: issuer, proxyPort: proxyPort, nodes: nodes, store: database.store, dataDirectory: dataDirectory,
                databaseURL: database.url, proxyConfigurationPath: NginxProxy.configurationPath(in: directory.path)
            )
        )
    } catch {
        _ = await stopAll()
        throw error
    }
    for (program, result) in await stopAll() where result.status != 0 {
        throw SubprocessError.failed(program: program, status: result.status, standardError: result.standardError)
    }
}

/// Sends one request to the server on 127.0.0.1:`port` over a new connection (HummingbirdTesting's HTTP/1.1 client,
/// which keeps every `Set-Cookie` field apart and never follows redirects).
func livePage(
    port: Int,
    _ uri: String,
    method: HTTPTypes.HTTPRequest.Method = .get,
    headers: HTTPFields = [:],
    body: ByteBuffer? = nil
) async throws -> Page {
    try await TestClient.withClient(host: "127.0.0.1", port: port) { client in
        let request = TestClient.Request(
            uri, method: method, authority: "127.0.0.1:\(port)", headers: headers, body: body)
        let response = try await client.execute(request)
        return Page(status: response.status, headers: response.headers, body: response.body ?? ByteBuffer())
    }
}

/// POSTs a form to the server on 127.0.0.1:`port`.
func liveForm(port: Int, _ uri: String, _ form: [(String, String)]) async throws -> Page {
    try await livePage(
        port: port, uri, method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
        body: ByteBuffer(string: FormEncoding.encode(form)))
}

extension Page {
    /// The body as a JSON object; empty when it is not one.
    var json: [String: JSONValue] {
        (try? JSONDecoder().decode([String: JSONValue].self, from: Data(body.utf8))) ?? [:]
    }
}
