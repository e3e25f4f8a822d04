import Foundation
import HTTPTypes
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire

/// The account page's forms for the user's passkeys and two-step sign-in, over the browser session (the CSRF check is
/// ``AccountRoutes``'): rename, delete and add a passkey; set up, turn on and turn off two-step sign-in, and replace
/// the recovery codes. Each does what the bearer API does (``PasskeyRoutes``, ``SecondFactorRoutes``) through the same
/// core services, so wrong codes count toward the sign-in throttle and the same account notices are sent.
///
/// The browser session is the authority, under ``AccountChangeGate``'s rule for it
/// (``AccountChangeGate/authorize(session:user:)``): when the session's sign-in is older than the gate's `maxAge`,
/// nothing changes and the person is sent to sign in again (``AccountReauthentication``), then back to the page. A passkey's registration challenge is sealed into the page,
/// bound to the session and used once (``AccountPasskeyChallenge``).
struct AccountSecurityForms: Sendable {
    /// The intents of its forms.
    static let intents: Set<String> = [
        renamePasskey, deletePasskey, addPasskey, setUpTOTP, enableTOTP, disableTOTP, newRecoveryCodes,
    ]
    static let renamePasskey = "rename_passkey"
    static let deletePasskey = "delete_passkey"
    static let addPasskey = "add_passkey"
    static let setUpTOTP = "set_up_totp"
    static let enableTOTP = "enable_totp"
    static let disableTOTP = "disable_totp"
    static let newRecoveryCodes = "new_recovery_codes"

    /// The passkey ceremonies (and through them the passkey store).
    let passkeys: PasskeyCeremonies
    /// The two-step sign-in service.
    let factors: SecondFactors
    /// Sends the account notices.
    let notifier: AccountNotifier
    /// Seals the page's registration challenges.
    let challenges: AccountPasskeyChallenge
    /// Decides whether the session's sign-in is recent enough for a change.
    let gate: AccountChangeGate

    /// The forms over the flows' services, sealing with `keys` and recording used challenges in `usedChallenges`,
    /// allowing the changes `gate` allows.
    init(services: FlowServices, keys: DerivedKeys, usedChallenges: any UsedChallengeStore, gate: AccountChangeGate) {
        passkeys = services.passkeys
        factors = services.secondFactors
        notifier = services.notifier
        challenges = AccountPasskeyChallenge(keys: keys, used: usedChallenges, now: services.now)
        self.gate = gate
    }

    /// What the account page shows of `user`'s passkeys and two-step sign-in now, with `outcome` (a form's answer);
    /// `session` names the browser session the registration challenge is bound to.
    func section(
        for user: UserRecord, session: BrowserSessionRecord, outcome: AccountSecurityOutcome = .init()
    ) async throws(StorageError) -> AccountSecuritySection {
        let stored = try await passkeys.store.passkeyCredentials(userID: user.id)
        let factor = try await factors.store.secondFactor(userID: user.id)
        let challenge = try await passkeys.registration(for: user, collector: "passkey")
        return AccountSecuritySection(
            passkeys: stored.map(AccountSecuritySection.Passkey.init), registration: challenge.options,
            sealedRegistration: challenges.seal(challenge, session: session),
            twoStepEnabled: factor != nil, recoveryCodesLeft: factor?.recoveryCodeHashes.count ?? 0,
            outcome: outcome)
    }

    /// The answer to a form with one of ``intents`` from `user` signed in with `session`, sent from `origin`.
    func answer(
        _ intent: String, form: FormFields, user: UserRecord, session: BrowserSessionRecord, origin: RequestOrigin
    ) async throws(StorageError) -> AccountSecurityOutcome {
        guard case .success = gate.authorize(session: session, user: user) else { return .signInAgain }
        switch intent {
        case Self.renamePasskey, Self.deletePasskey:
            return try await changePasskey(intent, form: form, user: user, origin: origin)
        case Self.addPasskey: return try await addPasskey(form, user: user, session: session, origin: origin)
        case Self.setUpTOTP, Self.enableTOTP: return try await enrol(form, user: user, origin: origin)
        default: return try await confirmed(intent, form: form, user: user, origin: origin)
        }
    }

