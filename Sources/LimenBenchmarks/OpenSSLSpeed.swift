import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Verifications per second that `openssl speed` measures for the algorithms ID tokens use.
struct OpenSSLSpeed {
    var rsa2048: Double?
    var ecdsaP256: Double?
    var ed25519: Double?
    /// The `openssl version` line, or why it could not run.
    var version: String

    /// Runs `openssl speed -seconds 1 rsa2048 ecdsap256 ed25519` and reads the `verify/s` columns.
    static func measure() -> OpenSSLSpeed {
        let version = run(["version"]).map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
        guard let output = run(["speed", "-seconds", "1", "rsa2048", "ecdsap256", "ed25519"]) else {
            return OpenSSLSpeed(version: version ?? "openssl did not run")
        }
        var speed = OpenSSLSpeed(version: version ?? "unknown")
        var header: [Substring] = []
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.contains("verify/s") {
                header = fields
                continue
            }
            guard let column = header.firstIndex(of: "verify/s"), fields.count >= header.count else { continue }
            let value = Double(fields[fields.count - header.count + column])
            if line.hasPrefix("rsa 2048 bits") {
                speed.rsa2048 = value
            } else if line.contains("ecdsa (nistp256)") {
                speed.ecdsaP256 = value
            } else if line.contains("EdDSA (Ed25519)") {
                speed.ed25519 = value
            }
        }
        return speed
    }

    /// Runs `openssl arguments…` and returns its standard output. Spawned with every signal unblocked and at its
    /// default action: `openssl speed` times itself with `SIGALRM`, which the Swift runtime's threads block (a
    /// `Process` child inherits that mask and never stops).
    private static func run(_ arguments: [String]) -> String? {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("limen-openssl-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: output) }
        // Darwin declares both types as optional pointers that `init` allocates, Glibc as structs.
        #if canImport(Darwin)
            var actions: posix_spawn_file_actions_t? = nil
            var attributes: posix_spawnattr_t? = nil
        #else
            var actions = posix_spawn_file_actions_t()
            var attributes = posix_spawnattr_t()
        #endif
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, output.path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv = (["openssl"] + arguments).map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        // Built from ProcessInfo rather than `environ`, which Darwin's module does not export.
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for variable in environment { free(variable) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, "openssl", &actions, &attributes, argv, environment) == 0 else { return nil }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        guard status == 0, let data = try? Data(contentsOf: output) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
