/// The authenticator data of a WebAuthn registration or assertion (WebAuthn §6.1): the RP ID hash, flags, signature
/// counter, and, as the flags announce, the attested credential data and the extensions.
///
/// ```swift
/// let data = try AuthenticatorData(bytes: authenticatorDataBytes)
/// guard data.flags.contains(.userPresent) else { … }
/// ```
public struct AuthenticatorData: Sendable {
    /// The authenticator data's flags byte.
    public struct Flags: OptionSet, Sendable, Hashable {
        /// The byte.
        public let rawValue: UInt8

        /// Flags from their byte.
        public init(rawValue: UInt8) {
            self.rawValue = rawValue
        }

        /// UP: the user was present.
        public static let userPresent = Flags(rawValue: 0x01)
        /// UV: the user was verified (biometrics, PIN).
        public static let userVerified = Flags(rawValue: 0x04)
        /// BE: the credential may be backed up (a synced passkey).
        public static let backupEligible = Flags(rawValue: 0x08)
        /// BS: the credential is backed up.
        public static let backedUp = Flags(rawValue: 0x10)
        /// AT: attested credential data follows.
        public static let attestedCredentialData = Flags(rawValue: 0x40)
        /// ED: extensions follow.
        public static let extensionData = Flags(rawValue: 0x80)
    }

    /// The longest credential ID accepted (WebAuthn §6.5.1).
    public static let maximumCredentialIDLength = 1023

    /// The bytes as received: what signatures cover.
    public let bytes: [UInt8]
    /// SHA-256 of the RP ID the credential is scoped to.
    public let rpIDHash: [UInt8]
    /// The flags.
    public let flags: Flags
    /// The signature counter, 0 when the authenticator keeps none.
    public let signCount: UInt32
    /// The new credential, present when ``Flags/attestedCredentialData`` is set.
    public let attestedCredential: AttestedCredentialData?
    /// The authenticator's extension outputs (a CBOR map), present when ``Flags/extensionData`` is set.
    public let extensions: CBORValue?

    /// Reads authenticator data; refuses bytes its flags do not announce, announced parts that are missing, a
    /// credential ID over ``maximumCredentialIDLength`` bytes, a credential key ``COSEKey`` refuses, and BS without BE.
    public init(bytes: [UInt8]) throws(WebAuthnError) {
        guard bytes.count >= 37 else { throw .authenticatorDataTruncated }
        self.bytes = bytes
        rpIDHash = Array(bytes[0..<32])
        flags = Flags(rawValue: bytes[32])
        signCount = bytes[33..<37].reduce(0) { $0 << 8 | UInt32($1) }
        guard flags.contains(.backupEligible) || !flags.contains(.backedUp) else {
            throw .backupStateWithoutEligibility
        }
        var rest = bytes[37...]
        if flags.contains(.attestedCredentialData) {
            let credential = try AttestedCredentialData(reading: &rest)
            attestedCredential = credential
        } else {
            attestedCredential = nil
        }
        if flags.contains(.extensionData) {
            guard !rest.isEmpty else { throw .authenticatorDataTruncated }
            let extensions: CBORValue
            do {
                extensions = try CBORReader.read(rest)
            } catch .trailingBytes {
                throw .authenticatorDataTrailingBytes
            } catch {
                throw .malformedCBOR(error)
            }
            guard extensions.mapEntries != nil else { throw .extensionsNotAMap }
            self.extensions = extensions
        } else {
            guard rest.isEmpty else { throw .authenticatorDataTrailingBytes }
            extensions = nil
        }
    }
}
