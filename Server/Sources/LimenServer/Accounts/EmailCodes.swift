import Crypto
import Foundation

/// One-time codes sent by email: six random digits, stored only as an HMAC under a key derived from the master key,
/// valid for ten minutes, at most five wrong tries, single use; a new code for the same address and purpose ends the
/// earlier one.
struct EmailCodes: Sendable {
    /// How long a code works.
    static let lifetime: TimeInterval = 10 * 60
    /// Wrong tries after which a code no longer works.
    static let maximumAttempts = 5
    /// How many digits a code has.
    static let digits = 6

    /// Where codes are kept.
    let store: any Store
    /// The key that hashes them.
    let keys: DerivedKeys
    /// The clock.
    let now: @Sendable () -> Date

    /// A new code for `email` and `purpose`, replacing any earlier one; returned so that it can be sent.
    func issue(email: String, purpose: String) async throws(StorageError) -> String {
        let code = String(Int.random(in: 0..<Self.bound)).leftPadded(to: Self.digits)
        let created = now()
        try await store.replaceEmailCode(
            EmailCodeRecord(
                email: email, purpose: purpose, codeHash: hash(code, email: email, purpose: purpose),
                createdAt: created, expiresAt: created.addingTimeInterval(Self.lifetime)))
        return code
    }

    /// Whether `code` is the current code for `email` and `purpose`; a right code is used up, a wrong one counted.
    func redeem(_ code: String, email: String, purpose: String) async throws(StorageError) -> Bool {
        let digits = code.filter { !$0.isWhitespace }
        guard digits.count == Self.digits, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber) else {
            _ = try await store.consumeEmailCode(
                email: email, purpose: purpose, codeHash: Data(), now: now(), maximumAttempts: Self.maximumAttempts)
            return false
        }
        return try await store.consumeEmailCode(
            email: email, purpose: purpose, codeHash: hash(digits, email: email, purpose: purpose), now: now(),
            maximumAttempts: Self.maximumAttempts)
    }

    private static let bound = Int(pow(10, Double(digits)))

    private func hash(_ code: String, email: String, purpose: String) -> Data {
        Data(
            HMAC<SHA256>.authenticationCode(
                for: Data("\(purpose)\u{0}\(email)\u{0}\(code)".utf8), using: keys.key(for: .emailCode)))
    }
}

extension String {
    /// The string with leading zeros up to `length` characters.
    fileprivate func leftPadded(to length: Int) -> String {
        String(repeating: "0", count: max(0, length - count)) + self
    }
}
