import Foundation
import LimenOIDC

/// The signed-in user's profile on Limen Server (Rownd's `user.get` / `user.set`), against the app schema the server
/// publishes (`GET /v1/app`, read once per session).
///
/// ```swift
/// try await client.user.set(field: "nickname", value: "Ada")
/// let profile = try await client.user.get()             // ["nickname": "Ada", …]
/// let nickname: String? = client.user.get(field: "nickname")
/// ```
///
/// - The profile is part of the state: ``AuthState/User/data`` holds what the last read or write returned, and
///   ``AuthEvent/userDataUpdated`` follows each change.
/// - Fields the schema flags `encrypted` are encrypted on this device before ``set(data:)`` and
///   ``set(field:value:)`` send them, and decrypted by ``get()``: the server only ever holds a JWE (see
///   ``encrypt(plaintext:)``). A field this device cannot decrypt fails the read with
///   ``ProfileError/undecryptableField(field:reason:)``; ciphertext is never handed to the app as if it were the value.
/// - Each read is cached in the secure store: when the server cannot be reached, ``get()`` returns the cached
///   profile (as of the last successful read or write on this device). The cache is deleted at sign-out.
/// - Each write names the profile's last `ETag` in `If-Match`; when another device wrote meanwhile, the change is
///   applied again on the new revision if that device changed other fields, and fails with
///   ``ProfileError/conflict(fields:)`` if it changed the same ones.
///
/// Every failure is a ``LimenError``: ``LimenError/profile(_:)`` for what the profile server refused,
/// ``LimenError/notSignedIn``, ``LimenError/network(_:)`` (a write needs the server), ``LimenError/encryption(_:)``.
extension CurrentUser {
    /// The user's profile, encrypted fields decrypted; from the server, or from the cache when it cannot be reached.
    ///
    /// ```swift
    /// let profile = try await client.user.get()
    /// print(profile["nickname"]?.stringValue ?? "no nickname")
    /// ```
    @discardableResult
    public func get() async throws(LimenError) -> [String: JSONValue] {
        let userID = try await client.signedInUserID()
        return try await client.profiles.publish(try await client.profiles.readProfile(of: userID), announce: false)
    }

    /// A field of the profile in the state (as the last ``get()`` or write left it) as a `T`, or `nil` when it is
    /// absent or not a `T`. `"id"` is the user's ID (`sub`). Reads no server: call ``get()`` first to refresh.
    ///
    /// ```swift
    /// let id: String? = client.user.get(field: "id")
    /// let age: Int? = client.user.get(field: "age")
    /// ```
    public func get<T: Decodable>(field: String) -> T? {
        let user = client.state.user
        guard let value = field == "id" ? user.id.map(JSONValue.string) : user.data[field] else { return nil }
        guard let json = try? JSONEncoder().encode([value]) else { return nil }
        return (try? JSONDecoder().decode([T].self, from: json))?.first
    }

    /// Replaces the profile with `data` (`PUT /v1/me/data`): fields left out are removed. Encrypted fields are
    /// encrypted first; one whose value did not change keeps its stored ciphertext.
    /// - Throws: ``ProfileError/invalidField(field:reason:)`` for a value the schema refuses (naming the field),
    ///   ``ProfileError/conflict(fields:)`` when another device changed the same fields meanwhile.
    public func set(data: [String: JSONValue]) async throws(LimenError) {
        try await client.profiles.writeProfile(data, kind: .replace)
    }

    /// Sets one field (`PATCH /v1/me/data`, an RFC 7396 merge patch); the others stay as they are. A value of
    /// `JSONValue.null` removes the field. Any `Encodable` value is sent as the JSON it encodes to.
    ///
    /// ```swift
    /// try await client.user.set(field: "nickname", value: "Ada")
    /// try await client.user.set(field: "age", value: 36)
    /// try await client.user.set(field: "nickname", value: JSONValue.null)   // removed
    /// ```
    /// - Throws: As ``set(data:)``; ``ProfileError/invalidRequest(_:)`` when `value` does not encode to JSON.
    public func set(field: String, value: some Encodable & Sendable) async throws(LimenError) {
        let json: JSONValue
        do {
            let encoded = try JSONEncoder().encode([value])
            json = try JSONDecoder().decode([JSONValue].self, from: encoded).first ?? .null
        } catch {
            throw .profile(.invalidRequest("the value of \(field) does not encode to JSON"))
        }
        try await client.profiles.writeProfile([field: json], kind: .merge)
    }

    /// The app schema (`GET /v1/app`), fetched once per session.
    public func schema() async throws(LimenError) -> AppSchema {
        try await client.profiles.appSchema()
    }
}
