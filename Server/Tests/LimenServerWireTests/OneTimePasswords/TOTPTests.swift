import Foundation
import LimenServerWire
import Testing

@Suite("TOTP: RFC 6238 codes, and a verifier that accepts each code once within ±1 step")
struct TOTPTests {
    /// RFC 6238 Appendix B's SHA-1 secret, "12345678901234567890" in ASCII.
    static let rfcSecret = Array("12345678901234567890".utf8)

    /// RFC 6238 Appendix B's SHA-1 rows: time (seconds since the epoch), step, and the 8-digit code.
    static let rfcTable: [(Int, Int64, String)] = [
        (59, 0x1, "94287082"),
        (1_111_111_109, 0x23523EC, "07081804"),
        (1_111_111_111, 0x23523ED, "14050471"),
        (1_234_567_890, 0x273EF07, "89005924"),
        (2_000_000_000, 0x3F940AA, "69279037"),
        (20_000_000_000, 0x27BC_86AA, "65353130"),
    ]

    static let secret = Array((1...20).map { UInt8($0 * 7) })
    /// A time in the middle of a step, whose neighbouring steps' codes are all different.
    static let now = Date(timeIntervalSince1970: 1_700_000_015)

    @Test("RFC 6238 Appendix B's SHA-1 vectors: 8 digits as printed, 6 digits as their last six", arguments: rfcTable)
    func rfcVectors(time: Int, step: Int64, code: String) throws {
        let date = Date(timeIntervalSince1970: TimeInterval(time))
        let eight = try TOTP(secret: Self.rfcSecret, digits: 8)
        #expect(eight.timeStep(at: date) == step)
        #expect(eight.code(at: date) == code)
        let six = try TOTP(secret: Self.rfcSecret)
        #expect(six.code(at: date) == String(code.suffix(6)))
        #expect(try six.verify(String(code.suffix(6)), at: date, lastUsedStep: nil) == step)
    }

    @Test("a code is zero-padded to its digits, steps round down, and a new secret is 20 random bytes")
    func shape() throws {
        // RFC 6238's step 0x23523EC, whose 8-digit code starts with a 0.
        let totp = try TOTP(secret: Self.rfcSecret, digits: 8)
        #expect(totp.code(at: Date(timeIntervalSince1970: 1_111_111_109)) == "07081804")
        #expect(totp.timeStep(at: Date(timeIntervalSince1970: 29.999)) == 0)
        #expect(totp.timeStep(at: Date(timeIntervalSince1970: 30)) == 1)
        #expect(totp.timeStep(at: Date(timeIntervalSince1970: -1)) == -1)
        let secrets = (0..<8).map { _ in TOTP.newSecret() }
        #expect(secrets.allSatisfy { $0.count == 20 })
        #expect(Set(secrets).count == secrets.count)
    }

