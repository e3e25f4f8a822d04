import Foundation

/// Where a signing key is in its life at a given time (``KeyRing/state(of:at:)``).
public enum SigningKeyState: String, Sendable, Equatable {
    /// Published, so clients fetch it, but not signing yet (it signs from its `activatesAt`).
    case upcoming
    /// Signing.
    case signing
    /// Stopped signing, still published until the tokens it signed expire (``KeyRing/retention``).
    case retiring
    /// Stopped signing and no longer published.
    case retired
}

extension KeyRing {
    /// The state of `key`, one of this ring's, at `date`.
    public func state(of key: SigningKey, at date: Date) -> SigningKeyState {
        if key.signs(at: date) { return .signing }
        if key.activatesAt > date { return .upcoming }
        return publishedKeys(at: date).contains { $0.kid == key.kid } ? .retiring : .retired
    }
}
