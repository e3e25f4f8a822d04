import Foundation
import LimenOIDC

/// An ``AuthClient``'s core calls with completion handlers, for code that does not use `async` (Objective-C, through
/// LimenApple's `LMNAuthClient`, and older Swift). Every completion handler is called exactly once, on the main
/// actor (the main queue), with the value or an `NSError` in ``LimenError/errorDomain``.
///
/// ```swift
/// let callbacks = CallbackClient(client: client)
/// callbacks.accessToken { token, error in
///     if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }
/// }
/// ```
public final class CallbackClient: Sendable {
    /// The client the calls go to.
    public let client: AuthClient

    /// Calls on `client`.
    public init(client: AuthClient) {
        self.client = client
    }

    /// A client configured from the `Limen` dictionary of an app's Info.plist (``Configuration/init(infoDictionary:)``),
    /// restoring its stored session.
    /// - Throws: ``LimenError/configuration(_:)`` naming the missing or invalid key.
    public convenience init(infoDictionary: [String: Any]) throws(LimenError) {
        let configuration: Configuration
        do throws(ConfigurationError) {
            configuration = try Configuration(infoDictionary: infoDictionary)
        } catch {
            throw .configuration(error)
        }
        let client = AuthClient(configuration: configuration)
        Task { await client.restore() }
        self.init(client: client)
    }

    /// Signs in through `userAgent` (``AuthClient/signIn(using:redirectURI:options:)``); the user, or why not.
    public func signIn(
        using userAgent: some UserAgent,
        options: SignInOptions = SignInOptions(),
        completion: @escaping @MainActor @Sendable (AuthState.User?, NSError?) -> Void
    ) {
        perform(completion) { [client] () async throws(LimenError) in
            try await client.signIn(using: userAgent, options: options)
        }
    }

    /// A valid access token, refreshed when needed (``AuthClient/validAccessToken(minimumTimeToLive:)``): `nil` and
    /// no error when nobody is signed in.
    public func accessToken(completion: @escaping @MainActor @Sendable (String?, NSError?) -> Void) {
        let deliver: @MainActor @Sendable (String??, NSError?) -> Void = { token, error in
            completion(token ?? nil, error)
        }
        perform(deliver) { [client] () async throws(LimenError) in
            try await client.validAccessToken()
        }
    }

    /// The signed-in user's claims from the UserInfo endpoint (``AuthClient/userInfo()``).
    public func userInfo(completion: @escaping @MainActor @Sendable (UserInfo?, NSError?) -> Void) {
        perform(completion) { [client] () async throws(LimenError) in try await client.userInfo() }
    }

    /// Signs out, revoking the refresh token (``AuthClient/signOut(revoke:)``); the error is the revocation's, when the
    /// provider could not be told (the device is signed out either way).
    public func signOut(completion: @escaping @MainActor @Sendable (NSError?) -> Void) {
        let deliver: @MainActor @Sendable (Void?, NSError?) -> Void = { _, error in completion(error) }
        perform(deliver) { [client] () async throws(LimenError) in
            if let error = await client.signOut(revoke: true).revocationError { throw error }
        }
    }

    /// Calls `block` on the main actor with the current state, then after every change, until the observation is
    /// cancelled.
    public func observeState(_ block: @escaping @MainActor @Sendable (AuthState) -> Void) -> StateObservation {
        let updates = client.stateUpdates()
        return StateObservation(
            task: Task { @MainActor in
                for await state in updates {
                    block(state)
                }
            })
    }

    /// Runs `operation` and calls `completion` once, on the main actor, with its value or its error as an `NSError`.
    private func perform<Value: Sendable>(
        _ completion: @escaping @MainActor @Sendable (Value?, NSError?) -> Void,
        operation: @escaping @Sendable () async throws(LimenError) -> Value
    ) {
        Task { @MainActor in
            do throws(LimenError) {
                let value = try await operation()
                completion(value, nil)
            } catch {
                completion(nil, error.nsError)
            }
        }
    }
}

/// A running ``CallbackClient/observeState(_:)``: its block is called until ``cancel()``.
public final class StateObservation: Sendable {
    private let task: Task<Void, Never>

    /// The observation that `task` runs.
    init(task: Task<Void, Never>) {
        self.task = task
    }

    /// Stops the calls; a call already running finishes.
    public func cancel() {
        task.cancel()
    }
}
