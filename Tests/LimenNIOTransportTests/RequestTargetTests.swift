import Foundation
import LimenWire
import Testing

@testable import LimenNIOTransport

@Suite("Where the NIO transport connects")
struct RequestTargetTests {
    @Test("scheme, host, port, request target, Host header and origin of a URL")
    func reads() throws {
        let secure = try RequestTarget(#require(URL(string: "https://id.example.com/token?a=b%20c")))
        #expect(secure.isSecure && secure.host == "id.example.com" && secure.port == 443)
        #expect(secure.pathAndQuery == "/token?a=b%20c")
        #expect(secure.hostHeader == "id.example.com" && secure.origin == "https://id.example.com")
        #expect(!secure.isIPAddress)

        let plain = try RequestTarget(#require(URL(string: "http://127.0.0.1:8080")))
        #expect(!plain.isSecure && plain.port == 8080 && plain.pathAndQuery == "/")
        #expect(plain.hostHeader == "127.0.0.1:8080" && plain.isIPAddress)

        let v6 = try RequestTarget(#require(URL(string: "https://[::1]:8443/x")))
        #expect(v6.host == "::1" && v6.isIPAddress && v6.hostHeader == "[::1]:8443")
    }

    @Test("a URL that is not http or https, or has no host, is refused before connecting")
    func refuses() throws {
        for text in ["ftp://id.example.com/x", "file:///etc/passwd", "/relative"] {
            let url = try #require(URL(string: text))
            #expect(throws: NetworkError.self) { try RequestTarget(url) }
        }
    }
}