    @Test("short secrets and unsupported digits or periods are refused")
    func parameters() {
        #expect(throws: OneTimePasswordError.secretTooShort) { try TOTP(secret: Array(repeating: 1, count: 15)) }
        for (digits, period) in [(5, 30), (9, 30), (6, 0), (6, -30)] {
            #expect(throws: OneTimePasswordError.invalidParameters) {
                try TOTP(secret: Self.secret, digits: digits, period: period)
            }
        }
    }

    @Test("the codes of the step before, the step and the step after are accepted, and answer their step")
    func window() throws {
        let totp = try TOTP(secret: Self.secret)
        let step = totp.timeStep(at: Self.now)
        let codes = (-2...2).map { totp.code(forStep: step + Int64($0)) }
        #expect(Set(codes).count == codes.count, "the fixture's codes must differ")
        for offset: Int64 in [-1, 0, 1] {
            #expect(
                try totp.verify(totp.code(forStep: step + offset), at: Self.now, lastUsedStep: nil) == step + offset)
        }
    }

    @Test("the codes of two steps away are refused, and any code outside a zero window")
    func outsideWindow() throws {
        let totp = try TOTP(secret: Self.secret)
        let step = totp.timeStep(at: Self.now)
        for offset: Int64 in [-2, 2, 100] {
            #expect(throws: OneTimePasswordError.codeMismatch) {
                try totp.verify(totp.code(forStep: step + offset), at: Self.now, lastUsedStep: nil)
            }
        }
        for offset: Int64 in [-1, 1] {
            #expect(throws: OneTimePasswordError.codeMismatch) {
                try totp.verify(totp.code(forStep: step + offset), at: Self.now, window: 0, lastUsedStep: nil)
            }
        }
        #expect(try totp.verify(totp.code(forStep: step), at: Self.now, window: -5, lastUsedStep: nil) == step)
        #expect(throws: OneTimePasswordError.codeMismatch) {
            try totp.verify(totp.code(forStep: step + 2), at: Self.now, window: -5, lastUsedStep: nil)
        }
    }

    @Test("a code is accepted once: its step, or an earlier one, is refused after use")
    func reuse() throws {
        let totp = try TOTP(secret: Self.secret)
        let code = totp.code(at: Self.now)
        let used = try totp.verify(code, at: Self.now, lastUsedStep: nil)
        #expect(throws: OneTimePasswordError.codeReused) { try totp.verify(code, at: Self.now, lastUsedStep: used) }
        #expect(throws: OneTimePasswordError.codeReused) {
            try totp.verify(totp.code(forStep: used - 1), at: Self.now, lastUsedStep: used)
        }
        // The next step's code is still good; once used, the current step's code is refused.
        let next = try totp.verify(totp.code(forStep: used + 1), at: Self.now, lastUsedStep: used)
        #expect(next == used + 1)
        #expect(throws: OneTimePasswordError.codeReused) { try totp.verify(code, at: Self.now, lastUsedStep: next) }
        // A last step older than the window changes nothing.
        #expect(try totp.verify(code, at: Self.now, lastUsedStep: used - 5) == used)
    }

    @Test("spaces between and around the digits are ignored")
    func spacing() throws {
        let totp = try TOTP(secret: Self.secret)
        let code = totp.code(at: Self.now)
        let step = totp.timeStep(at: Self.now)
        for typed in [" \(code) ", "\(code.prefix(3)) \(code.suffix(3))", "\(code)\n", "\t\(code)"] {
            #expect(try totp.verify(typed, at: Self.now, lastUsedStep: nil) == step, "\(typed)")
        }
    }

    @Test("anything but exactly six ASCII digits is refused as malformed, even around the right code")
    func malformed() throws {
        let totp = try TOTP(secret: Self.secret)
        let code = totp.code(at: Self.now)
        let fullWidth = String(code.unicodeScalars.map { Character(UnicodeScalar($0.value + 0xFEE0) ?? "x") })
        let arabicIndic = String(code.unicodeScalars.map { Character(UnicodeScalar($0.value + 0x0630) ?? "x") })
        let typed = [
            "", " ", "\(code.dropLast())", "\(code)0", "0\(code)", "+\(code.dropFirst())", "-\(code.dropFirst())",
            "\(code.dropLast())a", "\(code.prefix(3))-\(code.suffix(3))", "\(code.prefix(3))\u{0}\(code.suffix(3))",
            fullWidth, arabicIndic, String(repeating: " ", count: 40) + code, "\(code)\u{200B}",
        ]
        for text in typed {
            #expect(throws: OneTimePasswordError.malformedCode, "\(text.debugDescription)") {
                try totp.verify(text, at: Self.now, lastUsedStep: nil)
            }
        }
    }

    @Test("dates at the ends of time give a code instead of a crash")
    func extremes() throws {
        let totp = try TOTP(secret: Self.secret)
        for date in [
            Date.distantPast, Date.distantFuture, Date(timeIntervalSince1970: .infinity),
            Date(timeIntervalSince1970: -.infinity), Date(timeIntervalSince1970: .nan),
        ] {
            #expect(totp.code(at: date).count == 6)
            #expect(throws: OneTimePasswordError.self) { try totp.verify("000000", at: date, lastUsedStep: Int64.max) }
        }
    }
}
