import Foundation
import Testing

@testable import LimenOIDC

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Network failures say what failed and where")
struct NetworkFailureDescriptionTests {
    private static let issuer = URL(string: "https://id.example.com:8443/token?code=secret-code")

    @Test(
        "each failure below HTTP names the origin (never the path or query) and the cause",
        arguments: [
            (
                URLError.Code.cannotConnectToHost,
                NetworkError.offline(
                    "could not connect to https://id.example.com:8443 (connection refused)")
            ),
            (.cannotFindHost, .offline("could not resolve id.example.com (DNS lookup failed)")),
            (.dnsLookupFailed, .offline("could not resolve id.example.com (DNS lookup failed)")),
            (
                .serverCertificateUntrusted,
                .tls("TLS with https://id.example.com:8443 failed (certificate not trusted)")
            ),
            (.serverCertificateHasBadDate, .tls("TLS with https://id.example.com:8443 failed (certificate expired)")),
            (.networkConnectionLost, .connectionLost("the connection to https://id.example.com:8443 was lost")),
            (.timedOut, .timeout),
        ]
    )
    func describesFailure(code: URLError.Code, expected: NetworkError) {
        let error = URLSessionTransport.classify(URLError(code), url: Self.issuer)

        #expect(error == expected)
        #expect(error.errorDescription?.contains("secret-code") == false)
    }

    @Test("a refused connection reads as a person would say it")
    func refusedConnectionMessage() {
        let error = URLSessionTransport.classify(
            URLError(.cannotConnectToHost), url: URL(string: "http://127.0.0.1:9/.well-known/openid-configuration"))

        #expect(error.errorDescription == "could not connect to http://127.0.0.1:9 (connection refused)")
        #expect(error.code == "network.offline")
    }
}
