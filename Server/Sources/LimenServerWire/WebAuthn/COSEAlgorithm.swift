/// A signature algorithm a WebAuthn credential's key may use, by its COSE identifier (IANA "COSE Algorithms").
public enum COSEAlgorithm: Int64, Sendable, Hashable, CaseIterable {
    /// ECDSA with P-256 and SHA-256; signatures are DER-encoded (WebAuthn §6.5.6).
    case es256 = -7
    /// EdDSA with Ed25519; signatures are 64 raw bytes.
    case edDSA = -8
    /// RSASSA-PKCS1-v1_5 with SHA-256, a modulus of 2,048 to 4,096 bits.
    case rs256 = -257
}
