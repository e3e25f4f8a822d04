import Foundation
import LimenServerCore
import LimenServerStorage
import LimenWire

/// The passkey registration challenge the account page carries: sealed (``DerivedKeyPurpose/accountPasskeyChallenge``)
/// and bound to the browser session that got it, so the page keeps no server state until a passkey is added, and a
/// challenge shown to one session opens in no other (nor altered, nor after it expires, which the ceremony checks).
struct AccountPasskeyChallenge: Sendable {
    /// The seal.
    private let seal: DerivedKeySeal

    /// Seals under `keys`.
    init(keys: DerivedKeys) {
        seal = DerivedKeySeal(keys: keys, purpose: .accountPasskeyChallenge)
    }

    /// `challenge` sealed for `session`, base64url; empty when it cannot be sealed (the page then offers no button).
    func seal(_ challenge: PasskeyChallenge, session: BrowserSessionRecord) -> String {
        guard let json = try? JSONEncoder().encode(challenge),
            let sealed = try? seal.seal(json, context: Self.context(session))
        else { return "" }
        return Base64URL.encode(sealed)
    }

    /// The challenge `field` holds when it was sealed for `session`.
    func open(_ field: String?, session: BrowserSessionRecord) -> PasskeyChallenge? {
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
