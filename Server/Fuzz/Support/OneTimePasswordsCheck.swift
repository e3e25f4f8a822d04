import Foundation
import LimenServerWire
import LimenWire

/// The `OneTimePasswords` harness's check, also replayed over its seed corpus by `CorpusTests`: the input read as
/// each typed text of the TOTP helper, and given as an issuer and account name (before and after its first NUL byte)
/// to the provisioning URI.
///
/// - Base32 (``Base32/decode(_:)``): a text read encodes again as itself without spaces and `=`, in upper case.
/// - A recovery code (``RecoveryCode/init(typed:)``) read is 12 characters of its alphabet, the input's letters and
///   digits in lower case; its formatted form reads as itself, and its hash matches the input.
/// - A TOTP code (``TOTP/verify(_:at:window:lastUsedStep:)``, RFC 6238's secret at 59 s): one accepted is the code of
///   a step of the window, digits and blanks only, and once that step is used it is refused as reused.
/// - The `otpauth` URI (``OTPAuthURI``): its label has one literal colon (none without an issuer) and no `?`, `#` or
///   `/`, and the label and query read back the issuer, the account and the secret.
package enum OneTimePasswordsCheck {
    /// Checks one input; throws what it finds.
    package static func check(_ input: some Sequence<UInt8>) throws(FuzzFinding) {
        let bytes = Array(input)
        let text = String(decoding: bytes, as: UTF8.self)
        try checkBase32(text)
        try checkRecoveryCode(text)
        try checkTOTPCode(text)
        let names = bytes.split(separator: 0, maxSplits: 1, omittingEmptySubsequences: false)
        try checkOTPAuthURI(
            issuer: String(decoding: names[0], as: UTF8.self),
            account: String(decoding: names.count > 1 ? names[1] : [], as: UTF8.self))
    }

    /// A finding about `text`.
    private static func finding(_ text: String, _ what: String) -> FuzzFinding {
        FuzzFinding(description: "\(text.debugDescription): \(what)")
    }

    /// A generator of RFC 6238 Appendix B's SHA-1 secret, 6 digits every 30 s: at 59 s (step 1) its code is 287082.
    private static func rfcTOTP() throws(FuzzFinding) -> TOTP {
        guard let totp = try? TOTP(secret: Array("12345678901234567890".utf8)) else {
            throw FuzzFinding(description: "RFC 6238's secret is refused")
        }
        return totp
    }

    /// Base32 read encodes again as itself.
    private static func checkBase32(_ text: String) throws(FuzzFinding) {
        guard let decoded = try? Base32.decode(text) else { return }
        let canonical = String(text.filter { $0 != " " && $0 != "=" }).uppercased()
        guard Base32.encode(decoded) == canonical else {
            throw finding(text, "base32 read as \(decoded), which encodes as \(Base32.encode(decoded))")
        }
    }

    /// A recovery code read is the input's own characters, and reads and matches as itself.
    private static func checkRecoveryCode(_ text: String) throws(FuzzFinding) {
        guard let code = RecoveryCode(typed: text) else { return }
        let typed = text.utf8.filter { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "-") }
        guard code.normalized.utf8.count == RecoveryCode.length,
            code.normalized.utf8.allSatisfy(RecoveryCode.alphabet.contains),
            code.normalized == String(decoding: typed, as: UTF8.self).lowercased()
        else { throw finding(text, "read as the recovery code \(code.normalized)") }
        guard RecoveryCode(typed: code.formatted)?.normalized == code.normalized,
            RecoveryCode.match(text, in: [Data(), code.hash]) == 1
        else { throw finding(text, "the recovery code \(code.normalized) does not read or match as itself") }
    }

    /// A TOTP code accepted is a code of the window, and is refused once its step is used.
    private static func checkTOTPCode(_ text: String) throws(FuzzFinding) {
        let totp = try rfcTOTP()
        let now = Date(timeIntervalSince1970: 59)
        guard let step = try? totp.verify(text, at: now, lastUsedStep: nil) else { return }
        let isDigit = { (byte: UInt8) in (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) }
        let digits = text.utf8.filter(isDigit)
        guard (0...2).contains(step), totp.code(forStep: step) == String(decoding: digits, as: UTF8.self),
            text.utf8.allSatisfy({ isDigit($0) || " \t\n\r".utf8.contains($0) })
        else { throw finding(text, "accepted as the code of step \(step)") }
        do throws(OneTimePasswordError) {
            _ = try totp.verify(text, at: now, lastUsedStep: step)
        } catch .codeReused {
            return
        } catch {
            throw finding(text, "a used code is refused as \(error.code)")
        }
        throw finding(text, "accepted again once its step \(step) was used")
    }

    /// The provisioning URI reads back its issuer, account and secret.
    private static func checkOTPAuthURI(issuer: String, account: String) throws(FuzzFinding) {
        let totp = try rfcTOTP()
        let uri = OTPAuthURI.make(for: totp, issuer: issuer, account: account)
        let described = "\(issuer.debugDescription), \(account.debugDescription) → \(uri)"
        let prefix = "otpauth://totp/"
        guard uri.hasPrefix(prefix), let questionMark = uri.firstIndex(of: "?") else {
            throw FuzzFinding(description: "\(described): not an otpauth://totp/ URI with a query")
        }
        let label = uri[uri.index(uri.startIndex, offsetBy: prefix.count)..<questionMark]
        let parts = label.split(separator: ":", omittingEmptySubsequences: false).map { part in
            FormEncoding.decode(String(part)).first?.0 ?? ""
        }
        let expectedParts = issuer.isEmpty ? [account] : [issuer, account]
        guard !label.contains("#"), !label.contains("/"), parts == expectedParts else {
            throw FuzzFinding(description: "\(described): the label does not read back as issuer and account")
        }
        let query = FormEncoding.decode(String(uri[uri.index(after: questionMark)...]))
        let expectedQuery =
            [("secret", Base32.encode(totp.secret))] + (issuer.isEmpty ? [] : [("issuer", issuer)])
            + [("algorithm", "SHA1"), ("digits", "6"), ("period", "30")]
        guard query.map(\.0) == expectedQuery.map(\.0), query.map(\.1) == expectedQuery.map(\.1) else {
            throw FuzzFinding(description: "\(described): the query does not read back")
        }
    }
}
