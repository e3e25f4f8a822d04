import Foundation
import LimenServerStorage
import LimenServerWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

extension ServerComposition {
    /// Turns two-step sign-in on for `user` straight in the store, as the setup would (for tests whose setup flow could
    /// not run); returns the TOTP their authenticator app holds.
    func enableTOTP(for user: UserRecord, at now: Date) async throws -> TOTP {
        try TOTP(secret: try Base32.decode(try await enableTOTPSecret(for: user, at: now)))
    }

    /// Turns two-step sign-in on for `user` as ``enableTOTP(for:at:)`` does; returns the secret as the set-up shows it
    /// (base32), for an authenticator app outside the tests (pyotp).
    func enableTOTPSecret(for user: UserRecord, at now: Date) async throws -> String {
        let factors = flowServices.secondFactors
        let enrolment = try factors.newEnrolment(for: user)
        let setup = try #require(factors.setup(of: enrolment, for: user))
        #expect(
            try await store.insertSecondFactor(
                SecondFactorRecord(
                    userID: user.id, sealedTOTPSecret: enrolment.sealedSecret, recoveryCodeHashes: [],
                    enabledAt: now)))
        return setup.secret
    }
}
