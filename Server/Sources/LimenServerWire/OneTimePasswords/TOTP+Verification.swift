import Foundation
import LimenWire

extension TOTP {
    /// The longest submission read; longer text is refused unread.
    package static let maximumSubmissionLength = 32
    /// The widest window ``verify(_:at:window:lastUsedStep:)`` searches, in steps either side.
    package static let maximumWindow = 10

    /// The time step whose code `submitted` is, within `window` steps either side of `date`'s step and later than
    /// `lastUsedStep`, so that the caller stores it and the same code (or an earlier one) is never accepted again.
    ///
    /// Spaces are dropped (apps show `123 456`) and tabs and line breaks around the code are trimmed; what is left
    /// must be exactly ``digits`` ASCII digits, or the code is refused before anything is computed. Each of the
    /// window's codes is compared in constant time, all of them every time.
    ///
    /// ```swift
    /// let step = try totp.verify("492039", at: now, lastUsedStep: account.lastTOTPStep)
    /// account.lastTOTPStep = step        // stored in the same transaction as the sign-in it allows
    /// ```
    ///
    /// - Throws: ``OneTimePasswordError/malformedCode``, ``OneTimePasswordError/codeReused`` when the code is that of
    ///   `lastUsedStep` or an earlier step of the window, ``OneTimePasswordError/codeMismatch`` otherwise. A `window`
    ///   below 0 is read as 0 (the current step only), one above ``maximumWindow`` as ``maximumWindow``.
    package func verify(_ submitted: String, at date: Date, window: Int = 1, lastUsedStep: Int64?)
        throws(OneTimePasswordError) -> Int64
    {
        guard let code = normalized(submitted) else { throw .malformedCode }
        let current = timeStep(at: date)
        var accepted: Int64?
        var reused = false
        let reach = Int64(min(max(window, 0), Self.maximumWindow))
        for offset in -reach...reach {
            let (step, overflow) = current.addingReportingOverflow(offset)
            guard !overflow, ConstantTime.equals(code, self.code(forStep: step)) else { continue }
            if let lastUsedStep, step <= lastUsedStep {
                reused = true
            } else if accepted == nil {
                accepted = step
            }
        }
        if let accepted { return accepted }
        throw reused ? .codeReused : .codeMismatch
    }

    /// `submitted` without ASCII spaces, and without tabs and line breaks at its ends, when that leaves exactly
    /// ``digits`` ASCII digits. Only ASCII is dropped: Foundation's whitespace would also drop invisible characters
    /// such as U+200B.
    private func normalized(_ submitted: String) -> String? {
        guard submitted.utf8.count <= Self.maximumSubmissionLength else { return nil }
        let blank: Set<UInt8> = [UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")]
        let trimmed = submitted.utf8.drop { blank.contains($0) }.reversed().drop { blank.contains($0) }.reversed()
        let code = trimmed.filter { $0 != UInt8(ascii: " ") }
        guard code.count == digits, code.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return String(decoding: code, as: UTF8.self)
    }
}
