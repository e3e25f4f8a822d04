import Foundation
import LimenServerStorage

/// What an authorization request needs next (OpenID Connect Core §3.1.2.3–§3.1.2.6), and its completion: a code or
/// an error sent back to the client's redirect URI.
package struct AuthorizationFlow: Sendable {
    /// How long an authorization code may be redeemed (RFC 6749 §4.1.2 recommends at most ten minutes).
    package static let codeLifetime: TimeInterval = 60

    /// The next step of a request.
    package enum Step: Sendable, Equatable {
        /// The user must sign in (or sign up).
        case signIn
        /// The user signed in with this browser session must add the step the request's level needs (step-up).
        case stepUp(session: BrowserSessionRecord)
        /// The signed-in user must allow or deny the client.
        case consent(subject: String)
        /// Nothing more to ask: the request completes.
        case complete(Completion)
    }

    /// How a request ends.
    package enum Completion: Sendable, Equatable {
        /// A code for the user signed in with this browser session (its subject and `auth_time`; a grant without
        /// `offline_access` ends with it).
        case code(session: BrowserSessionRecord)
        /// A code for `subject`, signed in at `authTime` by `methods`, approved in the provider's own app rather than
        /// a browser (app-to-app): no browser session, so ending one never reaches the grant.
        case appCode(subject: String, authTime: Date, methods: AuthenticationMethods)
        /// An error response (RFC 6749 §4.1.2.1, OpenID Connect Core §3.1.2.6).
        case error(String, description: String)
    }

    /// Where the consents, pending requests and codes are kept.
    package let store: any ConsentStore & PendingAuthorizationStore & GrantStore
    /// The issuer named in the redirect (`iss`, RFC 9207).
    package let issuer: IssuerBox
    /// The clock.
    package let now: @Sendable () -> Date

    /// The flow over `store`, for `issuer`.
    package init(
        store: any ConsentStore & PendingAuthorizationStore & GrantStore, issuer: IssuerBox,
        now: @escaping @Sendable () -> Date
    ) {
        (self.store, self.issuer, self.now) = (store, issuer, now)
    }

    /// Decides the next step for `pending` given the browser's session. `freshSignIn` says the session was started by
    /// this very request, so `prompt=login`, `max_age` and `id_token_hint` are satisfied by it. A session below the
    /// request's level (``PendingAuthorization/requiredLevel``) steps up; never is a lower `acr` issued.
    package func step(
        for pending: PendingAuthorization,
        session: BrowserSessionRecord?,
        freshSignIn: Bool = false
    ) async throws(StorageError) -> Step {
        let prompt = pending.prompt
        let interactive = !prompt.contains(.none)
        guard let session,
            freshSignIn || !needsSignIn(pending, subject: session.subject, authTime: session.authTime)
        else {
            return interactive
                ? .signIn : .complete(.error("login_required", description: "the user is not signed in"))
        }
        if let required = pending.requiredLevel, AuthenticationLevel(session.methods) < required {
            guard interactive, !freshSignIn else {
                let description = "the sign-in does not reach acr \(required.rawValue)"
                return .complete(
                    .error(
                        interactive ? "unmet_authentication_requirements" : "interaction_required",
                        description: description))
            }
            return .stepUp(session: session)
        }
        if try await needsConsent(pending, subject: session.subject) {
            return interactive
                ? .consent(subject: session.subject)
                : .complete(.error("consent_required", description: "the user has not allowed this client"))
        }
        return .complete(.code(session: session))
    }

    /// Remembers that `subject` allowed the client the requested scopes.
    package func recordConsent(for pending: PendingAuthorization, subject: String) async throws(StorageError) {
        try await store.recordConsent(
            subject: subject,
            clientID: pending.client.id,
            scopes: Set(pending.scopes),
            at: now()
        )
    }

    /// Ends the request: issues the code (stored as its SHA-256, redeemable once within ``codeLifetime``) or the
    /// error, and returns the redirect to the client with `state` and `iss`. A stored request is consumed first, so
    /// two racing submissions complete it once: the loser gets `nil`.
    package func complete(
        _ pending: PendingAuthorization,
        with completion: Completion,
        stored: Bool
    ) async throws(StorageError) -> String? {
        let now = self.now()
        if stored, try await store.consumePendingAuthorization(idHash: pending.record.idHash, now: now) == nil {
            return nil
        }
        let record = pending.record
        let fields: [(String, String)]
        switch completion {
        case .code(let session):
            let code = try await issueCode(
                for: record, subject: session.subject, authTime: session.authTime, methods: session.methods,
                browserSessionHash: session.idHash, now: now)
            fields = [("code", code)]
        case .appCode(let subject, let authTime, let methods):
            let code = try await issueCode(
                for: record, subject: subject, authTime: authTime, methods: methods, browserSessionHash: nil, now: now)
            fields = [("code", code)]
        case .error(let error, let description):
            fields = [("error", error), ("error_description", description)]
        }
        return AuthorizationValidator.responseRedirect(
            redirectURI: record.redirectURI,
            fields: fields,
            state: record.state,
            issuer: issuer.current
        )
    }

    /// Stores a new code of `record` for `subject` (its SHA-256, redeemable once within ``codeLifetime``) and
    /// returns it.
    private func issueCode(
        for record: PendingAuthorizationRecord, subject: String, authTime: Date, methods: AuthenticationMethods,
        browserSessionHash: Data?, now: Date
    ) async throws(StorageError) -> String {
        let code = RandomIdentifier.make()
        try await store.insertAuthorizationCode(
            AuthorizationCodeRecord(
                codeHash: RandomIdentifier.hash(code),
                clientID: record.clientID,
                redirectURI: record.redirectURI,
                subject: subject,
                scope: record.scope,
                nonce: record.nonce,
                codeChallenge: record.codeChallenge,
                authTime: authTime,
                expiresAt: now.addingTimeInterval(Self.codeLifetime),
                browserSessionHash: browserSessionHash,
                methods: methods,
                proofKey: record.proofKey
            )
        )
        return code
    }

    /// Whether a sign-in of `subject` at `authTime` does not do for this request: a fresh sign-in was asked for
    /// (`prompt=login`, `select_account`, `max_age=0`), the sign-in is older than `max_age`, or the `id_token_hint`
    /// names someone else.
    package func needsSignIn(_ pending: PendingAuthorization, subject: String, authTime: Date) -> Bool {
        if !pending.prompt.isDisjoint(with: [.login, .selectAccount]) { return true }
        if let maxAge = pending.record.maxAge {
            let elapsed = now().timeIntervalSince(authTime)
            if maxAge == 0 || elapsed > Double(maxAge) { return true }
        }
        if let hinted = pending.record.hintedSubject, hinted != subject { return true }
        return false
    }

    /// Whether the consent page must be shown: always for a device authorization, first-party client or not (RFC 8628
    /// §5.4: a user code may have been phished, so the person confirms the device request they are approving); never
    /// for a first-party client otherwise; always for `prompt=consent`; otherwise when a requested scope has not been
    /// allowed before.
    package func needsConsent(_ pending: PendingAuthorization, subject: String) async throws(StorageError) -> Bool {
        if pending.isDeviceRequest { return true }
        if pending.prompt.contains(.consent), !pending.client.isFirstParty { return true }
        return !(try await store.hasConsent(of: subject, for: pending.client, scopes: pending.scopes))
    }
}
