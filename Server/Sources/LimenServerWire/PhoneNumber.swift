import Foundation

/// A phone number in E.164 form (`+` then 8 to 15 digits, the first not `0`), as codes are sent to it and the `phone`
/// identity names it.
///
/// People type numbers with spaces, dashes, dots and parentheses (`+1 (555) 123-4567`); those are dropped. Anything
/// else (letters, a number without its `+` and country code, a leading `00`, too few or too many digits) is refused,
/// since guessing a country would send codes to the wrong person.
///
/// ```swift
/// PhoneNumber("+44 20 7946 0958")?.e164      // "+442079460958"
/// PhoneNumber("+44 20 7946 0958")?.isIn(countries: [1, 49])   // false
/// ```
package struct PhoneNumber: Sendable, Hashable, CustomStringConvertible {
    /// The digits a number may have after the `+`.
    package static let digitCounts: ClosedRange<Int> = 8...15
    /// The longest input read (a number with generous spacing); longer input is refused unread.
    package static let maximumInputLength = 32

    /// The number: `+` and its digits.
    package let e164: String

    /// Reads `input`: `+`, then digits, with spaces, dashes, dots and parentheses between them dropped; `nil` for
    /// anything else.
    package init?(_ input: String) {
        let trimmed = input.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.utf8.count <= Self.maximumInputLength, trimmed.first == "+" else { return nil }
        var digits = ""
        for character in trimmed.dropFirst() {
            if character.isASCII, character.isNumber {
                digits.append(character)
            } else if !" -.()\u{A0}".contains(character) {
                return nil
            }
        }
        guard Self.digitCounts.contains(digits.count), digits.first != "0" else { return nil }
        e164 = "+" + digits
    }

    /// Whether the number's country calling code is one of `countries` (`1`, `44`, `49`, …). Calling codes are a prefix
    /// code (ITU-T E.164): no code begins another, so the number's digits starting with a code decide it.
    package func isIn(countries: [Int]) -> Bool {
        countries.contains { e164.dropFirst().hasPrefix(String($0)) }
    }

    package var description: String { e164 }
}
