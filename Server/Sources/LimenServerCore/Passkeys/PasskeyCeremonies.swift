import Foundation
import LimenServerStorage
import LimenServerWire
import LimenWire

/// The WebAuthn relying party's ceremonies (WebAuthn Level 3 §7): challenges for the `PASSKEY` collectors, and the
/// checks of what comes back, with the store's credentials and counters.
package struct PasskeyCeremonies: Sendable {
    /// How long a challenge is accepted.
    package static let challengeLifetime: TimeInterval = 5 * 60
    /// The longest name of a passkey, in characters.
    package static let maximumNameLength = 64

    /// The credentials and user handles.
    package let store: any PasskeyStore
    /// The configured relying party.
    package let settings: WebAuthnSettings
    /// The issuer, which the unset settings follow.
    package let issuer: IssuerBox
    /// The clock.
    package let now: @Sendable () -> Date
    /// Stamps `passkey.registered` and `passkey.removed`.
    package let events: SecurityEventRecorder

    /// Makes it of its parts.
    package init(
        store: any PasskeyStore, settings: WebAuthnSettings, issuer: IssuerBox, now: @escaping @Sendable () -> Date,
        events: SecurityEventRecorder
    ) {
        (self.store, self.settings, self.issuer, self.now, self.events) = (store, settings, issuer, now, events)
    }

    /// Removes `userID`'s passkey `id`, asked from `origin`, recorded as `passkey.removed` in the same unit; `false`
    /// when they have no such passkey.
    package func remove(id: Data, userID: String, origin: RequestOrigin) async throws(StorageError) -> Bool {
        let removed = SecurityEvent(.passkeyRemoved, user: userID)
        return try await store.deletePasskeyCredential(
            id: id, userID: userID, recording: events.records([removed], from: origin))
    }

    /// The relying party in effect.
    package var relyingParty: WebAuthnRelyingParty { settings.relyingParty(issuer: issuer.current) }

    // MARK: Challenges

    /// A registration for `user`, shown by collector `collector`: their user handle (made now if they have none) and
    /// their passkeys excluded, so one authenticator is not registered twice.
    package func registration(for user: UserRecord, collector: String) async throws(StorageError) -> PasskeyChallenge {
        let handle = try await userHandle(of: user)
        let excluded = try await store.passkeyCredentials(userID: user.id)
        let challenge = Self.newChallenge()
        let options = PasskeyOptions.creation(
            relyingParty: relyingParty, user: user, handle: handle, challenge: challenge, excluded: excluded,
            timeout: Self.challengeLifetime)
        return made(
            challenge, options: options, collector: collector, requiresUserVerification: true, userHandle: handle)
    }

    /// A sign-in shown by collector `collector`: with any discoverable credential when `allowed` is empty, else with
    /// one of `allowed`.
    package func authentication(allowing allowed: [PasskeyCredentialRecord] = [], collector: String)
        -> PasskeyChallenge
    {
        let challenge = Self.newChallenge()
        let options = PasskeyOptions.request(
            relyingParty: relyingParty, challenge: challenge, allowed: allowed, userVerification: "required",
            timeout: Self.challengeLifetime)
        return made(challenge, options: options, collector: collector, requiresUserVerification: true)
    }

    // MARK: Responses

    /// Checks a `RegistrationResponseJSON` against `challenge` and stores its credential for `user` as `name`,
    /// recorded as `passkey.registered` from `origin` in the same unit.
    package func register(
        _ response: [String: JSONValue], challenge: PasskeyChallenge, user: UserRecord, name: String,
        origin: RequestOrigin
    ) async throws(StorageError) -> Result<PasskeyCredentialRecord, PasskeyRefusal> {
        let moment = now()
        guard let issued = usable(challenge, at: moment) else { return .failure(.challengeExpired) }
        let party = relyingParty
        let attestation: AttestationObject
        do throws(WebAuthnError) {
            let parsed = try RegistrationResponseJSON(response)
            let clientData = try ClientData(json: parsed.clientDataJSON)
            try clientData.check(type: .create, challenge: issued, allowedOrigins: party.origins)
            attestation = try RegistrationVerification.verify(
                attestationObject: parsed.attestationObject, clientData: clientData, rpID: party.id,
                requiresUserVerification: challenge.requiresUserVerification)
            guard parsed.credentialID == attestation.credential.credentialID else { throw .responseMalformed }
        } catch {
            return .failure(.invalidCredential)
        }
        let handle: Data
        if let shown = challenge.userHandle {
            handle = shown
        } else {
            handle = try await userHandle(of: user)
        }
        let flags = attestation.authenticatorData.flags
        let record = PasskeyCredentialRecord(
            credentialID: Data(attestation.credential.credentialID), userID: user.id, userHandle: handle,
            publicKey: Data(attestation.credential.publicKeyBytes), signCount: attestation.authenticatorData.signCount,
            isBackupEligible: flags.contains(.backupEligible), isBackedUp: flags.contains(.backedUp), name: name,
            createdAt: moment)
        // A credential ID registered before, to anyone, is refused (WebAuthn §7.1 step 26).
        let registered = events.records([SecurityEvent(.passkeyRegistered, user: user.id)], from: origin)
        return try await store.insertPasskeyCredential(record, recording: registered)
            ? .success(record) : .failure(.invalidCredential)
    }

    /// Checks an `AuthenticationResponseJSON` against `challenge` and records the use; answers the credential (whose
    /// user signs in). `allowed`, when given, is the only credentials accepted (a second factor for a known user).
    package func authenticate(
        _ response: [String: JSONValue], challenge: PasskeyChallenge, allowed: Set<Data>? = nil
    ) async throws(StorageError) -> Result<PasskeyCredentialRecord, PasskeyRefusal> {
        let moment = now()
        guard let issued = usable(challenge, at: moment) else { return .failure(.challengeExpired) }
        let parsed: AuthenticationResponseJSON
        do throws(WebAuthnError) {
            parsed = try AuthenticationResponseJSON(response)
        } catch {
            return .failure(.invalidCredential)
        }
        let id = Data(parsed.credentialID)
        guard allowed?.contains(id) ?? true, var credential = try await store.passkeyCredential(id: id),
            parsed.userHandle.map({ Data($0) == credential.userHandle }) ?? true
        else { return .failure(.unknownCredential) }
        let party = relyingParty
        let data: AuthenticatorData
        do throws(WebAuthnError) {
            let clientData = try ClientData(json: parsed.clientDataJSON)
            try clientData.check(type: .get, challenge: issued, allowedOrigins: party.origins)
            let key = try Self.key(credential.publicKey)
            data = try AssertionVerification.verify(
                authenticatorData: parsed.authenticatorData, clientData: clientData, signature: parsed.signature,
                credentialKey: key, storedSignCount: credential.signCount, rpID: party.id,
                requiresUserVerification: challenge.requiresUserVerification)
        } catch .signCountNotIncreased {
            return .failure(.credentialCloned)
        } catch {
            return .failure(.invalidCredential)
        }
        let backedUp = data.flags.contains(.backedUp)
        guard
            try await store.recordPasskeyUse(
                id: id, previousSignCount: credential.signCount, signCount: data.signCount, isBackedUp: backedUp,
                at: moment)
        else { return .failure(.invalidCredential) }
        (credential.signCount, credential.isBackedUp, credential.lastUsedAt) = (data.signCount, backedUp, moment)
        return .success(credential)
    }

    // MARK: Parts

    /// A challenge record for `options` (a registration's with the user handle they show).
    private func made(
        _ challenge: String, options: JSONValue, collector: String, requiresUserVerification: Bool,
        userHandle: Data? = nil
    ) -> PasskeyChallenge {
        PasskeyChallenge(
            collector: collector, challenge: challenge, expiresAt: now().addingTimeInterval(Self.challengeLifetime),
            options: String(decoding: options.serialized(), as: UTF8.self),
            requiresUserVerification: requiresUserVerification, userHandle: userHandle)
    }

    /// The challenge's bytes while it is accepted at `moment`.
    private func usable(_ challenge: PasskeyChallenge, at moment: Date) -> [UInt8]? {
        guard moment < challenge.expiresAt, let bytes = Base64URL.decode(challenge.challenge) else { return nil }
        return Array(bytes)
    }

    /// `user`'s WebAuthn user handle: the one stored, or else a new random one, stored now.
    private func userHandle(of user: UserRecord) async throws(StorageError) -> Data {
        try await store.passkeyUserHandle(userID: user.id, candidate: Data(RandomToken.bytes(count: 32)))
    }

    /// The stored COSE key `bytes`, read again.
    private static func key(_ bytes: Data) throws(WebAuthnError) -> COSEKey {
        let value: CBORValue
        do {
            value = try CBORReader.read(bytes)
        } catch {
            throw .malformedCBOR(error)
        }
        do {
            return try COSEKey(value)
        } catch {
            throw .invalidCredentialKey(error)
        }
    }

    /// 32 random bytes, base64url.
    private static func newChallenge() -> String {
        RandomToken.make(byteCount: 32)
    }
}
