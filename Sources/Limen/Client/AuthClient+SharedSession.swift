import Foundation

extension AuthClient {
    /// Listens to ``Configuration/sessionChanges``, if any, for as long as this client exists.
    nonisolated func listenForSessionChanges() {
        guard let channel = configuration.sessionChanges else { return }
        let changes = channel.changes()
        sessionChangeListening.start { [weak self] in
            for await _ in changes {
                await self?.reloadSharedSession()
            }
        }
    }

    /// Tells the other processes sharing the store, and the app's hook, that this process changed the stored session.
    func announceSessionChange() {
        configuration.sessionChanges?.post()
        configuration.onSessionChange?()
    }

    /// Adopts what another process stored: its sign-in, its refreshed tokens, its sign-out. Does nothing before the
    /// first restore (which reads the store anyway), while this process holds a set the store has not accepted yet,
    /// or when the store cannot be read now (the next change or access reads it again).
    func reloadSharedSession() async {
        guard hasRestored, !hasUnsavedSession else { return }
        let stored: TokenSet?
        do {
            stored = try await sessions.load()
        } catch {
            logger.notice("shared session not reloaded", metadata: ["code": "\(error.code)"])
            return
        }
        guard stored != tokens else { return }
        if let stored {
            if stored.subject != tokens?.subject { generation += 1 }
            tokens = stored
            stateStore.update { $0 = .signedIn(stored, after: $0) }
        } else {
            generation += 1
            tokens = nil
            stateStore.update { $0 = .ended(.signedOut, hadSignedIn: true) }
            events.emit(.signedOut)
        }
        logger.debug("session changed by another process; reloaded")
        configuration.onSessionChange?()
    }
}
