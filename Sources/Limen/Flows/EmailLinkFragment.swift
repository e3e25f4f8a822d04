import Foundation

/// What the link in an email with a one-time code carries in its fragment (never in its query):
/// `…#limen_interaction=ID&code=CODE`.
struct EmailLinkFragment: Equatable {
    /// The interaction the code belongs to.
    var interaction: String
    /// The code.
    var code: String

    /// Reads `url`'s fragment; `nil` when it is not an email link's.
    init?(_ url: URL) {
        guard let fragment = URLComponents(url: url, resolvingAgainstBaseURL: false)?.percentEncodedFragment else {
            return nil
        }
        var values: [String: String] = [:]
        for pair in fragment.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? "" }
            if parts.count == 2 { values[parts[0]] = parts[1] }
        }
        guard let interaction = values["limen_interaction"], !interaction.isEmpty, let code = values["code"],
            !code.isEmpty
        else { return nil }
        (self.interaction, self.code) = (interaction, code)
    }
}