    // MARK: Passkeys

    /// Renames or deletes the passkey `id` of the form, if it is `user`'s.
    private func changePasskey(
        _ intent: String, form: FormFields, user: UserRecord, origin: RequestOrigin
    ) async throws(StorageError) -> AccountSecurityOutcome {
        guard let id = form["id"].flatMap(Base64URL.decode) else { return Self.noSuchPasskey }
        if intent == Self.deletePasskey {
            guard try await passkeys.remove(id: id, userID: user.id, origin: origin) else {
                return Self.noSuchPasskey
            }
            return .done("The passkey is removed.")
        }
        let name = form["name"] ?? ""
        guard !name.isEmpty, name.count <= PasskeyCeremonies.maximumNameLength else {
            return .refused(
                "Give the passkey a name of at most \(PasskeyCeremonies.maximumNameLength) characters.",
                status: .badRequest)
        }
        guard try await passkeys.store.renamePasskeyCredential(id: id, userID: user.id, name: name) != nil else {
            return Self.noSuchPasskey
        }
        return .done("The passkey is renamed.")
    }

    /// Stores the passkey the browser created (`passkey`, its `RegistrationResponseJSON`) against the page's sealed
    /// challenge (`challenge`) of this session.
    private func addPasskey(
        _ form: FormFields, user: UserRecord, session: BrowserSessionRecord, origin: RequestOrigin
    ) async throws(StorageError) -> AccountSecurityOutcome {
        guard let text = form["passkey"], let response = (try? JSONValue(parsing: Array(text.utf8)))?.objectValue
        else {
            return .refused(
                "Creating a passkey needs a browser with passkeys and scripts turned on.", status: .badRequest)
        }
        let challenge: PasskeyChallenge
        switch try await challenges.redeem(form["challenge"], session: session) {
        case .success(let redeemed): challenge = redeemed
        case .failure(.unusable): return .refused(PasskeyRefusal.challengeExpired.message, status: .badRequest)
        case .failure(.usedAlready):
            return .refused(
                "This passkey request was used already: add the passkey again from the page as it is now.",
                status: .conflict)
        }
        let name = form["name"].map { String($0.prefix(PasskeyCeremonies.maximumNameLength)) } ?? ""
        switch try await passkeys.register(
            response, challenge: challenge, user: user, name: name.isEmpty ? "Passkey" : name, origin: origin)
        {
        case .success: return .done("The passkey is saved: next time, sign in with it.")
        case .failure(let refusal): return .refused(refusal.message, status: .badRequest)
        }
    }

    // MARK: Two-step sign-in

    /// Shows a new secret to add to an authenticator app (`set_up_totp`), or turns two-step sign-in on with the
    /// form's `enrolment` (the sealed secret the page showed) once `code` is a current code of it (`enable_totp`).
    private func enrol(
        _ form: FormFields, user: UserRecord, origin: RequestOrigin
    ) async throws(StorageError) -> AccountSecurityOutcome {
        guard try await factors.store.secondFactor(userID: user.id) == nil else { return Self.alreadyOn }
        guard let sealed = form["enrolment"].flatMap(Base64URL.decode) else {
            guard let enrolment = try? factors.newEnrolment(for: user) else {
                return .refused("The set-up cannot start now; try again.", status: .internalServerError)
            }
            return setup(enrolment, user: user, outcome: .init())
        }
        let enrolment = TOTPEnrolment(sealedSecret: sealed)
        switch try await factors.enable(enrolment, for: user, code: form["code"] ?? "", from: origin) {
        case .success(let codes):
            try await notifier.notify(.twoStepSignIn(enabled: true), to: user)
            var outcome = AccountSecurityOutcome.done("Two-step sign-in is on.")
            outcome.recoveryCodes = codes.map(\.formatted)
            return outcome
        case .failure(.wrongState): return Self.alreadyOn
        case .failure(let refusal): return setup(enrolment, user: user, outcome: Self.refused(refusal))
        }
    }

