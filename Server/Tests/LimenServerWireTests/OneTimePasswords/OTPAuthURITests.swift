import Foundation
import LimenServerWire
import Testing

@Suite("otpauth URIs: the Key Uri Format, with issuer and account percent-encoded")
struct OTPAuthURITests {
    /// A generator with RFC 6238's secret, whose base32 is `GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ`.
    static func totp(digits: Int = 6, period: Int = 30) throws -> TOTP {
        try TOTP(secret: Array("12345678901234567890".utf8), digits: digits, period: period)
    }

    @Test("a plain issuer and email address give the documented URI")
    func plain() throws {
        let totp = try Self.totp()
        #expect(
            OTPAuthURI.make(for: totp, issuer: "Example", account: "alice@google.com")
                == "otpauth://totp/Example:alice%40google.com?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Example"
                + "&algorithm=SHA1&digits=6&period=30")
    }

    @Test("colons, spaces, separators and non-ASCII letters are escaped, so the label has one literal colon")
    func escaped() throws {
        let totp = try Self.totp(digits: 8, period: 60)
        let uri = OTPAuthURI.make(for: totp, issuer: "Ex Co: Ünï", account: "a b:c/d?e#f&g=h+i%j")
        #expect(
            uri
                == "otpauth://totp/Ex%20Co%3A%20%C3%9Cn%C3%AF:a%20b%3Ac%2Fd%3Fe%23f%26g%3Dh%2Bi%25j"
                + "?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&issuer=Ex%20Co%3A%20%C3%9Cn%C3%AF"
                + "&algorithm=SHA1&digits=8&period=60")
        #expect(URL(string: uri)?.scheme == "otpauth")
    }

    @Test("an empty issuer is left out of the label and the parameters")
    func noIssuer() throws {
        let totp = try Self.totp()
        #expect(
            OTPAuthURI.make(for: totp, issuer: "", account: "a:b")
                == "otpauth://totp/a%3Ab?secret=GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ&algorithm=SHA1&digits=6&period=30")
    }
}
