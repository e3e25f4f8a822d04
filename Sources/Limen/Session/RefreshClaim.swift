import Foundation

/// A note in the store that one client, in one process, is refreshing the session: the other processes sharing the
/// store (an app and its widget) wait for its result rather than spend the same rotating refresh token, without anyone
/// holding the store's lock file across the network call (iOS ends a suspended app that holds a file lock in a shared
/// container, `0xdead10cc`).
///
/// Written and cleared under the store's cross-process lock. A claim whose holder died (the app was killed mid-refresh)
/// lapses after ``lifetime``.
struct RefreshClaim: Codable, Sendable, Equatable {
    /// The client that holds the claim (one identifier per `AuthClient` instance).
    var owner: String
    /// When the claim lapses.
    var expiresAt: Date

    /// How long a claim holds: longer than a refresh request may take.
    static let lifetime: TimeInterval = 60
    /// How often a client waiting for another one's refresh looks at the store again.
    static let pollInterval: Duration = .milliseconds(100)

    /// Whether the claim keeps a client other than `client` from refreshing at `now`.
    func blocks(_ client: String, at now: Date) -> Bool {
        owner != client && expiresAt > now
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
