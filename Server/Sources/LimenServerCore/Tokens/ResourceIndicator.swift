import Foundation

/// RFC 8707 resource indicators: the APIs an access token may name in its `aud`, listed in the server's `resources`
/// setting.
///
/// A resource is checked, not bound to the grant: any client may ask, at `/authorize` or `/token`, for an access token
/// to any listed API (a token without one names only the issuer, as before). Its `aud` then holds the resource and the
/// issuer, so `/userinfo` and `/introspect` still accept it.
package enum ResourceIndicator {
    /// Whether `uri` can be a resource indicator: an absolute URI without a fragment (RFC 8707 §2).
    package static func isValid(_ uri: String) -> Bool {
        guard let components = URLComponents(string: uri), let scheme = components.scheme, !scheme.isEmpty else {
            return false
        }
        return components.fragment == nil
    }

    /// Why `resource` is refused (`invalid_target`), or `nil` when it is one of `allowed`.
    package static func problem(with resource: String, allowed: [String]) -> String? {
        guard isValid(resource) else { return "resource must be an absolute URI without a fragment (RFC 8707 §2)" }
        guard allowed.contains(resource) else { return "resource \(resource) is not one this server issues tokens for" }
        return nil
    }
}
