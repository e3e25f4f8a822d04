import Crypto
import Foundation
import Testing

@testable import LimenWire

/// The Frodo plaintext of RFC 7520 §5 (with its two U+2013 EN DASHes).
private let rfc7520Plaintext =
    "You can trust us to stick with you through thick and thin\u{2013}to the bitter end. And you can trust us to keep "
    + "any secret of yours\u{2013}closer than you keep it yourself. But you cannot trust us to let you face trouble "
    + "alone, and go off without a word. We are your friends, Frodo."

/// Published JWE and key-wrap examples, exactly as the RFCs print them (line breaks removed), decrypted with the code
/// Limen's field encryption and key export use: AES-GCM content decryption, AES Key Wrap, PBES2 key derivation.
@Suite("JWE known answers")
struct JWEKnownAnswerTests {
    private func bytes(_ base64URL: String) throws -> [UInt8] {
        try #require(Base64URL.byteArray(base64URL))
    }

    @Test("RFC 7520 §5.6: a dir + A128GCM JWE decrypts to the Frodo text with the published key")
    func rfc7520DirectAESGCM() throws {
        let jwe = try CompactJWE(
            "eyJhbGciOiJkaXIiLCJraWQiOiI3N2M3ZTJiOC02ZTEzLTQ1Y2YtODY3Mi02MTdiNWI0NTI0M2EiLCJlbmMiOiJBMTI4R0NNIn0"
                + "..refa467QzzKx6QAB"
                + ".JW_i_f52hww_ELQPGaYyeAB6HYGcR559l9TYnSovc23XJoBcW29rHP8yZOZG7YhLpT1bjFuvZPjQS-m0IFtVcXkZXdH_lr_Fr"
                + "dYt9HRUYkshtrMmIUAyGmUnd9zMDB2n0cRDIHAzFVeJUDxkUwVAE7_YGRPdcqMyiBoCO-FBdE-Nceb4h3-FtBP-c_BIwCPTjb9o"
                + "0SbdcdREEMJMyZBH8ySWMVi1gPD9yxi-aQpGbSv_F9N4IZAxscj5g-NJsUPbjk29-s7LJAGb15wEBtXphVCgyy53CoIKLHHeJHX"
                + "ex45Uz9aKZSRSInZI-wjsY0yu3cT4_aQ3i1o-tiE-F8Ios61EKgyIQ4CWao8PFMj8TTnp"
                + ".vbb32Xvllea2OtmHAdccRQ")
        #expect(jwe.algorithm == "dir")
        #expect(jwe.encryption == "A128GCM")
        #expect(jwe.keyID == "77c7e2b8-6e13-45cf-8672-617b5b45243a")
        #expect(jwe.encryptedKey.isEmpty)
        let key = SymmetricKey(data: try bytes("XctOhJAkA-pD9Lh7ZgW_2A"))
        let plaintext = try ContentEncryption.open(jwe, contentKey: key)
        #expect(String(decoding: plaintext, as: UTF8.self) == rfc7520Plaintext)
        // The same bytes with a flipped tag bit are refused.
        let altered = CompactJWE(
            protectedHeader: jwe.protectedHeader, header: jwe.header, encryptedKey: [],
            initializationVector: jwe.initializationVector, ciphertext: jwe.ciphertext,
            tag: [jwe.tag[0] ^ 1] + jwe.tag.dropFirst())
        #expect(throws: EncryptionError.tampered) { try ContentEncryption.open(altered, contentKey: key) }
    }

    @Test("RFC 7520 §5.8: A128KW unwraps the published CEK, which decrypts the A128GCM content")
    func rfc7520KeyWrapAESGCM() throws {
        let jwe = try CompactJWE(
            "eyJhbGciOiJBMTI4S1ciLCJraWQiOiI4MWIyMDk2NS04MzMyLTQzZDktYTQ2OC04MjE2MGFkOTFhYzgiLCJlbmMiOiJBMTI4R0NNIn0"
                + ".CBI6oDw8MydIx1IBntf_lQcw2MmJKIQx.Qx0pmsDa8KnJc9Jo"
                + ".AwliP-KmWgsZ37BvzCefNen6VTbRK3QMA4TkvRkH0tP1bTdhtFJgJxeVmJkLD61A1hnWGetdg11c9ADsnWgL56NyxwSYjU1ZE"
                + "HcGkd3EkU0vjHi9gTlb90qSYFfeF0LwkcTtjbYKCsiNJQkcIp1yeM03OmuiYSoYJVSpf7ej6zaYcMv3WwdxDFl8REwOhNImk2Xl"
                + "d2JXq6BR53TSFkyT7PwVLuq-1GwtGHlQeg7gDT6xW0JqHDPn_H-puQsmthc9Zg0ojmJfqqFvETUxLAF-KjcBTS5dNy6egwkYtOt8"
                + "EIHK-oEsKYtZRaa8Z7MOZ7UGxGIMvEmxrGCPeJa14slv2-gaqK0kEThkaSqdYw0FkQZF"
                + ".ER7MWJZ1FBI_NKvn7Zb1Lw")
        let keyEncryptionKey = SymmetricKey(data: try bytes("GZy6sIZ6wl9NJOKB-jnmVQ"))
        let contentKey = try AES.KeyWrap.unwrap(jwe.encryptedKey, using: keyEncryptionKey)
        #expect(contentKey.withUnsafeBytes { Array($0) } == (try bytes("aY5_Ghmk9KxWPBLu_glx1w")))
        let plaintext = try ContentEncryption.open(jwe, contentKey: contentKey)
        #expect(String(decoding: plaintext, as: UTF8.self) == rfc7520Plaintext)
    }

