import Foundation

/// Apple's refresh token for a user, at rest: AES-256-GCM under the key derived from the master key for
/// ``DerivedKeyPurpose/appleRefreshToken``, bound to the user's ID (ciphertext moved to another row does not open).
///
/// ```swift
/// let seal = AppleRefreshTokenSeal(keys: provider.derivedKeys)
/// let sealed = try seal.seal(refreshToken, userID: user.id)
/// let token = seal.open(sealed, userID: user.id)  // nil when altered, moved or under another master key
/// ```
package struct AppleRefreshTokenSeal: Sendable {
    private let sealer: DerivedKeySeal

    /// The seal under `keys`.
    package init(keys: DerivedKeys) {
        sealer = DerivedKeySeal(keys: keys, purpose: .appleRefreshToken)
    }

    /// `refreshToken` sealed for the user `userID` (nonce, ciphertext and tag).
    package func seal(_ refreshToken: String, userID: String) throws -> Data {
        try sealer.seal(Data(refreshToken.utf8), context: Self.context(userID))
    }

    /// The refresh token `sealed` holds for `userID`, or `nil` when it does not open.
    package func open(_ sealed: Data, userID: String) -> String? {
        sealer.open(sealed, context: Self.context(userID)).flatMap { String(data: $0, encoding: .utf8) }
    }

    private static func context(_ userID: String) -> String {
        "apple-refresh-token|\(userID)"
    }
}
