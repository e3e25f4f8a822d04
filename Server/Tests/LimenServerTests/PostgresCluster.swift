import Foundation
import LimenTestSupport

/// A PostgreSQL cluster of one test's own, which the test may stop and start again (the server on 5432 that every other
/// test shares is never restarted), made and run by `Tests/Peers/postgres/cluster.sh` in a temporary folder: TCP on a
/// free port of 127.0.0.1, a superuser `limen` that logs in with a password.
struct PostgresCluster: Sendable {
    /// The port it listens on.
    let port: Int
    /// A URL for the superuser `limen` on the `postgres` database, to make test databases with.
    let adminURL: String
    private let folder: String

    /// Why a cluster cannot be made here (PostgreSQL's programs missing), or `nil` when it can (always `nil` with
    /// `LIMEN_REQUIRE_PEERS=1`, so CI fails instead of skipping).
    static var unavailableReason: String? {
        if Peers.areRequired { return nil }
        let debian = (try? FileManager.default.contentsOfDirectory(atPath: "/usr/lib/postgresql")) ?? []
        let path = ProcessInfo.processInfo.environment["PATH"]?.split(separator: ":").map(String.init) ?? []
        let folders = debian.map { "/usr/lib/postgresql/\($0)/bin" } + path
        if folders.contains(where: { FileManager.default.isExecutableFile(atPath: $0 + "/pg_ctl") }) { return nil }
        return "initdb and pg_ctl are missing: run Tests/Peers/postgres/install.sh"
    }

    /// A cluster to be made in `directory` (which it must not outlive) by ``create()``: its folder, the superuser's
    /// password and a free port chosen.
    init(in directory: TemporaryDirectory) throws {
        folder = directory.path + "/postgres"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let password = UUID().uuidString
        try Data(password.utf8).write(to: URL(fileURLWithPath: folder + "/password"))
        port = try FreePort.find()
        adminURL = "postgres://limen:\(password)@127.0.0.1:\(port)/postgres?sslmode=disable"
    }

    /// Makes the cluster (`initdb`) and starts it.
    func create() async throws {
        try await run(["create", folder, String(port)])
    }

    /// Starts the cluster and returns once it accepts connections.
    func start() async throws {
        try await run(["start", folder])
    }

    /// Stops the cluster as an administrator's restart does (`pg_ctl -m fast`: open transactions rolled back, every
    /// connection closed) and returns once it is down.
    func stop() async throws {
        try await run(["stop", folder, "fast"])
    }

    /// Stops the cluster at once if it runs (its folder goes with the test's temporary directory).
    func remove() async {
        _ = try? await run(["stop", folder, "immediate"])
    }

    private func run(_ arguments: [String]) async throws {
        _ = try await Subprocess.run(
            URL(fileURLWithPath: "/bin/bash"),
            arguments: [PythonPeer.script("Tests/Peers/postgres/cluster.sh").path] + arguments)
    }
}

/// Runs `body` with a cluster of its own (``PostgresCluster``), stopped and removed however `body` ends.
func withPostgresCluster(_ body: (PostgresCluster) async throws -> Void) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let cluster = try PostgresCluster(in: directory)
    do {
        try await cluster.create()
        try await body(cluster)
    } catch {
        await cluster.remove()
        throw error
    }
    await cluster.remove()
}
