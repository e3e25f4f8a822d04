import Foundation
import LimenServerStorage
import Logging

/// What Limen keeps of its users' Sign in with Apple (``AppleAccountStore``): on every verified sign-in, what Apple
/// said of them (`is_private_email`, `real_user_status`) and, when the team key is configured and the app sent Apple's
/// authorization code, the refresh token Apple gives for it (sealed, ``AppleRefreshTokenSeal``); when the account is
/// deleted, that token revoked at Apple, as Apple requires.
///
/// Both calls to Apple are best effort: the identity token was verified already, and an account is deleted whatever
/// Apple answers; a failure is logged with its ``AppleTeamError/code``, never with a token, code or secret.
package struct AppleAccounts: Sendable {
    package let store: any AppleAccountStore
    package let seal: AppleRefreshTokenSeal
    /// Limen's client of Apple's REST API; `nil` without a team key (nothing is redeemed or revoked).
    package let team: AppleTeamClient?
    package let now: @Sendable () -> Date

    /// Makes it of its parts.
    package init(
        store: any AppleAccountStore, seal: AppleRefreshTokenSeal, team: AppleTeamClient?,
        now: @escaping @Sendable () -> Date
    ) {
        self.store = store
        self.seal = seal
        self.team = team
        self.now = now
    }

    /// Redeems `authorizationCode`, which came with the verified `identity`, when the team key is configured and a
    /// code is given, before anyone is signed in; `nil` without either, or when Apple refuses the code or does not say
    /// whose it is (logged: the sign-in goes on, keeping no token). A code of another Apple ID than the identity
    /// token's is refused with ``AppleTeamError/subjectMismatch``: the sign-in must not go on.
    package func redeem(
        _ authorizationCode: String?,
        for identity: AppleIdentity,
        logger: Logger
    ) async throws(AppleTeamError) -> AppleTeamClient.Redemption? {
        guard let team, let code = authorizationCode, !code.isEmpty, let clientID = identity.audience else {
            return nil
        }
        let redemption: AppleTeamClient.Redemption
        do throws(AppleTeamError) {
            redemption = try await team.redeem(code: code, clientID: clientID)
        } catch {
            logger.warning("Apple did not redeem an authorization code", metadata: ["reason": "\(error.code)"])
            return nil
        }
        guard redemption.subject == identity.external.subject else {
            logger.warning(
                "An authorization code of another Apple ID came with an identity token",
                metadata: ["reason": "\(AppleTeamError.subjectMismatch.code)"])
            throw .subjectMismatch
        }
        return redemption
    }

    /// Keeps what the verified `identity` says of `user`, with Apple's refresh token of `redemption` (``redeem(_:for:logger:)``)
    /// when there is one.
    package func signedIn(
        _ identity: AppleIdentity,
        user userID: String,
        redemption: AppleTeamClient.Redemption?
    ) async throws(StorageError) {
        var record = AppleAccountRecord(
            userID: userID, subject: identity.external.subject, isPrivateEmail: identity.isPrivateEmail,
            realUserStatus: identity.realUserStatus, updatedAt: now())
        if let redemption {
            record.sealedRefreshToken = try? seal.seal(redemption.refreshToken, userID: userID)
            record.refreshTokenClientID = redemption.clientID
        }
        try await store.saveAppleAccount(record)
    }

    /// Revokes at Apple the refresh token kept for `userID`, if any, before their account goes.
    package func accountDeleting(userID: String, logger: Logger) async {
        guard let team else { return }
        let record: AppleAccountRecord?
        do {
            record = try await store.appleAccount(userID: userID)
        } catch {
            logger.warning(
                "Apple's refresh token could not be read to revoke it", metadata: ["reason": "\(error.code)"])
            return
        }
        guard let record, let sealed = record.sealedRefreshToken, let clientID = record.refreshTokenClientID else {
            return
        }
        guard let refreshToken = seal.open(sealed, userID: userID) else {
            logger.warning("Apple's refresh token did not open under the master key; it was not revoked")
            return
        }
        do throws(AppleTeamError) {
            try await team.revoke(refreshToken: refreshToken, clientID: clientID)
            logger.info("Apple's refresh token for a deleted account was revoked")
        } catch {
            logger.warning("Apple did not revoke a deleted account's token", metadata: ["reason": "\(error.code)"])
        }
    }
}
