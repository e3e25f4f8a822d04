import Crypto
import Foundation
import LimenWire

extension RecoveryCode {
    /// The form kept at rest: SHA-256 of the ``normalized`` code.
    ///
    /// A plain hash is enough, without salt or a slow KDF, because the codes are high-entropy random values, not chosen
    /// by people: each is ≈ 59 bits from a secure generator, so the only way back from a stolen hash is a search of
    /// 2^59 candidates, which salt or precomputed tables would not change.
    package var hash: Data {
        Data(SHA256.hash(data: Data(normalized.utf8)))
    }

    /// The index in `storedHashes` of the hash of the code `typed` names; `nil` when the text is not a code or matches
    /// none. Every stored hash is compared, each in constant time.
    ///
    /// The caller removes the matched hash in the same transaction as the sign-in it allows, so the code is used once.
    ///
    /// ```swift
    /// if let index = RecoveryCode.match(typed, in: account.recoveryCodeHashes) {
    ///     account.recoveryCodeHashes.remove(at: index)
    /// }
    /// ```
    package static func match(_ typed: String, in storedHashes: [Data]) -> Int? {
        guard let code = RecoveryCode(typed: typed) else { return nil }
        let presented = Base64URL.encode(code.hash)
        var found: Int?
        for (index, stored) in storedHashes.enumerated() {
            let equal = ConstantTime.equals(presented, Base64URL.encode(stored))
            if equal, found == nil { found = index }
        }
        return found
    }
}
