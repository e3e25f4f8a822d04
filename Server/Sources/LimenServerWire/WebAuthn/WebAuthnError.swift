import Foundation

/// Why a WebAuthn message was refused (W3C Web Authentication Level 3): its authenticator data, client data,
/// attestation object or assertion.
public enum WebAuthnError: Error, Sendable, Equatable {
    /// The authenticator data ends before what its flags announce (37 bytes at least; the attested credential data's
    /// AAGUID, credential ID length and credential ID; the extensions when ED is set).
    case authenticatorDataTruncated
    /// Bytes follow what the authenticator data's flags announce (AT or ED clear but data follows, or more after the
    /// extensions).
    case authenticatorDataTrailingBytes
    /// The backup state flag (BS) is set without the backup eligibility flag (BE), which WebAuthn §6.1 forbids.
    case backupStateWithoutEligibility
    /// A credential ID longer than 1,023 bytes (WebAuthn §6.5.1).
    case credentialIDTooLong
    /// The extensions (ED) are not a CBOR map.
    case extensionsNotAMap
    /// CBOR that could not be read; the associated value says why.
    case malformedCBOR(CBORError)
    /// A credential public key that could not be used; the associated value says why.
    case invalidCredentialKey(COSEKeyError)
    /// The client data is not a JSON object with string `type`, `challenge` and `origin`, a boolean `crossOrigin` when
    /// present, a string `topOrigin` when present, and a `challenge` in base64url.
    case clientDataMalformed
    /// The client data's `type` is not the ceremony expected (`webauthn.create` for registration, `webauthn.get` for
    /// sign-in).
    case clientDataTypeMismatch
    /// The client data's challenge is not the one the server issued.
    case challengeMismatch
    /// The client data's origin is not one the server allows.
    case originNotAllowed
    /// The ceremony ran in a cross-origin iframe, which the server does not allow.
    case crossOriginNotAllowed
    /// The attestation object is not a map of `fmt` (text), `attStmt` (map) and `authData` (bytes).
    case attestationObjectMalformed
    /// An attestation format other than `none` and `packed` self attestation (a certificate chain, ECDAA, a platform
    /// format); the associated value is the format's name.
    case unsupportedAttestation(String)
    /// The attestation statement does not have the members its format requires (`none`: none at all; packed self
    /// attestation: an integer `alg` and a byte-string `sig`).
    case attestationStatementMalformed
    /// The packed attestation's `alg` is not the credential key's algorithm.
    case attestationAlgorithmMismatch
    /// The packed self attestation's signature is not the credential key's over the authenticator data and the client
    /// data's hash.
    case attestationSignatureInvalid
    /// Registration authenticator data without attested credential data (AT clear).
    case attestedCredentialDataMissing
    /// The authenticator data's RP ID hash is not the SHA-256 of the server's RP ID.
    case rpIDHashMismatch
    /// The user-presence flag (UP) is clear.
    case userNotPresent
    /// The user-verified flag (UV) is clear although the server requires user verification.
    case userNotVerified
    /// The assertion's signature is not the credential key's over the authenticator data and the client data's hash.
    case signatureInvalid
    /// A registration or sign-in response that is not WebAuthn's JSON form: `type` not `public-key`, `id` and `rawId`
    /// missing or different, no `response` object, or a member of it missing or not base64url.
    case responseMalformed
    /// The signature counter did not grow past the stored one (and is not 0 on both sides): the authenticator may have
    /// been cloned (WebAuthn §6.1.1).
    case signCountNotIncreased

    /// A stable, machine-readable identifier for this failure.
    public var code: String {
        switch self {
        case .authenticatorDataTruncated: "webauthn.authenticator_data_truncated"
        case .authenticatorDataTrailingBytes: "webauthn.authenticator_data_trailing_bytes"
        case .backupStateWithoutEligibility: "webauthn.backup_state_without_eligibility"
        case .credentialIDTooLong: "webauthn.credential_id_too_long"
        case .extensionsNotAMap: "webauthn.extensions_not_a_map"
        case .malformedCBOR: "webauthn.malformed_cbor"
        case .invalidCredentialKey: "webauthn.invalid_credential_key"
        case .clientDataMalformed: "webauthn.client_data_malformed"
        case .clientDataTypeMismatch: "webauthn.client_data_type_mismatch"
        case .challengeMismatch: "webauthn.challenge_mismatch"
        case .originNotAllowed: "webauthn.origin_not_allowed"
        case .crossOriginNotAllowed: "webauthn.cross_origin_not_allowed"
        case .attestationObjectMalformed: "webauthn.attestation_object_malformed"
        case .unsupportedAttestation: "webauthn.unsupported_attestation"
        case .attestationStatementMalformed: "webauthn.attestation_statement_malformed"
        case .attestationAlgorithmMismatch: "webauthn.attestation_algorithm_mismatch"
        case .attestationSignatureInvalid: "webauthn.attestation_signature_invalid"
        case .attestedCredentialDataMissing: "webauthn.attested_credential_data_missing"
        case .rpIDHashMismatch: "webauthn.rp_id_hash_mismatch"
        case .userNotPresent: "webauthn.user_not_present"
        case .userNotVerified: "webauthn.user_not_verified"
        case .signatureInvalid: "webauthn.signature_invalid"
        case .responseMalformed: "webauthn.response_malformed"
        case .signCountNotIncreased: "webauthn.sign_count_not_increased"
        }
    }
}

extension WebAuthnError: LocalizedError {
    /// A human-readable description; never contains the message's content.
    public var errorDescription: String? {
        switch self {
        case .authenticatorDataTruncated: "The authenticator data ends before what its flags announce."
        case .authenticatorDataTrailingBytes: "Bytes follow what the authenticator data's flags announce."
        case .backupStateWithoutEligibility: "The authenticator data says backed up but not backup eligible."
        case .credentialIDTooLong: "The credential ID is longer than 1,023 bytes."
        case .extensionsNotAMap: "The authenticator extensions are not a CBOR map."
        case .malformedCBOR(let error): "Malformed CBOR: \(error.errorDescription ?? error.code)"
        case .invalidCredentialKey(let error): "Unusable credential key: \(error.errorDescription ?? error.code)"
        case .clientDataMalformed: "The client data is not the JSON WebAuthn specifies."
        case .clientDataTypeMismatch: "The client data is for another ceremony."
        case .challengeMismatch: "The client data's challenge is not the one issued."
        case .originNotAllowed: "The client data's origin is not allowed."
        case .crossOriginNotAllowed: "The ceremony ran in a cross-origin frame."
        case .attestationObjectMalformed: "The attestation object is not a map of fmt, attStmt and authData."
        case .unsupportedAttestation(let format): "The attestation format \"\(format)\" is not supported."
        case .attestationStatementMalformed: "The attestation statement lacks what its format requires."
        case .attestationAlgorithmMismatch: "The attestation's algorithm is not the credential key's."
        case .attestationSignatureInvalid: "The attestation signature does not verify."
        case .attestedCredentialDataMissing: "The authenticator data holds no attested credential data."
        case .rpIDHashMismatch: "The authenticator data is for another relying party."
        case .userNotPresent: "The authenticator did not see the user present."
        case .userNotVerified: "The authenticator did not verify the user."
        case .signatureInvalid: "The assertion signature does not verify."
        case .responseMalformed: "The response is not WebAuthn's JSON form of a credential."
        case .signCountNotIncreased: "The signature counter did not increase: the authenticator may be cloned."
        }
    }
}
