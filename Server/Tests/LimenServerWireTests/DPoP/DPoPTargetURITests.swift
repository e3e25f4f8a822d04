import LimenServerWire
import Testing

@Suite("DPoP target URIs: compared after RFC 3986 normalisation, ignoring query and fragment (RFC 9449 §4.3)")
struct DPoPTargetURITests {
    @Test(
        "equivalent URIs normalise to the same form",
        arguments: [
            ("HTTPS://Example.COM:443/token?x=1#f", "https://example.com/token"),
            ("https://example.com:443/token", "https://example.com/token"),
            ("http://example.com:80/token", "http://example.com/token"),
            ("https://example.com:/token", "https://example.com/token"),
            ("https://example.com", "https://example.com/"),
            ("https://example.com?x=1", "https://example.com/"),
            ("https://example.com/a/./b/../c", "https://example.com/a/c"),
            ("https://example.com/a/b/..", "https://example.com/a/"),
            ("https://example.com/../a", "https://example.com/a"),
            ("https://example.com/%7euser/%41%2f", "https://example.com/~user/A%2F"),
            ("https://example.com/%c3%a9", "https://example.com/%C3%A9"),
            ("https://%45xample.com/", "https://example.com/"),
            ("https://example.com:8443/token", "https://example.com:8443/token"),
            ("https://[::1]:443/token", "https://[::1]/token"),
        ])
    func equivalent(uri: String, normalised: String) {
        #expect(DPoPTargetURI(uri)?.description == normalised)
        #expect(DPoPTargetURI(uri) == DPoPTargetURI(normalised))
    }

    @Test(
        "different URIs stay different",
        arguments: [
            ("https://example.com/token", "http://example.com/token"),
            ("https://example.com/token", "https://example.com:8443/token"),
            ("http://example.com:443/token", "http://example.com/token"),
            ("https://example.com/token", "https://example.com/TOKEN"),
            ("https://example.com/token", "https://example.com/token/"),
            ("https://example.com/a%2Fb", "https://example.com/a/b"),
            ("https://example.com/token", "https://example.org/token"),
        ])
    func different(first: String, second: String) {
        #expect(DPoPTargetURI(first) != nil)
        #expect(DPoPTargetURI(first) != DPoPTargetURI(second))
    }

    @Test(
        "a URI that is not absolute http or https with a host and without user information has no target form",
        arguments: [
            "/token", "token", "ftp://example.com/token", "https:///token", "https://user@example.com/token",
            "https://user:pass@example.com/token", "https://example.com/%zz", "https://example.com/%4",
            "https://example.com/a b",
            "https://exa mple.com/", "https://example.com/é", "",
            "mailto:a@example.com",
        ])
    func refused(uri: String) {
        #expect(DPoPTargetURI(uri) == nil)
    }
}
