import Foundation

/// Why a TOTP generator was not made or a submitted code was refused (RFC 6238).
package enum OneTimePasswordError: Error, Sendable, Equatable {
    /// A secret shorter than ``TOTP/minimumSecretByteCount`` bytes (RFC 4226 §4 asks for 128 bits at least).
    case secretTooShort
    /// Digits outside ``TOTP/digitRange`` or a period that is not a positive number of seconds.
    case invalidParameters
    /// The submitted code is not exactly ``TOTP/digits`` ASCII digits (spaces aside); nothing was computed.
    case malformedCode
    /// The code is not one of the window's codes.
    case codeMismatch
    /// The code is that of a time step already used (or an earlier one): a code is accepted once only.
    case codeReused

    /// A stable, machine-readable identifier for this failure.
    package var code: String {
        switch self {
        case .secretTooShort: "otp.secret_too_short"
        case .invalidParameters: "otp.invalid_parameters"
        case .malformedCode: "otp.malformed_code"
        case .codeMismatch: "otp.code_mismatch"
        case .codeReused: "otp.code_reused"
        }
    }
}

extension OneTimePasswordError: LocalizedError {
    /// A human-readable description; never contains the code or the secret.
    package var errorDescription: String? {
        switch self {
        case .secretTooShort: "The TOTP secret is shorter than 128 bits."
        case .invalidParameters: "The TOTP digits or period are not supported."
        case .malformedCode: "The code is not the expected number of digits."
        case .codeMismatch: "The code is not the current one."
        case .codeReused: "The code was already used."
        }
    }
}
