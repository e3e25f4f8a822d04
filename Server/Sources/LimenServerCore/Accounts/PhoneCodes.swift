import Foundation
import LimenServerStorage
import LimenServerWire

/// One-time codes sent by SMS and what limits them. The codes are ``EmailCodes``' (keyed hashes, ten minutes, five
/// tries, the newest only, used once) with the number in place of the address. Sending costs money and is what SMS
/// pumping fraud abuses, so every message is limited, for every number whether or not it has an account, before
/// anything depends on which it is:
///
/// - per number: 5 messages an hour and 10 a day, and none sooner than 30 seconds after the previous one (counted in
///   one statement, and for a number that gets no message, sign-up being off, as for one that does);
/// - per client address: 10 messages an hour;
/// - to the countries `sms_countries` lists (all by default).
package struct PhoneCodes: Sendable {
    /// Messages per number.
    static let perNumber = EmailCodeBudget(perHour: 5, perDay: 10)
    /// Messages per client address (the day's limit is the hour's, all day).
    static let perClientAddress = EmailCodeBudget(perHour: 10, perDay: 240)
    /// The shortest time between two messages to one number.
    static let resendInterval: TimeInterval = 30

    /// The codes.
    package let codes: EmailCodes
    /// The countries codes may be sent to; `nil`: all.
    package let countries: [Int]?
    private let numberBudget: EmailCodeBudgets
    private let clientAddressBudget: EmailCodeBudgets

    /// Codes of `length` digits kept in `store`, counted in `budgets`.
    package init(
        store: any EmailCodeStore & EmailCodeBudgetStore,
        keys: DerivedKeys,
        now: @escaping @Sendable () -> Date,
        length: Int,
        countries: [Int]?
    ) {
        codes = EmailCodes(store: store, keys: keys, now: now, length: length)
        self.countries = countries
        numberBudget = EmailCodeBudgets(store: store, keys: keys, now: now, mails: Self.perNumber)
        clientAddressBudget = EmailCodeBudgets(store: store, keys: keys, now: now, mails: Self.perClientAddress)
    }

    /// Counts a message to `number` from `clientAddress` for `purpose` (the flow); `nil` when it may be sent, else the
    /// seconds until one may (the earliest of the limits that refused).
    package func spendMessage(
        to number: PhoneNumber,
        from clientAddress: String,
        purpose: String
    ) async throws(StorageError) -> Int? {
        if let wait = try await numberBudget.spendSpacedMessage(
            email: number.e164, purpose: purpose, interval: Self.resendInterval)
        {
            return wait
        }
        if let wait = try await clientAddressBudget.spend(.mail, email: "address \(clientAddress)", purpose: purpose) {
            return wait
        }
        return try await numberBudget.spend(.mail, email: number.e164, purpose: purpose)
    }
}
