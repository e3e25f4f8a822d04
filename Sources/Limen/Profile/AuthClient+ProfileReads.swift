import Foundation
import LimenOIDC

extension AuthClient {
    /// A profile route of the provider: `<issuer>/v1/app`, `<issuer>/v1/me/data`.
    nonisolated func profileURL(_ path: String) -> URL {
        configuration.issuer.appendingPathComponent(path)
    }

    /// The app schema (`GET /v1/app`, no token needed), fetched once per session.
    func appSchema() async throws(LimenError) -> AppSchema {
        let session = generation
        if let known = await profiles.schema(in: session) { return known }
        let response: HTTPResponse
        do {
            response = try await configuration.transport.send(
                HTTPRequest(url: profileURL("v1/app"), headers: ["Accept": "application/json"]))
        } catch {
            throw .network(error)
        }
        guard response.status == 200 else { throw .profile(ProfileError(response: response)) }
        guard let document = try? JSONValue(parsing: response.body) else {
            throw .profile(.malformedResponse("the app schema is not JSON"))
        }
        let schema: AppSchema
        do {
            schema = try AppSchema(document: document)
        } catch {
            throw .profile(error)
        }
        await profiles.remember(schema, in: session)
        return schema
    }

    /// `userID`'s profile from the server (`GET /v1/me/data`), remembered and cached.
    func fetchProfile(of userID: String) async throws(LimenError) -> ProfileSnapshot {
        let schema = try await appSchema()
        let response = try await authorizedRequest(
            HTTPRequest(url: profileURL("v1/me/data"), headers: ["Accept": "application/json"]))
        guard response.status == 200 else { throw .profile(ProfileError(response: response)) }
        let snapshot: ProfileSnapshot
        do {
            snapshot = try ProfileSnapshot(userID: userID, response: response, schema: schema)
        } catch {
            throw .profile(error)
        }
        await keep(snapshot)
        return snapshot
    }

    /// `userID`'s profile from the server, or the cached one when the server cannot be reached now (a retryable
    /// failure: offline, timeout, 5xx); the failure when nothing is cached.
    func readProfile(of userID: String) async throws(LimenError) -> ProfileSnapshot {
        do throws(LimenError) {
            return try await fetchProfile(of: userID)
        } catch  where error.isRetryable {
            guard let cached = await profileCache.load(userID: userID) else { throw error }
            logger.notice("profile server unreachable; reading the cached profile", metadata: ["code": "\(error.code)"])
            return cached
        }
    }

    /// Makes `snapshot` the last one known, in memory and in the cache (a cache that refuses it is logged: the
    /// profile was read or written all the same).
    func keep(_ snapshot: ProfileSnapshot) async {
        await profiles.remember(snapshot)
        do {
            try await profileCache.save(snapshot)
        } catch {
            logger.warning("profile not cached", metadata: ["code": "\(error.code)"])
        }
    }

    /// Puts `snapshot`'s data, decrypted, in the state while its user is signed in, and emits
    /// ``AuthEvent/userDataUpdated`` when that changed the state or `announce` is set; returns the decrypted data.
    @discardableResult
    func publish(_ snapshot: ProfileSnapshot, announce: Bool) async throws(LimenError) -> [String: JSONValue] {
        let data = try await plaintext(of: snapshot)
        var changed = false
        stateStore.update { state in
            guard state.phase == .signedIn, state.user.id == snapshot.userID else { return }
            changed = state.user.data != data
            state.user.data = data
        }
        if changed || announce { events.emit(.userDataUpdated) }
        return data
    }

    /// Forgets `userID`'s profile at sign-out: the cached copy and the one in memory.
    func forgetProfile(of userID: String) async {
        await profiles.forgetSnapshot()
        do {
            try await profileCache.delete(userID: userID)
        } catch {
            logger.warning("cached profile not deleted at sign-out", metadata: ["code": "\(error.code)"])
        }
    }
}
