import Foundation

/// A field's `regex`, compiled once when the schema is set, and matched within a bounded amount of work so that a
/// pattern prone to catastrophic backtracking (`^(a+)+$`) cannot hold a request: the pattern is at most
/// ``maximumSourceLength`` characters, and a match that runs past ``progressBudget`` of ICU's progress reports
/// (`NSRegularExpression.MatchingOptions.reportProgress`, each a fixed number of matcher steps) is stopped and
/// refused as too complex.
///
/// Matching searches the value (`NSRegularExpression` semantics, like JSON Schema's `pattern`): anchor with `^…$` to
/// match it whole.
package struct FieldPattern: @unchecked Sendable, Equatable {
    // @unchecked: the only stored reference is an NSRegularExpression, which is immutable once made and documented as
    // safe to use from several threads at once ("NSRegularExpression objects are immutable and thread safe").

    /// Why a pattern is refused.
    package struct Refusal: Error, Sendable, Equatable {
        /// What is wrong with it.
        package var reason: String
    }

    /// The longest pattern, in characters.
    static let maximumSourceLength = 512
    /// How many progress reports a match may take before it is stopped (a few tens of milliseconds of work).
    static let progressBudget = 64

    /// The pattern as written.
    package let source: String
    private let expression: NSRegularExpression

    /// Compiles `source`.
    package init(_ source: String) throws(Refusal) {
        guard !source.isEmpty, source.count <= Self.maximumSourceLength else {
            throw Refusal(reason: "must be 1 to \(Self.maximumSourceLength) characters")
        }
        guard let expression = try? NSRegularExpression(pattern: source) else {
            throw Refusal(reason: "is not a valid regular expression")
        }
        self.source = source
        self.expression = expression
    }

    /// Whether `value` contains a match; `nil` when finding out took more than the budget allows.
    package func matches(_ value: String) -> Bool? {
        var found = false
        var reports = 0
        expression.enumerateMatches(
            in: value, options: [.reportProgress], range: NSRange(value.startIndex..., in: value)
        ) { result, flags, stop in
            if result != nil {
                found = true
                stop.pointee = true
            } else if flags.contains(.progress) {
                reports += 1
                if reports > Self.progressBudget { stop.pointee = true }
            }
        }
        return found || reports <= Self.progressBudget ? found : nil
    }

    package static func == (lhs: FieldPattern, rhs: FieldPattern) -> Bool { lhs.source == rhs.source }
}
