import Foundation

/// A registration's attestation object (WebAuthn §6.5.4): the attestation format, its statement and the authenticator
/// data with the new credential.
///
/// Limen accepts the formats a passkey server needs without a trust store: `none` (the statement is empty) and `packed`
/// self attestation (the credential signs its own registration). Certificate chains (`x5c`), ECDAA and the platform
/// formats are refused with ``WebAuthnError/unsupportedAttestation(_:)``.
///
/// ```swift
/// let attestation = try AttestationObject(bytes: attestationObjectBytes)
/// try attestation.verify(clientDataHash: clientData.hash)
/// let credential = attestation.credential   // its ID and public key, to store
/// ```
public struct AttestationObject: Sendable {
    /// An attestation statement Limen accepts.
    public enum Statement: Sendable, Equatable {
        /// `none`: no attestation.
        case none
        /// `packed` self attestation: the credential key's signature, with its algorithm.
        case packedSelf(algorithm: Int64, signature: [UInt8])
    }

    /// The attestation statement.
    public let statement: Statement
    /// The authenticator data, with the attested credential data.
    public let authenticatorData: AuthenticatorData

    /// The new credential, from the authenticator data.
    public let credential: AttestedCredentialData

    /// Reads an attestation object: a CBOR map (all bytes consumed) of text `fmt`, map `attStmt` and byte-string
    /// `authData`, whose authenticator data must hold attested credential data.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        let object: CBORValue
        do {
            object = try CBORReader.read(bytes)
        } catch {
            throw .malformedCBOR(error)
        }
        guard let format = object["fmt"]?.textValue, let statement = object["attStmt"],
            let members = statement.mapEntries, let authenticatorBytes = object["authData"]?.bytesValue
        else { throw .attestationObjectMalformed }
        switch format {
        case "none":
            guard members.isEmpty else { throw .attestationStatementMalformed }
            self.statement = .none
        case "packed":
            guard statement["x5c"] == nil, statement["ecdaaKeyId"] == nil else {
                throw .unsupportedAttestation(format)
            }
            guard members.count == 2, let algorithm = statement["alg"]?.integerValue,
                let signature = statement["sig"]?.bytesValue
            else { throw .attestationStatementMalformed }
            self.statement = .packedSelf(algorithm: algorithm, signature: signature)
        default:
            throw .unsupportedAttestation(format)
        }
        authenticatorData = try AuthenticatorData(bytes: authenticatorBytes)
        guard let credential = authenticatorData.attestedCredential else { throw .attestedCredentialDataMissing }
        self.credential = credential
    }

    /// Checks the attestation statement (WebAuthn §8.2 for packed self attestation, §8.7 for none): for packed, that
    /// its algorithm is the credential key's and its signature is that key's over the authenticator data followed by
    /// `clientDataHash`.
    public func verify(clientDataHash: [UInt8]) throws(WebAuthnError) {
        guard case .packedSelf(let algorithm, let signature) = statement else { return }
        let key = credential.publicKey
        guard algorithm == key.algorithm.rawValue else { throw .attestationAlgorithmMismatch }
        guard key.isValidSignature(signature, for: authenticatorData.bytes + clientDataHash) else {
            throw .attestationSignatureInvalid
        }
    }
}
