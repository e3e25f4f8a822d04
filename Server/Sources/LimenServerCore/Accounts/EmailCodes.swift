import Crypto
import Foundation
import LimenServerStorage

/// One-time codes sent by email: random digits (six unless `email_code_length` says up to ten), stored only as an HMAC
/// under a key derived from the master key, valid for ten minutes, at most five tries (each counted before it is
/// checked), single use; a new code for the same address and purpose ends the earlier one. Budgets across codes are
/// ``EmailCodeBudgets``'.
package struct EmailCodes: Sendable {
    /// How long a code works.
    package static let lifetime: TimeInterval = 10 * 60
    /// Tries after which a code no longer works.
    package static let maximumAttempts = 5
    /// How many digits a code has unless the configuration says otherwise.
    package static let defaultLength = 6
    /// The lengths `email_code_length` may have.
    static let lengths: ClosedRange<Int> = 6...10

    /// Where codes are kept.
    package let store: any EmailCodeStore
    /// The key that hashes them.
    package let keys: DerivedKeys
    /// The clock.
    package let now: @Sendable () -> Date
    /// How many digits a code has.
    package var length: Int = Self.defaultLength

    /// Makes it of its parts.
    package init(
        store: any EmailCodeStore, keys: DerivedKeys, now: @escaping @Sendable () -> Date,
        length: Int = Self.defaultLength
    ) {
        self.store = store
        self.keys = keys
        self.now = now
        self.length = length
    }

    /// A new code of ``length`` random digits, not stored yet: ``save(_:email:purpose:)`` makes it the current one,
    /// beside the write of the message that carries it.
    package func newCode() -> String {
        String((0..<length).map { _ in "0123456789".randomElement() ?? "0" })
    }

    /// Makes `code` the current code for `email` and `purpose`, replacing any earlier one.
    package func save(_ code: String, email: String, purpose: String) async throws(StorageError) {
        let created = now()
        try await store.replaceEmailCode(
            EmailCodeRecord(
                email: email, purpose: purpose, codeHash: hash(code, email: email, purpose: purpose),
                createdAt: created, expiresAt: created.addingTimeInterval(Self.lifetime)))
    }

    /// Whether `code` is the current code for `email` and `purpose`; a right code is used up, a wrong one counted.
    package func redeem(_ code: String, email: String, purpose: String) async throws(StorageError) -> Bool {
        let digits = code.filter { !$0.isWhitespace }
        guard digits.count == length, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            _ = try await store.consumeEmailCode(
                email: email, purpose: purpose, codeHash: Data(), now: now(), maximumAttempts: Self.maximumAttempts)
            return false
        }
        return try await store.consumeEmailCode(
            email: email, purpose: purpose, codeHash: hash(digits, email: email, purpose: purpose), now: now(),
            maximumAttempts: Self.maximumAttempts)
    }

    private func hash(_ code: String, email: String, purpose: String) -> Data {
        Data(
            HMAC<SHA256>.authenticationCode(
                for: Data("\(purpose)\u{0}\(email)\u{0}\(code)".utf8), using: keys.key(for: .emailCode)))
    }
}
