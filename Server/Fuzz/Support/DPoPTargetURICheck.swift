import LimenServerWire
import LimenWire

/// The `DPoPTargetURI` harness's check, also replayed over its seed corpus by `CorpusTests`: the input read as a DPoP
/// proof's `htu` or a request's URI (``DPoPTargetURI``), normalised as RFC 9449 §4.3 compares them.
///
/// - A normalised form is `http://` or `https://`, a host, and a path without `.` or `..` segments, query or fragment.
/// - Its percent-encodings are already normal (upper-case digits, no unreserved character escaped).
/// - Read again, it gives itself.
package enum DPoPTargetURICheck {
    /// Checks one input; throws what it finds.
    package static func check(_ input: some Sequence<UInt8>) throws(FuzzFinding) {
        let text = String(decoding: Array(input), as: UTF8.self)
        guard let target = DPoPTargetURI(text) else { return }
        let form = target.description
        let finding = { (what: String) in FuzzFinding(description: "\(text.debugDescription) → \(form): \(what)") }
        guard let scheme = ["http://", "https://"].first(where: form.hasPrefix) else {
            throw finding("not http or https")
        }
        let afterScheme = form.dropFirst(scheme.count)
        guard let pathStart = afterScheme.firstIndex(of: "/"), pathStart > afterScheme.startIndex else {
            throw finding("no host, or no path")
        }
        let segments = afterScheme[pathStart...].split(separator: "/", omittingEmptySubsequences: false)
        guard !segments.contains(where: { $0 == "." || $0 == ".." }) else { throw finding("a dot segment is left") }
        guard !form.contains("?"), !form.contains("#") else { throw finding("a query or fragment is left") }
        guard PercentEncoding.normalized(form) == form else { throw finding("its percent-encodings are not normal") }
        guard DPoPTargetURI(form) == target else { throw finding("it does not read as itself") }
    }
}
