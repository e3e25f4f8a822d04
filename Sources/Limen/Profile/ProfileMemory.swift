/// What one client remembers of profiles between calls: the app schema of the current session (fetched once per
/// session), the last snapshot read or written, and the lock that makes this client's profile writes one at a time (so
/// each sends the `ETag` the previous one returned).
actor ProfileMemory {
    private var schema: (generation: Int, schema: AppSchema)?
    private var snapshot: ProfileSnapshot?
    /// Held by each write, from reading its base to publishing its result.
    let writes = AsyncMutex()

    /// The schema fetched in session `generation`, if any.
    func schema(in generation: Int) -> AppSchema? {
        schema.flatMap { $0.generation == generation ? $0.schema : nil }
    }

    /// Remembers the schema of session `generation`.
    func remember(_ schema: AppSchema, in generation: Int) {
        self.schema = (generation, schema)
    }

    /// The last snapshot of `userID`'s profile this client read from the server or wrote.
    func snapshot(of userID: String) -> ProfileSnapshot? {
        snapshot.flatMap { $0.userID == userID ? $0 : nil }
    }

    /// Remembers `snapshot` as the last one.
    func remember(_ snapshot: ProfileSnapshot) {
        self.snapshot = snapshot
    }

    /// Forgets the snapshot (at sign-out).
    func forgetSnapshot() {
        snapshot = nil
    }
}
