import Crypto
import Foundation

/// Apple's refresh token for a user, at rest: AES-256-GCM under the key derived from the master key for
/// ``DerivedKeyPurpose/appleRefreshToken``, bound to the user's ID (ciphertext moved to another row does not open).
///
/// ```swift
/// let seal = AppleRefreshTokenSeal(keys: provider.derivedKeys)
/// let sealed = try seal.seal(refreshToken, userID: user.id)
/// let token = seal.open(sealed, userID: user.id)  // nil when altered, moved or under another master key
/// ```
struct AppleRefreshTokenSeal: Sendable {
    private let key: SymmetricKey

    /// The seal under `keys`.
    init(keys: DerivedKeys) {
        key = keys.key(for: .appleRefreshToken)
    }

    /// `refreshToken` sealed for the user `userID` (nonce, ciphertext and tag).
    func seal(_ refreshToken: String, userID: String) throws -> Data {
        let box = try AES.GCM.seal(Data(refreshToken.utf8), using: key, authenticating: Self.context(userID))
        guard let combined = box.combined else { throw MasterKeyError.sealFailed }
        return combined
    }

    /// The refresh token `sealed` holds for `userID`, or `nil` when it does not open.
    func open(_ sealed: Data, userID: String) -> String? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Self.context(userID))
        else { return nil }
        return String(data: plain, encoding: .utf8)
    }

    private static func context(_ userID: String) -> Data {
        Data("apple-refresh-token|\(userID)".utf8)
    }
}
