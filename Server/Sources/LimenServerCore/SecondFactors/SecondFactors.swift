import Foundation
import LimenServerStorage
import LimenServerWire

/// Two-step sign-in: a TOTP authenticator app turned on with a current code, ten single-use recovery codes, and the
/// checks of both when someone signs in.
///
/// Every code checked is counted before it is checked, by the sign-in throttle under the account's name and the
/// client's address (``SignInThrottle``): wrong codes count toward the same lockout as wrong passwords, so five
/// wrong codes lock the account for that address as five wrong passwords would. The secret is sealed at rest
/// (``DerivedKeyPurpose/totpSecret``), a code is accepted once (its time step is stored), and a recovery code is
/// removed in the statement that accepts it.
///
/// ```swift
/// let enrolment = try factors.newEnrolment(for: user)
/// let codes = try await factors.enable(enrolment, for: user, code: "492039", from: origin).get()  // shown once
/// try await factors.checkTOTP("107258", for: user, from: "203.0.113.7").get()
/// ```
package struct SecondFactors: Sendable {
    /// Where the factors are kept.
    package let store: any SecondFactorStore
    /// Counts the codes tried.
    package let throttle: SignInThrottle
    /// Seals the TOTP secrets.
    package let seal: DerivedKeySeal
    /// The name authenticator apps list the account under (the relying party's name).
    package let serviceName: @Sendable () -> String
    /// The clock.
    package let now: @Sendable () -> Date
    /// Stamps `mfa.enrolled` and `mfa.removed`.
    package let events: SecurityEventRecorder

    /// Makes it of its parts; the secrets are sealed under `keys`.
    package init(
        store: any SecondFactorStore, throttle: SignInThrottle, keys: DerivedKeys,
        serviceName: @escaping @Sendable () -> String, now: @escaping @Sendable () -> Date,
        events: SecurityEventRecorder
    ) {
        (self.store, self.throttle, self.serviceName, self.now, self.events) = (
            store, throttle, serviceName, now, events
        )
        seal = DerivedKeySeal(keys: keys, purpose: .totpSecret)
    }

    // MARK: Turning it on and off

    /// A new secret for `user` to add to their app.
    package func newEnrolment(for user: UserRecord) throws -> TOTPEnrolment {
        TOTPEnrolment(sealedSecret: try seal.seal(Data(TOTP.newSecret()), context: Self.context(user.id)))
    }

    /// What the setup shows of `enrolment`: the `otpauth://` URI and the secret; `nil` when it is not `user`'s.
    package func setup(of enrolment: TOTPEnrolment, for user: UserRecord) -> TOTPSetup? {
        guard let totp = totp(enrolment.sealedSecret, userID: user.id) else { return nil }
        let account = user.email ?? user.phoneNumber ?? user.id
        return TOTPSetup(
            uri: OTPAuthURI.make(for: totp, issuer: serviceName(), account: account),
            secret: Base32.encode(totp.secret))
    }

    /// Turns two-step sign-in on for `user` with `enrolment`, once `code` is a current code of it: answers the ten new
    /// recovery codes, to be shown once (only their hashes are kept). Asked from `origin`, recorded as `mfa.enrolled`
    /// (TOTP and the recovery codes) in the same unit.
    package func enable(_ enrolment: TOTPEnrolment, for user: UserRecord, code: String, from origin: RequestOrigin)
        async throws(StorageError) -> Result<[RecoveryCode], SecondFactorRefusal>
    {
        let clientAddress = origin.address
        guard let totp = totp(enrolment.sealedSecret, userID: user.id) else { return .failure(.invalidCode) }
        let step: Int64
        let check = { () throws(OneTimePasswordError) in try totp.verify(code, at: now(), lastUsedStep: nil) }
        switch try await counted(user, from: clientAddress, check, recorded: { _ async throws(StorageError) in true }) {
        case .success(let accepted): step = accepted
        case .failure(let refusal): return .failure(refusal)
        }
        let codes = RecoveryCode.newSet()
        let record = SecondFactorRecord(
            userID: user.id, sealedTOTPSecret: enrolment.sealedSecret, lastTOTPStep: step,
            recoveryCodeHashes: codes.map(\.hash), enabledAt: now())
        let enrolled = SecondFactorKind.allCases.map { kind in
            SecurityEvent(.mfaEnrolled, user: user.id, details: .secondFactor(kind))
        }
        let inserted = try await store.insertSecondFactor(record, recording: events.records(enrolled, from: origin))
        return inserted ? .success(codes) : .failure(.wrongState)
    }

    /// Turns `userID`'s two-step sign-in off, asked from `origin`, recorded as `mfa.removed` (TOTP and the recovery
    /// codes) in the same unit; `false` when it was off.
    package func disable(userID: String, origin: RequestOrigin) async throws(StorageError) -> Bool {
        let removed = SecondFactorKind.allCases.map { kind in
            SecurityEvent(.mfaRemoved, user: userID, details: .secondFactor(kind))
        }
        return try await store.deleteSecondFactor(userID: userID, recording: events.records(removed, from: origin))
    }

    /// Ten new recovery codes for `userID` in place of the old ones; `nil` when two-step sign-in is off.
    package func newRecoveryCodes(userID: String) async throws(StorageError) -> [RecoveryCode]? {
        let codes = RecoveryCode.newSet()
        while let factor = try await store.secondFactor(userID: userID) {
            if try await store.replaceRecoveryCodes(
                userID: userID, old: factor.recoveryCodeHashes, new: codes.map(\.hash))
            {
                return codes
            }
        }
        return nil
    }

    /// The codes `userID` can answer a second step with, or `nil` when their two-step sign-in is off: TOTP always,
    /// recovery codes while some are left (their passkeys are the passkey store's).
    package func methods(userID: String) async throws(StorageError) -> Set<SecondFactorMethod>? {
        guard let factor = try await store.secondFactor(userID: userID) else { return nil }
        return factor.recoveryCodeHashes.isEmpty ? [.totp] : [.totp, .recoveryCode]
    }

    // MARK: Checks

    /// Checks `code` from `user`'s authenticator app, counted toward the lockout; the code is accepted once.
    package func checkTOTP(_ code: String, for user: UserRecord, from clientAddress: String)
        async throws(StorageError) -> Result<Void, SecondFactorRefusal>
    {
        guard let factor = try await store.secondFactor(userID: user.id),
            let totp = totp(factor.sealedTOTPSecret, userID: user.id)
        else { return .failure(.wrongState) }
        let check = { () throws(OneTimePasswordError) in
            try totp.verify(code, at: now(), lastUsedStep: factor.lastTOTPStep)
        }
        // Of two requests with the same code, the store lets one record its step: the other's try is a failure.
        let recorded = try await counted(user, from: clientAddress, check) { step async throws(StorageError) in
            try await store.recordTOTPStep(userID: user.id, step: step)
        }
        return recorded.map { _ in }
    }

    /// Checks recovery code `typed` of `user`, counted toward the lockout; a code that matches is used up.
    package func useRecoveryCode(_ typed: String, for user: UserRecord, from clientAddress: String)
        async throws(StorageError) -> Result<Void, SecondFactorRefusal>
    {
        guard let factor = try await store.secondFactor(userID: user.id) else { return .failure(.wrongState) }
        let match = { () throws(OneTimePasswordError) in
            guard let index = RecoveryCode.match(typed, in: factor.recoveryCodeHashes) else { throw .codeMismatch }
            return index
        }
        // Only if no other request used a code meanwhile: of two with the same code, one uses it, the other fails.
        let used = try await counted(user, from: clientAddress, match) { index async throws(StorageError) in
            var left = factor.recoveryCodeHashes
            left.remove(at: index)
            return try await store.replaceRecoveryCodes(userID: user.id, old: factor.recoveryCodeHashes, new: left)
        }
        return used.map { _ in }
    }

    /// Checks a fresh second factor of `user` before a change of their two-step sign-in: `code` is a current code of
    /// their authenticator app, or one of their recovery codes (then used up); counted toward the lockout.
    package func confirm(_ code: String, for user: UserRecord, from clientAddress: String)
        async throws(StorageError) -> Result<Void, SecondFactorRefusal>
    {
        RecoveryCode(typed: code) == nil
            ? try await checkTOTP(code, for: user, from: clientAddress)
            : try await useRecoveryCode(code, for: user, from: clientAddress)
    }

    // MARK: Parts

    /// Runs `check` as an attempt of the sign-in throttle: counted first (refused while the account is locked for the
    /// address), then what it accepted is `recorded` (a code used up, its time step stored), and the attempts are
    /// forgotten only once it was: a try that loses the race to record the same code stays counted as a failure.
    private func counted<Value>(
        _ user: UserRecord,
        from clientAddress: String,
        _ check: () throws(OneTimePasswordError) -> Value,
        recorded record: (Value) async throws(StorageError) -> Bool
    ) async throws(StorageError) -> Result<Value, SecondFactorRefusal> {
        let attempt: SignInThrottle.Attempt
        do throws(AccountError) {
            attempt = try await throttle.begin(email: Self.accountName(user), clientAddress: clientAddress)
        } catch {
            if case .storage(let storage) = error { throw storage }
            return .failure(.locked(retryAfter: error.retryAfter ?? 1))
        }
        defer { attempt.end() }
        let value: Value
        do throws(OneTimePasswordError) {
            value = try check()
        } catch {
            return .failure(.invalidCode)
        }
        guard try await record(value) else { return .failure(.invalidCode) }
        do throws(AccountError) {
            try await throttle.succeeded(attempt)
        } catch {
            if case .storage(let storage) = error { throw storage }
        }
        return .success(value)
    }

    /// The name the throttle counts `user`'s attempts under: their email address (the name their password attempts
    /// count under too), else their ID.
    private static func accountName(_ user: UserRecord) -> String {
        user.email ?? "user \(user.id)"
    }

    /// The TOTP of secret `sealed`, when it opens for `userID`.
    private func totp(_ sealed: Data, userID: String) -> TOTP? {
        seal.open(sealed, context: Self.context(userID)).flatMap { try? TOTP(secret: Array($0)) }
    }

    private static func context(_ userID: String) -> String {
        "totp-secret|\(userID)"
    }
}
