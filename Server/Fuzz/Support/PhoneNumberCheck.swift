import LimenServerWire

/// The `PhoneNumber` harness's check, also replayed over its seed corpus by `CorpusTests`: the input read as a
/// phone number someone typed (``PhoneNumber``).
///
/// - A number read is E.164: `+`, then 8 to 15 ASCII digits, the first not `0`.
/// - Its digits are exactly the ASCII digits of the input, in order: nothing is guessed, added or dropped.
/// - Read again, it gives itself; and it is in the country whose calling code its digits start with.
package enum PhoneNumberCheck {
    /// Checks one input; throws what it finds.
    package static func check(_ input: some Sequence<UInt8>) throws(FuzzFinding) {
        let text = String(decoding: Array(input), as: UTF8.self)
        guard let number = PhoneNumber(text) else { return }
        let digits = number.e164.dropFirst()
        guard number.e164.first == "+", PhoneNumber.digitCounts.contains(digits.count),
            digits.allSatisfy({ $0.isASCII && $0.isNumber }), digits.first != "0"
        else { throw FuzzFinding(description: "\(text.debugDescription) read as \(number.e164), which is not E.164") }
        guard String(digits) == text.filter({ $0.isASCII && $0.isNumber }) else {
            throw FuzzFinding(description: "\(text.debugDescription) read as \(number.e164): digits changed")
        }
        guard PhoneNumber(number.e164) == number else {
            throw FuzzFinding(description: "\(number.e164) does not read as itself")
        }
        for length in 1...3 where !number.isIn(countries: [Int(String(digits.prefix(length))) ?? 0]) {
            throw FuzzFinding(description: "\(number.e164) is not in the country of its first \(length) digits")
        }
    }
}
