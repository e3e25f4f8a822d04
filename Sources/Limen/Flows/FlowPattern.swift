import Foundation

/// A collector's regular expression, compiled once when its node arrives and applied as the server applies it: the
/// whole value must match.
struct FlowPattern: Sendable {
    /// The expression as the server sent it.
    let source: String
    /// The message shown when a value does not match.
    let message: String
    /// The compiled expression; `nil` when it does not compile, and then nothing matches.
    private let expression: NSRegularExpression?

    init?(_ validation: (regex: String, message: String)?) {
        guard let validation else { return nil }
        (source, message) = validation
        expression = try? NSRegularExpression(pattern: validation.regex)
    }

    /// Whether the whole of `text` matches.
    func matches(_ text: String) -> Bool {
        guard let expression else { return false }
        let range = NSRange(text.startIndex..., in: text)
        return expression.firstMatch(in: text, options: [.anchored], range: range)?.range == range
    }
}
