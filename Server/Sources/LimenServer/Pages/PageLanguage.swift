import LimenServerCore

/// The `lang` of a page. The pages are written in English only, so an English tag from `ui_locales` (such as
/// `en-GB`) is honoured and anything else falls back to `en`.
enum PageLanguage {
    /// The first `en` or `en-…` tag of `uiLocales` (space-separated BCP 47 tags, preferred first), else `en`.
    static func tag(uiLocales: String?) -> String {
        let english = (uiLocales ?? "").split(separator: " ").first { tag in
            let lowered = tag.lowercased()
            return (lowered == "en" || lowered.hasPrefix("en-")) && tag.count <= 35
                && tag.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
        return english.map(String.init) ?? "en"
    }
}
