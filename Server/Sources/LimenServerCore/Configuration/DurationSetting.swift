import Foundation

/// A duration as settings write it: whole seconds (`600`), or a whole number of seconds, minutes, hours or days
/// (`45s`, `10m`, `12h`, `30d`).
///
/// ```swift
/// DurationSetting.seconds(in: "10m")   // 600
/// DurationSetting.text(for: 86_400)    // "1d"
/// ```
public enum DurationSetting {
    /// The unit suffixes, largest first, with their length in seconds.
    private static let units: [(suffix: Character, seconds: Int)] = [("d", 86_400), ("h", 3600), ("m", 60), ("s", 1)]

    /// The seconds `text` stands for; `nil` when it is not a whole, non-negative number with an optional unit.
    public static func seconds(in text: String) -> TimeInterval? {
        var digits = Substring(text)
        var multiplier = 1
        if let last = text.last, let unit = units.first(where: { $0.suffix == last }) {
            digits = digits.dropLast()
            multiplier = unit.seconds
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
            let count = Int(digits)
        else { return nil }
        let (seconds, overflow) = count.multipliedReportingOverflow(by: multiplier)
        return overflow ? nil : TimeInterval(seconds)
    }

    /// `seconds` written with the largest unit that divides it: `90` is `90s`, `600` is `10m`, `0` is `0s`.
    public static func text(for seconds: TimeInterval) -> String {
        let whole = Int(seconds)
        let unit = units.first { whole != 0 && whole % $0.seconds == 0 } ?? ("s", 1)
        return "\(whole / unit.seconds)\(unit.suffix)"
    }
}
