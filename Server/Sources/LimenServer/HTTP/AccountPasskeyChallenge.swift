import Crypto
import Foundation
import LimenServerCore
import LimenServerStorage
import LimenWire

/// The passkey registration challenge the account page carries: sealed (``DerivedKeyPurpose/accountPasskeyChallenge``)
/// and bound to the browser session that got it, so the page keeps no server state until a passkey is added, and a
/// challenge shown to one session opens in no other (nor altered, nor after it expires, which the ceremony checks).
/// It is used once: its use is recorded (``UsedChallengeStore``, by the SHA-256 of its challenge, until it expires)
/// before the ceremony runs, so a second registration with it is refused on any node, and of two at once only one
/// goes on.
struct AccountPasskeyChallenge: Sendable {
    /// Why a challenge sent back is not used.
    enum Refusal: Error, Equatable {
        /// Missing, altered, sealed for another session, or sealed under another key.
        case unusable
        /// Used already (by this form or another sent with it).
        case usedAlready
    }

    /// The seal.
    private let seal: DerivedKeySeal
    /// Where the used challenges are recorded.
    private let used: any UsedChallengeStore
    /// The clock.
    private let now: @Sendable () -> Date

    /// Seals under `keys`, recording the challenges used in `used`.
    init(keys: DerivedKeys, used: any UsedChallengeStore, now: @escaping @Sendable () -> Date) {
        seal = DerivedKeySeal(keys: keys, purpose: .accountPasskeyChallenge)
        (self.used, self.now) = (used, now)
    }

    /// `challenge` sealed for `session`, base64url; empty when it cannot be sealed (the page then offers no button).
    func seal(_ challenge: PasskeyChallenge, session: BrowserSessionRecord) -> String {
        guard let json = try? JSONEncoder().encode(challenge),
            let sealed = try? seal.seal(json, context: Self.context(session))
        else { return "" }
        return Base64URL.encode(sealed)
    }

    /// The challenge `field` holds when it was sealed for `session` and not used before, now recorded as used.
    func redeem(_ field: String?, session: BrowserSessionRecord) async throws(StorageError) -> Result<
        PasskeyChallenge, Refusal
    > {
        guard let challenge = open(field, session: session) else { return .failure(.unusable) }
        let hash = Data(SHA256.hash(data: Data(challenge.challenge.utf8)))
        guard try await used.recordUsedChallenge(challengeHash: hash, expiresAt: challenge.expiresAt, now: now()) else {
            return .failure(.usedAlready)
        }
        return .success(challenge)
    }

    /// The challenge `field` holds when it was sealed for `session`.
    private func open(_ field: String?, session: BrowserSessionRecord) -> PasskeyChallenge? {
        guard let sealed = field.flatMap(Base64URL.decode),
            let json = seal.open(sealed, context: Self.context(session))
        else { return nil }
        return try? JSONDecoder().decode(PasskeyChallenge.self, from: json)
    }

    /// The seal's context: the session's ID hash.
    private static func context(_ session: BrowserSessionRecord) -> String {
        "account-passkey|" + Base64URL.encode(session.idHash)
    }
}
