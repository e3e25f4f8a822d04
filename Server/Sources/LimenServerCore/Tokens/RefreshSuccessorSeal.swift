import Crypto
import Foundation
import LimenServerStorage
import LimenWire

/// Keeps the response of a refresh-token rotation so that a retry with the old token within the grace window gets the
/// same tokens, without storing them in clear: the response is AES-GCM-sealed under a key derived (HKDF-SHA256) from
/// the old refresh token, which the store holds only as a hash. Only the token's holder can open it.
package enum RefreshSuccessorSeal {
    private static let salt = Data("limen.refresh-successor.v1".utf8)

    /// The sealed response (nonce, ciphertext and tag), bound to the token's hash.
    package static func seal(_ body: JSONValue, under refreshToken: String) throws -> Data {
        let sealed = try AES.GCM.seal(
            body.serialized(),
            using: key(for: refreshToken),
            authenticating: RandomIdentifier.hash(refreshToken)
        )
        guard let combined = sealed.combined else { throw CryptoKitError.incorrectParameterSize }
        return combined
    }

    /// The response sealed under `refreshToken`, or `nil` when it does not open with that token.
    package static func open(_ sealed: Data, with refreshToken: String) -> JSONValue? {
        guard let box = try? AES.GCM.SealedBox(combined: sealed),
            let plain = try? AES.GCM.open(
                box, using: key(for: refreshToken), authenticating: RandomIdentifier.hash(refreshToken))
        else { return nil }
        return try? JSONDecoder().decode(JSONValue.self, from: plain)
    }

    private static func key(for refreshToken: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: Data(refreshToken.utf8)),
            salt: salt,
            outputByteCount: 32
        )
    }
}
