import Foundation

/// The link in an email with a one-time code, which completes the same step when opened on the device that asked:
/// `{base}#limen_interaction={interaction}&code={code}`. The interaction and the code travel in the fragment, never in
/// the query, so they reach neither a server's log nor a `Referer`. `base` is the client's registered
/// `email_link_uri` (a universal link or the app's scheme, where the SDK's `handle(url:)` reads it) or, for a client
/// without one, the issuer's `/flows/link` page.
package enum EmailLink {
    /// The issuer's page for a link opened where no app takes it.
    package static let hostedPath = "/flows/link"

    /// The link for `code` of `interaction`, on `client`'s base or the issuer's page.
    package static func make(interaction: String, code: String, clientBase: String?, issuer: String) -> String {
        let base = clientBase ?? issuer + hostedPath
        return base + "#limen_interaction=\(encoded(interaction))&code=\(encoded(code))"
    }

    private static func encoded(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(CharacterSet(charactersIn: "-_.~")))
            ?? ""
    }
}
