extension AuthClient {
    /// Signs in with what Sign in with Apple gave the app, through Limen Server's `apple` flow, deciding what
    /// happens to the user signed in on the device exactly as ``login(email:password:allowMigration:)`` does
    /// (RxFireAuth's `signInWithApple(in:updateUserDisplayName:allowMigration:)`):
    ///
    /// - a guest is signed in and the Apple ID is nobody's: it is linked to the guest (same user ID, data kept);
    /// - a guest is signed in and the Apple ID is another account's: ``AccountError/migrationRequired(_:)`` unless
    ///   `allowMigration` is set — answer with ``login(with:allowMigration:)``, which reuses the same credential;
    /// - a user with an identity is signed in: the Apple ID is linked to them, or ``AccountError/credentialInUse`` when
    ///   it is another account's;
    /// - nobody is signed in: the Apple ID's account, or a new one (named after ``AppleIDCredential/fullName``).
    ///
    /// The credential comes from ``Configuration/appleAuthorization`` (on Apple platforms `LimenApple`'s
    /// `AppleIDAuthorizationSheet`), asked with a fresh ``AppleSignInNonce``'s hash; the server checks the identity
    /// token against Apple's keys and the SHA-256 of the raw nonce against its `nonce` claim.
    ///
    /// ```swift
    /// configuration.appleAuthorization = AppleIDAuthorizationSheet { window }  // LimenApple
    /// let descriptor = try await client.signInWithApple(allowMigration: nil)
    /// ```
    /// - Throws: ``LimenError/configuration(_:)`` without ``Configuration/appleAuthorization``,
    ///   ``LimenError/userCancelled`` when the person closes Apple's sheet (nothing changed), ``LimenError/account(_:)``
    ///   for the cases above, ``LimenError/flow(_:)`` with ``FlowError/refused(message:details:)`` when the server
    ///   refuses the token, other ``LimenError``s for the network, the token endpoint and storage.
    @discardableResult
    public func signInWithApple(allowMigration: Bool?) async throws(LimenError) -> LoginDescriptor {
        guard let authorization = configuration.appleAuthorization else {
            throw .configuration(.missingKey("appleAuthorization"))
        }
        return try await signInWithApple(using: authorization, allowMigration: allowMigration)
    }

    /// ``signInWithApple(allowMigration:)`` with `authorization` rather than the configuration's: a fresh
    /// ``AppleSignInNonce`` whose hash `authorization` gives Apple, then
    /// ``signInWithApple(_:nonce:allowMigration:)`` with the credential.
    /// - Throws: ``LimenError/userCancelled`` when the person closes Apple's sheet (as every sign-in path does),
    ///   ``LimenError/userAgent(_:)`` when it fails (nothing changed in either case), else as
    ///   ``signInWithApple(_:nonce:allowMigration:)``.
    @discardableResult
    public func signInWithApple(
        using authorization: any AppleIDAuthorizing,
        allowMigration: Bool?
    ) async throws(LimenError) -> LoginDescriptor {
        let nonce = AppleSignInNonce()
        let credential: AppleIDCredential
        do {
            credential = try await authorization.authorize(hashedNonce: nonce.sha256)
        } catch {
            throw LimenError(error)
        }
        return try await signInWithApple(credential, nonce: nonce, allowMigration: allowMigration)
    }

    /// ``signInWithApple(allowMigration:)`` with a credential the app got itself: `nonce` is the one whose
    /// ``AppleSignInNonce/sha256`` its `ASAuthorizationAppleIDRequest` carried.
    @discardableResult
    public func signInWithApple(
        _ credential: AppleIDCredential,
        nonce: AppleSignInNonce,
        allowMigration: Bool?
    ) async throws(LimenError) -> LoginDescriptor {
        try await login(with: LoginCredentials(apple: credential, nonce: nonce), allowMigration: allowMigration)
    }

    /// AppleSignInKit's `checkCredentialState()`: ``checkCredentialState(using:)`` with
    /// ``Configuration/appleCredentialStates``. Without one nothing is asked and the session is kept.
    /// - Returns: Whether someone is signed in after the check.
    /// - Throws: A retryable ``LimenError/storage(_:)`` while the store cannot be read yet (the Keychain of a locked
    ///   device): nothing is known then, and nothing is signed out.
    @discardableResult
    public func checkCredentialState() async throws(LimenError) -> Bool {
        guard let source = configuration.appleCredentialStates else {
            try await ensureRestored()
            return tokens != nil
        }
        return try await checkCredentialState(using: source)
    }

    /// Asks Apple whether the signed-in user's Sign in with Apple credential is still valid (AppleSignInKit's
    /// `checkCredentialState()`); call it when the app starts or comes to the foreground. When Apple says
    /// ``AppleCredentialState/revoked`` or ``AppleCredentialState/notFound``, the user is signed out (tokens
    /// revoked) and `false` is returned.
    ///
    /// A user who did not sign in with Apple on this device has nothing to check: `true`. So is an answer Apple could
    /// not give (offline): the session is kept rather than ended on a guess.
    /// - Returns: Whether someone is signed in after the check.
    /// - Throws: A retryable ``LimenError/storage(_:)`` while the store cannot be read yet (the Keychain of a locked
    ///   device, before the first unlock): a locked Keychain is never a sign-out. Try again after ``resume()``.
    @discardableResult
    public func checkCredentialState(using source: some AppleCredentialStateSource) async throws(LimenError) -> Bool {
        try await ensureRestored()
        guard let subject = tokens?.subject else { return false }
        let links = AppleUserLink.Store(store: configuration.store, namespace: configuration.namespace)
        guard let link = await links.load(), link.subject == subject,
            let answer = try? await source.credentialState(forUser: link.appleUser)
        else { return true }
        switch answer {
        case .authorized, .transferred:
            return true
        case .revoked, .notFound:
            logger.info("Apple credential no longer valid: signing out", metadata: ["state": "\(answer.rawValue)"])
            _ = await signOut(revoke: true)
            try? await links.clear()
            return false
        }
    }

    /// After a sign-in with `credentials`: remembers the Apple user identifier of an Apple sign-in for
    /// ``checkCredentialState(using:)``.
    func rememberAppleUser(of credentials: LoginCredentials, signedInAs subject: String) async {
        guard case .apple(let credential, _) = credentials.proof else { return }
        let links = AppleUserLink.Store(store: configuration.store, namespace: configuration.namespace)
        do {
            try await links.save(AppleUserLink(subject: subject, appleUser: credential.user))
        } catch {
            logger.warning("Apple user identifier not stored", metadata: ["code": "\(LimenError.storage(error).code)"])
        }
    }
}
