import Foundation

/// The authorization request in a universal link the host app received: the requesting app's query to the provider's
/// authorization endpoint, checked before any of it is sent.
struct AppToAppAuthorization: Sendable, Equatable {
    /// The query as it came, percent-encoded (the `request` the provider reads).
    let query: String
    /// The requesting app's redirect URI, where the provider's answer must send the person.
    let redirectURI: URL

    /// The request in `url`, which must go to `authorizationEndpoint` (same scheme, host, port and path) and name
    /// `client_id` and `redirect_uri`.
    /// - Throws: ``AppToAppError/notAnAuthorizationRequest(_:)`` otherwise.
    init(url: URL, authorizationEndpoint: URL) throws(AppToAppError) {
        guard CallbackMatcher(redirectURI: authorizationEndpoint).matches(url),
            let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        else { throw .notAnAuthorizationRequest("it does not go to \(authorizationEndpoint.absoluteString)") }
        guard let query = components.percentEncodedQuery, !query.isEmpty else {
            throw .notAnAuthorizationRequest("it has no query")
        }
        let items = components.queryItems ?? []
        func value(_ name: String) -> String? {
            items.first { $0.name == name }?.value.flatMap { $0.isEmpty ? nil : $0 }
        }
        guard value("client_id") != nil else { throw .notAnAuthorizationRequest("it names no client_id") }
        guard let redirect = value("redirect_uri").flatMap({ URL(string: $0) }), redirect.scheme != nil else {
            throw .notAnAuthorizationRequest("it names no redirect_uri")
        }
        self.query = query
        self.redirectURI = redirect
    }
}
