/// Hands out the ports of a small fixed set (a peer's registered redirect ports, say) to one caller at a time within
/// this process, each free when handed out, so that tests running in parallel never pick the same one between the
/// check and their bind.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public enum FixedPorts {
    /// Every port of the set is held by another caller, or bound.
    public struct AllTaken: Error, CustomStringConvertible {
        /// The set.
        public let ports: [Int]
        /// Says what failed.
        public var description: String { "every port of \(ports) is held by another test or bound" }
    }

    private static let held = Locked<Set<Int>>([])

    /// Runs `body` with a port of `ports` that no other caller in this process holds and that can be bound now (the
    /// first such, in order); the port is held until `body` ends, however it ends.
    public static func withOne<Result>(
        of ports: [Int],
        isolation: isolated (any Actor)? = #isolation,
        _ body: (Int) async throws -> Result
    ) async throws -> Result {
        let port = try held.withLock { held -> Int in
            guard let port = ports.first(where: { !held.contains($0) && FreePort.isFree($0) }) else {
                throw AllTaken(ports: ports)
            }
            held.insert(port)
            return port
        }
        defer { held.withLock { _ = $0.remove(port) } }
        return try await body(port)
    }
}
