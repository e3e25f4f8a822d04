import HTTPTypes
import Hummingbird

extension Request {
    /// Whether the caller reads HTML: a browser, whose navigations name `text/html` in `Accept`. A refusal that is a
    /// hosted page for it is JSON for apps and scripts.
    var acceptsHTML: Bool {
        headers[.accept]?.contains("text/html") == true
    }
}
