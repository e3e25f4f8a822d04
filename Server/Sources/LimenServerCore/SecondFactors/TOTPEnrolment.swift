import Foundation

/// A TOTP secret offered to a signed-in user, kept sealed with the interaction that shows it until a code of it turns
/// two-step sign-in on: the same secret across refusals, since the person has already added it to their app.
package struct TOTPEnrolment: Sendable, Equatable, Codable {
    /// The secret, sealed for the user (``SecondFactors``).
    package var sealedSecret: Data

    /// The enrolment of a secret sealed for the user (a page carries it back from its set-up form).
    package init(sealedSecret: Data) {
        self.sealedSecret = sealedSecret
    }
}

/// What the setup node shows of an enrolment.
package struct TOTPSetup: Sendable, Equatable {
    /// The `otpauth://totp/…` URI an authenticator app reads (as a QR code or a link).
    package var uri: String
    /// The secret in base32, to type in.
    package var secret: String
}
