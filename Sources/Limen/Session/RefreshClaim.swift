import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A note in the store that one client, in one process, is refreshing the session: the other processes sharing the
/// store (an app and its widget) wait for its result rather than spend the same rotating refresh token, without anyone
/// holding the store's lock file across the network call (iOS ends a suspended app that holds a file lock in a shared
/// container, `0xdead10cc`).
///
/// Written and cleared under the store's cross-process lock. A claim whose holder died (the app was killed mid-refresh)
/// lapses at once when its ``process`` is seen to be gone, and otherwise after ``lifetime``.
struct RefreshClaim: Codable, Sendable, Equatable {
    /// The client that holds the claim (one identifier per `AuthClient` instance).
    var owner: String
    /// When the claim lapses.
    var expiresAt: Date
    /// The process identifier of the holder; `nil` in claims written before it was recorded.
    var process: Int32?

    /// How long a claim holds: longer than a refresh request may take.
    static let lifetime: TimeInterval = 60
    /// How often a client waiting for another one's refresh looks at the store again.
    static let pollInterval: Duration = .milliseconds(100)

    /// Whether the claim keeps a client other than `client` from refreshing at `now`: not once its holder's process is
    /// gone (killed mid-refresh, it left the claim behind), so the next launch refreshes at once rather than waiting
    /// for ``lifetime`` to pass.
    func blocks(_ client: String, at now: Date) -> Bool {
        guard owner != client, expiresAt > now else { return false }
        return process.map(Self.processExists) ?? true
    }

    /// Whether a process `identifier` exists: `kill(identifier, 0)` fails with `ESRCH` only when there is none. Where
    /// the sandbox hides other processes (`EPERM`), or the identifier was given to a new process meanwhile, the claim
    /// is taken as held and lapses after ``lifetime``: the safe side, which never lets two refreshes run at once.
    static func processExists(_ identifier: Int32) -> Bool {
        identifier > 0 && (kill(identifier, 0) == 0 || errno != ESRCH)
    }
}

extension SessionStore {
    /// The current claim; `nil` when there is none or it cannot be read (a claim is an optimisation, never a reason to
    /// fail a refresh).
    func claim() async -> RefreshClaim? {
        guard let data = try? await store.read(claimKey) else { return nil }
        return try? JSONDecoder().decode(RefreshClaim.self, from: data)
    }

    /// Records `claim`; `false` when the store refused it (the refresh then goes ahead unannounced).
    func record(_ claim: RefreshClaim) async -> Bool {
        guard let data = try? JSONEncoder().encode(claim) else { return false }
        return (try? await store.write(data, for: claimKey)) != nil
    }

    /// Removes the claim.
    func releaseClaim() async {
        try? await store.delete(claimKey)
    }
}
