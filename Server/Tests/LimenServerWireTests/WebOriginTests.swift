import Foundation
import LimenServerWire
import Testing

@Suite("Web origins: scheme://host[:port] as browsers write them (RFC 6454 §6.2, RFC 3986 §6.2.2–6.2.3)")
struct WebOriginTests {
    @Test(
        "an origin is the scheme and host in lower case, an IPv6 address bracketed, with no default port",
        arguments: [
            ("HTTPS://Example.COM:443/a?b#c", "https://example.com"),
            ("http://localhost:80", "http://localhost"),
            ("http://localhost:8080/", "http://localhost:8080"),
            ("https://example.com:", "https://example.com"),
            ("http://example.com:443", "http://example.com:443"),
            ("https://%45xample.com", "https://example.com"),
            ("https://[::1]:443", "https://[::1]"),
            ("http://[2001:DB8::1]:8443", "http://[2001:db8::1]:8443"),
        ])
    func origin(uri: String, origin: String) throws {
        let components = try #require(URLComponents(string: uri))
        #expect(WebOrigin(components)?.description == origin)
    }

    @Test(
        "a URI that is not http or https, has no host, or carries user information has no web origin",
        arguments: ["ftp://example.com", "android:apk-key-hash:abc", "https://user@example.com", "https:///a", "/a"])
    func noOrigin(uri: String) throws {
        let components = try #require(URLComponents(string: uri))
        #expect(WebOrigin(components) == nil)
    }
}