    @Test("RFC 3394 §4.6: 256 bits of key data wrapped with a 256-bit KEK")
    func rfc3394KeyWrap256() throws {
        let keyEncryptionKey = SymmetricKey(
            data: try #require(hex("000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F")))
        let keyData = SymmetricKey(
            data: try #require(hex("00112233445566778899AABBCCDDEEFF000102030405060708090A0B0C0D0E0F")))
        let expected = try #require(
            hex("28C9F404C4B810F4CBCCB35CFB87F8263F5786E2D80ED326CBC7F0E71A99F43BFB988B9B7A02DD21"))
        #expect(Array(try AES.KeyWrap.wrap(keyData, using: keyEncryptionKey)) == expected)
        let unwrapped = try AES.KeyWrap.unwrap(expected, using: keyEncryptionKey)
        #expect(unwrapped == keyData)
    }

    @Test("RFC 7517 Appendix C: PBES2-HS256+A128KW unwraps the published CEK with the published password")
    func rfc7517PBES2() throws {
        let contentKey = try PBES2Algorithm.hs256A128KW.unwrap(
            try bytes("TrqXOwuNUfDV9VPTNbyGvEJ9JMjefAVn-TR1uIxR9p6hsRQh9Tk7BA"),
            passphrase: "Thus from my lips, by yours, my sin is purged.",
            saltInput: try bytes("2WCTcJZ1Rvd_CJuJripQ1w"), iterations: 4096)
        let expected: [UInt8] = [
            111, 27, 25, 52, 66, 29, 20, 78, 92, 176, 56, 240, 65, 208, 82, 112, 161, 131, 36, 55, 202, 236, 185, 172,
            129, 23, 153, 194, 195, 48, 253, 182,
        ]
        #expect(contentKey.withUnsafeBytes { Array($0) } == expected)
    }

    @Test("RFC 7520 §5.3: PBES2-HS512+A256KW (the key export's algorithm) unwraps the published CEK")
    func rfc7520PBES2HS512() throws {
        // The example's protected header: {"alg":"PBES2-HS512+A256KW","p2s":"8Q1SzinasR3xchYz6ZZcHA","p2c":8192,…}.
        let algorithm = PBES2Algorithm.hs512A256KW
        #expect(algorithm.rawValue == "PBES2-HS512+A256KW")
        let contentKey = try algorithm.unwrap(
            try bytes("d3qNhUWfqheyPp4H8sjOWsDYajoej4c5Je6rlUtFPWdgtURtmeDV1g"),
            passphrase: "entrap_o\u{2013}peter_long\u{2013}credit_tun", saltInput: try bytes("8Q1SzinasR3xchYz6ZZcHA"),
            iterations: 8192)
        #expect(contentKey.withUnsafeBytes { Array($0) } == (try bytes("uwsjJXaBK407Qaf0_zpcpmr1Cs0CC50hIUEyGNEt3m0")))
        #expect(throws: EncryptionError.wrongPassphrase) {
            try algorithm.unwrap(
                try bytes("d3qNhUWfqheyPp4H8sjOWsDYajoej4c5Je6rlUtFPWdgtURtmeDV1g"), passphrase: "entrap_o-peter_long",
                saltInput: try bytes("8Q1SzinasR3xchYz6ZZcHA"), iterations: 8192)
        }
    }

    @Test("the key ID is the RFC 7638 thumbprint, as joserfc computes it for the same key")
    func thumbprint() throws {
        // The key 0x00…0x1f; its thumbprint as joserfc 1.8's OctKey.thumbprint() gives it.
        let key = try FieldEncryptionKey(bytes: Array(0..<32) as [UInt8])
        #expect(key.keyID == "WqjPPRvAP8oYbAqCwMErhzTg-Quaz-vLx_cef07yhOs")
        // SHA-256 of the required members in lexicographic order, without whitespace (RFC 7638 §3.2–3.3).
        let input = #"{"k":"AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8","kty":"oct"}"#
        #expect(key.keyID == Base64URL.encode(SHA256.hash(data: Data(input.utf8))))
    }

    private func hex(_ text: String) -> [UInt8]? {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while index < text.endIndex {
            let next = text.index(index, offsetBy: 2)
            guard let byte = UInt8(text[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return bytes
    }
}
