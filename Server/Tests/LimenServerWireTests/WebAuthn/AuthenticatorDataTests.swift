import Crypto
import Foundation
import LimenServerWire
import Testing

@Suite("Authenticator data: what the flags announce is read, and nothing else is accepted")
struct AuthenticatorDataTests {
    static let rpIDHash = [UInt8](SHA256.hash(data: Data("example.com".utf8)))
    static let credentialID = [UInt8](repeating: 0xC1, count: 16)

    /// Authenticator data with `flags` and `signCount`, followed by `rest`.
    static func data(flags: UInt8, signCount: UInt32 = 0, _ rest: [UInt8] = []) -> [UInt8] {
        rpIDHash + [flags] + (0..<4).reversed().map { UInt8(truncatingIfNeeded: signCount >> (8 * $0)) } + rest
    }

    /// Attested credential data for `COSEKeyTests.p256`'s key, with a credential ID of `idLength` bytes.
    static func attested(idLength: Int = 16) -> [UInt8] {
        [UInt8](repeating: 0xAA, count: 16) + [UInt8(idLength >> 8), UInt8(idLength & 0xFF)]
            + [UInt8](repeating: 0xC1, count: idLength) + COSEKeyTests.es256Key().encoded
    }

    static let extensions = CBORValue.map([(.text("credProtect"), .unsigned(2))]).encoded

    @Test("the fixed part is read: RP ID hash, flags, big-endian signature counter")
    func fixedPart() throws {
        let data = try AuthenticatorData(bytes: Self.data(flags: 0x05, signCount: 0x0102_0304))
        #expect(data.rpIDHash == Self.rpIDHash)
        #expect(data.flags == [.userPresent, .userVerified])
        #expect(data.signCount == 0x0102_0304)
        #expect(data.attestedCredential == nil)
        #expect(data.extensions == nil)
    }

    @Test("attested credential data and extensions are read when AT and ED say so")
    func attestedAndExtensions() throws {
        let data = try AuthenticatorData(bytes: Self.data(flags: 0xDD, Self.attested() + Self.extensions))
        let credential = try #require(data.attestedCredential)
        #expect(credential.aaguid == [UInt8](repeating: 0xAA, count: 16))
        #expect(credential.credentialID == Self.credentialID)
        #expect(credential.publicKeyBytes == COSEKeyTests.es256Key().encoded)
        #expect(credential.publicKey.algorithm == .es256)
        #expect(data.extensions?["credProtect"] == .unsigned(2))
        #expect(data.flags.contains([.backupEligible, .backedUp]))
    }

    @Test("a credential ID of 1,023 bytes is read; one of 1,024 is refused")
    func credentialIDLength() throws {
        _ = try AuthenticatorData(bytes: Self.data(flags: 0x41, Self.attested(idLength: 1023)))
        #expect(throws: WebAuthnError.credentialIDTooLong) {
            try AuthenticatorData(bytes: Self.data(flags: 0x41, Self.attested(idLength: 1024)))
        }
    }

    @Test(
        "inputs that disagree with their flags, or are cut short, are refused",
        arguments: [
            (Array(data(flags: 0x01).dropLast()), WebAuthnError.authenticatorDataTruncated),
            ([], .authenticatorDataTruncated),
            // AT set, but nothing, or only part of the attested credential data, follows.
            (data(flags: 0x41), .authenticatorDataTruncated),
            (data(flags: 0x41, Array(attested().prefix(17))), .authenticatorDataTruncated),
            (data(flags: 0x41, Array(attested().prefix(30))), .authenticatorDataTruncated),
            (data(flags: 0x41, Array(attested().dropLast())), .malformedCBOR(.truncated)),
            // ED set, but nothing follows.
            (data(flags: 0x81), .authenticatorDataTruncated),
            (data(flags: 0xC1, attested()), .authenticatorDataTruncated),
            // AT or ED clear, but their data follows.
            (data(flags: 0x01, attested()), .authenticatorDataTrailingBytes),
            (data(flags: 0x01, extensions), .authenticatorDataTrailingBytes),
            (data(flags: 0x41, attested() + extensions), .authenticatorDataTrailingBytes),
            (data(flags: 0x81, extensions + [0x00]), .authenticatorDataTrailingBytes),
            (data(flags: 0x01, [0x00]), .authenticatorDataTrailingBytes),
            // Extensions that are not a map, or not CBOR.
            (data(flags: 0x81, [0x01]), .extensionsNotAMap),
            (data(flags: 0x81, [0xa1, 0x01]), .malformedCBOR(.tooLarge)),
            // BS without BE.
            (data(flags: 0x11), .backupStateWithoutEligibility),
            // A credential key that is not CBOR, or not a usable key.
            (data(flags: 0x41, Array(attested().prefix(34)) + [0xc0, 0x00]), .malformedCBOR(.unsupportedType)),
            (data(flags: 0x41, Array(attested().prefix(34)) + [0xa0]), .invalidCredentialKey(.missingMember(label: 1))),
        ])
    func refusals(bytes: [UInt8], error: WebAuthnError) {
        #expect(throws: error) { try AuthenticatorData(bytes: bytes) }
    }
}
