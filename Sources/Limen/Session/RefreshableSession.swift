import Foundation
import LimenOIDC

/// The session a ``Refresher`` refreshes: the token set this process holds and the ways it changes. ``AuthClient``
/// is one.
///
/// The refresher's steps run isolated to the session, so that each decision and the change it leads to happen with
/// nothing in between (a sign-in or sign-out in the same process waits for the step to finish).
protocol RefreshableSession: Actor {
    /// The token set this process holds; `nil` when nobody is signed in.
    var tokens: TokenSet? { get }
    /// Bumped by every sign-in and sign-out: a refresh that started in another generation is discarded.
    var generation: Int { get }
    /// Whether ``tokens`` (or their absence) is not in the store yet.
    var hasUnsavedSession: Bool { get }

    /// Writes an unsaved session to the store (the caller holds the store's lock); returns the error that kept it
    /// unsaved.
    @discardableResult
    func writeUnsavedSession() async -> LimenError?
    /// Makes a set already in the store (saved by another client sharing it) the session in memory.
    func adoptStored(_ stored: TokenSet)
    /// Makes a refreshed set the session: published at once, then persisted.
    func adoptRefreshed(_ next: TokenSet) async
    /// Forgets the session, moving to `phase`.
    func endSession(phase: AuthState.Phase) async
    /// The client of the provider's token endpoint.
    func tokenClient() async throws(LimenError) -> TokenClient
    /// Validates an ID token against the provider's keys and the client's expectations.
    func validateIDToken(_ idToken: String, nonce: String?, maxAge: TimeInterval?, accessToken: String)
        async throws(LimenError) -> IDTokenClaims
}
