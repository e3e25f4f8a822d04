import Foundation

/// A collector's regular expression, applied as the server applies it: the whole value must match.
enum FlowPattern {
    /// Whether the whole of `text` matches `pattern`; an expression that does not compile matches nothing.
    static func matches(_ text: String, pattern: String) -> Bool {
        guard let expression = try? NSRegularExpression(pattern: pattern) else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [.anchored], range: range)?.range == range
    }
}
