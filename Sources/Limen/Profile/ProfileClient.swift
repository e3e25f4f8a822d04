import Foundation
import LimenOIDC
import Logging

/// The signed-in user's profile on the provider: the app schema, reading and writing the profile's fields (encrypting
/// and decrypting the fields the schema flags `encrypted`), the copy kept in memory and in the cache, and the user's
/// field-encryption key.
struct ProfileClient: Sendable {
    /// The provider (its issuer), the transport, the logger and what sign-out does to the encryption key.
    let configuration: Configuration
    /// The app schema of the current session and the last snapshot.
    let memory: ProfileMemory
    /// The users' cached profiles.
    let cache: ProfileCache
    /// The users' field-encryption keys.
    let keyring: FieldKeyring
    /// The state the signed-in user's decrypted profile is published in.
    let stateStore: StateStore
    /// Where ``AuthEvent/userDataUpdated`` goes.
    let events: EventBus
    /// The session whose user the profile is.
    let session: any ProfileSession

    var logger: Logger { configuration.logger }

    /// A profile route of the provider: `<issuer>/v1/app`, `<issuer>/v1/me/data`.
    func url(_ path: String) -> URL {
        configuration.issuer.appendingPathComponent(path)
    }

    /// The app schema (`GET /v1/app`, no token needed), fetched once per session.
    func appSchema() async throws(LimenError) -> AppSchema {
        let generation = await session.generation
        if let known = await memory.schema(in: generation) { return known }
        let response: HTTPResponse
        do {
            response = try await configuration.transport.send(
                HTTPRequest(url: url("v1/app"), headers: ["Accept": "application/json"]))
        } catch {
            throw LimenError(error)
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
        await memory.remember(schema, in: generation)
        return schema
    }

    /// `userID`'s profile from the server (`GET /v1/me/data`), remembered and cached.
    func fetchProfile(of userID: String) async throws(LimenError) -> ProfileSnapshot {
        let schema = try await appSchema()
        let response = try await session.authorizedRequest(
            HTTPRequest(url: url("v1/me/data"), headers: ["Accept": "application/json"]))
        guard response.status == 200 else { throw .profile(ProfileError(response: response)) }
        return try await keep(response, of: userID, schema: schema)
    }

    /// The profile in a successful answer of the server, remembered and cached.
    func keep(_ response: HTTPResponse, of userID: String, schema: AppSchema) async throws(LimenError)
        -> ProfileSnapshot
    {
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
            guard let cached = await cache.load(userID: userID) else { throw error }
            logger.notice("profile server unreachable; reading the cached profile", metadata: ["code": "\(error.code)"])
            return cached
        }
    }

    /// Makes `snapshot` the last one known, in memory and in the cache (a cache that refuses it is logged: the
    /// profile was read or written all the same).
    func keep(_ snapshot: ProfileSnapshot) async {
        await memory.remember(snapshot)
        do {
            try await cache.save(snapshot)
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
        await memory.forgetSnapshot()
        do {
            try await cache.delete(userID: userID)
        } catch {
            logger.warning("cached profile not deleted at sign-out", metadata: ["code": "\(error.code)"])
        }
    }
}
