import LimenServerStorage

/// One write at a time per user's profile on this node. Concurrent writes to one profile wait here for their turn
/// instead of racing on its revision, where a write without `If-Match` that lost ``ProfileService/attempts`` races in a
/// row was refused as a conflict; across nodes the store's compare-and-set on the revision still settles them.
package actor ProfileWriteQueue {
    /// The users whose profile a write holds, with the writes waiting for it, first come first served.
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]

    /// An empty queue.
    package init() {}

    /// Runs `write` once no other write of `userID`'s profile runs on this node.
    package nonisolated func serialized<Value: Sendable>(
        userID: String,
        _ write: () async throws(ProfileError) -> Value
    ) async throws(ProfileError) -> Value {
        await acquire(userID)
        do {
            let value = try await write()
            await release(userID)
            return value
        } catch {
            await release(userID)
            throw error
        }
    }

    private func acquire(_ userID: String) async {
        guard waiting[userID] != nil else {
            waiting[userID] = []
            return
        }
        await withCheckedContinuation { waiting[userID, default: []].append($0) }
    }

    /// Hands the profile to the next waiting write, or frees it.
    private func release(_ userID: String) {
        guard var queue = waiting[userID], !queue.isEmpty else {
            waiting[userID] = nil
            return
        }
        let next = queue.removeFirst()
        waiting[userID] = queue
        next.resume()
    }
}