    /// `outcome` with the setup of `enrolment` shown (a sealed secret that is not `user`'s shows none).
    private func setup(
        _ enrolment: TOTPEnrolment, user: UserRecord, outcome: AccountSecurityOutcome
    ) -> AccountSecurityOutcome {
        guard let setup = factors.setup(of: enrolment, for: user) else {
            return .refused("Start the set-up again.", status: .badRequest)
        }
        var outcome = outcome
        outcome.setup = .init(uri: setup.uri, secret: setup.secret, enrolment: Base64URL.encode(enrolment.sealedSecret))
        return outcome
    }

    /// Turns two-step sign-in off or replaces the recovery codes, once `code` is a fresh second factor of `user`.
    private func confirmed(
        _ intent: String, form: FormFields, user: UserRecord, origin: RequestOrigin
    ) async throws(StorageError) -> AccountSecurityOutcome {
        guard let code = form["code"], !code.isEmpty else {
            return .refused(
                "Type a code of your authenticator app or one of your recovery codes.", status: .badRequest)
        }
        switch try await factors.confirm(code, for: user, from: origin.address) {
        case .failure(.wrongState): return Self.off
        case .failure(let refusal): return Self.refused(refusal)
        case .success: break
        }
        if intent == Self.disableTOTP {
            guard try await factors.disable(userID: user.id, origin: origin) else { return Self.off }
            try await notifier.notify(.twoStepSignIn(enabled: false), to: user)
            return .done("Two-step sign-in is off.")
        }
        guard let codes = try await factors.newRecoveryCodes(userID: user.id) else { return Self.off }
        try await notifier.notify(.recoveryCodesReplaced, to: user)
        var outcome = AccountSecurityOutcome.done("Here are your new recovery codes; the old ones no longer work.")
        outcome.recoveryCodes = codes.map(\.formatted)
        return outcome
    }

    // MARK: Answers

    /// A wrong or used code, or too many of them.
    private static func refused(_ refusal: SecondFactorRefusal) -> AccountSecurityOutcome {
        guard case .locked(let seconds) = refusal else {
            return .refused(refusal.message, status: .forbidden)
        }
        var locked = AccountSecurityOutcome.refused(refusal.message, status: .tooManyRequests)
        locked.retryAfter = seconds
        return locked
    }

    private static let noSuchPasskey = AccountSecurityOutcome.refused("You have no such passkey.", status: .notFound)
    private static let alreadyOn = AccountSecurityOutcome.refused("Two-step sign-in is on already.", status: .conflict)
    private static let off = AccountSecurityOutcome.refused("Two-step sign-in is off.", status: .notFound)
}

/// What a form of ``AccountSecurityForms`` answers: a notice or an error (with its status), and what the page shows
/// once: an authenticator app's set-up, or recovery codes.
struct AccountSecurityOutcome: Sendable {
    /// What was done.
    var notice: String?
    /// Why nothing was done.
    var error: String?
    /// The page's status.
    var status: HTTPResponse.Status = .ok
    /// Seconds until a locked account may try again.
    var retryAfter: Int?
    /// The set-up of an authenticator app in progress.
    var setup: Setup?
    /// New recovery codes, shown only now.
    var recoveryCodes: [String]?
    /// Whether nothing was done because the session's sign-in is too old: the person signs in again first.
    var needsSignIn = false

    /// An authenticator app's set-up: its `otpauth://` URI, its secret in base32, and the sealed secret the form posts
    /// back.
    struct Setup: Sendable {
        var uri: String
        var secret: String
        var enrolment: String
    }

    /// Something done.
    static func done(_ notice: String) -> Self { Self(notice: notice) }

    /// Something refused, with `status`.
    static func refused(_ error: String, status: HTTPResponse.Status) -> Self { Self(error: error, status: status) }

    /// Nothing done: the session's sign-in is too old for a change.
    static let signInAgain = Self(needsSignIn: true)
}
