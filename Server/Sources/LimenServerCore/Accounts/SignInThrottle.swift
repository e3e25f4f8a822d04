import Foundation
import LimenServerStorage

/// Counts each sign-in attempt before its password is checked and decides whether it goes on:
/// - per account name **and client address** (an IPv6 address with its /64, ``ClientNetwork``), a hard lock (``SignInLockout``): a guessing address is stopped, the
///   owner signing in from elsewhere is not;
/// - per account name from anywhere, a delay that grows with the attempts (``SignInSlowdown``), never a lock;
/// - per account name and client address, at most ``maximumInFlight`` attempts at once in this node.
///
/// The count and the lock check are one store step (``SignInThrottleStore``), so parallel attempts cannot all slip in
/// before the first failure is counted. The keys are HMACs under a key derived from the master key: the store holds
/// no email or address, nor a hash anyone could recompute from a list of addresses.
package struct SignInThrottle: Sendable {
    /// The most attempts one account name and client address may have being checked at once (a double-clicked
    /// button passes).
    package static let maximumInFlight = 2

    /// Where attempts are counted.
    package let store: any SignInThrottleStore
    /// Names the counters.
    package let keys: DerivedKeys
    /// The hard lock per account name and client address.
    package let lockout: SignInLockout
    /// The delay per account name.
    package let slowdown: SignInSlowdown
    /// The attempts being checked in this node.
    package let inFlight: InFlightLimit
    /// Waits out the slow-down.
    package let clock: any Clock<Duration>
    /// The provider's clock.
    package let now: @Sendable () -> Date

    /// Makes it of its parts.
    package init(
        store: any SignInThrottleStore, keys: DerivedKeys, lockout: SignInLockout, slowdown: SignInSlowdown,
        inFlight: InFlightLimit, clock: any Clock<Duration>, now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.keys = keys
        self.lockout = lockout
        self.slowdown = slowdown
        self.inFlight = inFlight
        self.clock = clock
        self.now = now
    }

    /// An admitted attempt; ``end()`` must be called once it is decided.
    package struct Attempt: Sendable {
        /// The counter of this account name from this client address.
        let addressKey: String
        /// The counter of this account name from anywhere.
        let emailKey: String
        fileprivate let inFlight: InFlightLimit

        /// Frees the attempt's place among those in flight.
        package func end() {
            inFlight.leave(addressKey)
        }
    }

    /// The counter keys of `email` (normalised) tried from `clientAddress`.
    func counterKeys(email: String, clientAddress: String) -> (address: String, email: String) {
        // An address never contains a line break, so the two forms cannot collide whatever the email holds.
        (
            keys.hmacHex("address \(ClientNetwork.key(of: clientAddress))\n\(email)", for: .signInThrottle),
            keys.hmacHex("email\n\(email)", for: .signInThrottle)
        )
    }

    /// Counts an attempt at `email` (normalised) from `clientAddress` and waits out any slow-down: the attempt, or
    /// `.attemptInProgress` or `.locked` (the attempt not counted).
    package func begin(email: String, clientAddress: String) async throws(AccountError) -> Attempt {
        let (addressKey, emailKey) = counterKeys(email: email, clientAddress: clientAddress)
        guard inFlight.enter(addressKey) else { throw .attemptInProgress }
        let attempt = Attempt(addressKey: addressKey, emailKey: emailKey, inFlight: inFlight)
        do throws(AccountError) {
            if case .locked(let until) = try await count(addressKey, lockout: lockout) {
                throw .locked(retryAfter: max(1, Int(until.timeIntervalSince(now()).rounded(.up))))
            }
            if case .admitted(let attempts) = try await count(emailKey, lockout: nil),
                let delay = slowdown.delay(afterAttempts: attempts)
            {
                try? await clock.sleep(for: delay)
            }
            return attempt
        } catch {
            attempt.end()
            throw error
        }
    }

    /// Forgets the attempts counted for `attempt`'s account name, from its address and from anywhere.
    package func succeeded(_ attempt: Attempt) async throws(AccountError) {
        do {
            try await store.clearSignInFailures(key: attempt.addressKey)
            try await store.clearSignInFailures(key: attempt.emailKey)
        } catch {
            throw .storage(error)
        }
    }

    private func count(_ key: String, lockout: SignInLockout?) async throws(AccountError) -> SignInAttempt {
        do {
            return try await store.countSignInAttempt(key: key, now: now(), lockout: lockout)
        } catch {
            throw .storage(error)
        }
    }
}
