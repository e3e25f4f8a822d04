import Foundation
import Hummingbird
import HummingbirdTesting
import LimenServerStorage
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

private let challenge = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM"  // RFC 7636 Appendix B

/// Builds a query string from pairs, percent-encoding values.
private func query(_ pairs: [(String, String)]) -> String {
    var allowed = CharacterSet.alphanumerics
    allowed.insert(charactersIn: "-._~")
    return pairs.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }
        .joined(separator: "&")
}

private let valid: [(String, String)] = [
    ("response_type", "code"), ("client_id", "limen-cli"), ("redirect_uri", "http://127.0.0.1:53124/callback"),
    ("scope", "openid"), ("state", "s-1"), ("code_challenge", challenge), ("code_challenge_method", "S256"),
]

private func replacing(_ name: String, with value: String?) -> [(String, String)] {
    var pairs = valid.filter { $0.0 != name }
    if let value { pairs.append((name, value)) }
    return pairs
}

private func withAuthorize(_ body: @Sendable (any TestClientProtocol) async throws -> Void) async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let provider = try await ServerComposition.bootstrap(configuration: .testing(directory: directory))
    try await provider.store.insertClientIfAbsent(
        ClientRecord(
            id: "web", name: "Web", kind: .confidential, secretHash: Data(repeating: 7, count: 32),
            redirectURIs: ["https://app.example/cb"], createdAt: Date()
        )
    )
    try await provider.store.insertClientIfAbsent(
        ClientRecord(
            id: "legacy", name: "Legacy", kind: .confidential, secretHash: Data(repeating: 8, count: 32),
            redirectURIs: ["https://legacy.example/cb"], allowsNoPKCE: true, createdAt: Date()
        )
    )
    let app = Application(router: LimenServerApplication.router(composition: provider))
    do {
        try await app.test(.router) { client in try await body(client) }
    } catch {
        await provider.store.close()
        throw error
    }
    await provider.store.close()
}

@Suite("GET /authorize validation")
struct AuthorizeTests {
    @Test(
        "no redirect for an unknown client or an unregistered redirect URI (RFC 6749 §4.1.2.1): an error page",
        arguments: [
            ("unknown client", replacing("client_id", with: "nobody")),
            ("missing client", replacing("client_id", with: nil)),
            ("missing redirect", replacing("redirect_uri", with: nil)),
            ("other host", replacing("redirect_uri", with: "https://evil.example/callback")),
            ("other path", replacing("redirect_uri", with: "http://127.0.0.1:53124/other")),
            ("localhost is not loopback", replacing("redirect_uri", with: "http://localhost:53124/callback")),
            ("https loopback", replacing("redirect_uri", with: "https://127.0.0.1:53124/callback")),
            ("fragment", replacing("redirect_uri", with: "http://127.0.0.1:53124/callback#x")),
            ("user info", replacing("redirect_uri", with: "http://a@127.0.0.1:53124/callback")),
            ("repeated client", valid + [("client_id", "limen-cli")]),
        ] as [(String, [(String, String)])]
    )
    func errorPageWithoutRedirect(_ label: String, _ pairs: [(String, String)]) async throws {
        try await withAuthorize { client in
            try await client.execute(uri: "/authorize?" + query(pairs), method: .get) { response in
                #expect(response.status == .badRequest, "\(label)")
                #expect(response.headers[.location] == nil, "\(label)")
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            }
            try await client.execute(
                uri: "/authorize?" + query(pairs),
                method: .get,
                headers: [.accept: "application/json"]
            ) { response in
                #expect(response.status == .badRequest)
                let body = try JSONDecoder().decode([String: String].self, from: Data(response.body.readableBytesView))
                #expect(body["error"] != nil)
            }
        }
    }

    @Test(
        "errors go to the registered redirect with state and iss (RFC 9207)",
        arguments: [
            ("unsupported_response_type", replacing("response_type", with: "token")),
            ("invalid_request", replacing("response_type", with: nil)),
            ("invalid_request", replacing("code_challenge", with: nil)),  // method without challenge
            ("invalid_request", valid.filter { !$0.0.hasPrefix("code_challenge") }),  // public client without PKCE
            ("invalid_request", replacing("code_challenge_method", with: "plain")),
            ("invalid_request", replacing("code_challenge_method", with: nil)),  // defaults to plain
            ("invalid_request", replacing("code_challenge", with: "short")),
            ("invalid_request", valid + [("scope", "email")]),
            ("invalid_request", replacing("response_mode", with: "fragment")),
        ] as [(String, [(String, String)])]
    )
    func errorToRedirect(_ error: String, _ pairs: [(String, String)]) async throws {
        try await withAuthorize { client in
            try await client.execute(uri: "/authorize?" + query(pairs), method: .get) { response in
                #expect(response.status == .found)
                let location = try #require(response.headers[.location])
                let components = try #require(URLComponents(string: location))
                #expect(components.scheme == "http")
                #expect(components.host == "127.0.0.1")
                #expect(components.port == 53124)
                #expect(components.path == "/callback")
                let items = Dictionary(
                    (components.queryItems ?? []).map { ($0.name, $0.value ?? "") },
                    uniquingKeysWith: { first, _ in first }
                )
                #expect(items["error"] == error)
                #expect(items["state"] == "s-1")
                #expect(items["iss"] == "http://127.0.0.1:8080")
                #expect(items["error_description"]?.isEmpty == false)
            }
        }
    }

    @Test(
        "a valid request passes validation: loopback on any port for a native client, exact match otherwise",
        arguments: [
            valid,
            replacing("redirect_uri", with: "http://127.0.0.1:1/callback"),
            replacing("redirect_uri", with: "http://[::1]:61000/callback"),
            [
                ("response_type", "code"), ("client_id", "web"), ("redirect_uri", "https://app.example/cb"),
                ("scope", "openid"), ("code_challenge", challenge), ("code_challenge_method", "S256"),
            ],
            [
                ("response_type", "code"), ("client_id", "legacy"), ("redirect_uri", "https://legacy.example/cb"),
                ("scope", "openid"),
            ],
        ]
    )
    func validRequestAccepted(_ pairs: [(String, String)]) async throws {
        try await withAuthorize { client in
            try await client.execute(uri: "/authorize?" + query(pairs), method: .get) { response in
                // Validation passed: the sign-in page, neither a refusal nor a redirect.
                #expect(response.status == .ok)
                #expect(response.headers[.location] == nil)
                #expect(response.headers[.contentType]?.hasPrefix("text/html") == true)
            }
        }
    }

    @Test(
        "an 80 KB state, nonce, login_hint or ui_locales is refused with a clear error, and a long state is not echoed",
        arguments: ["state", "nonce", "login_hint", "ui_locales"])
    func oversizedFields(_ name: String) async throws {
        try await withAuthorize { client in
            let pairs = replacing(name, with: String(repeating: "a", count: 80_000))
            try await client.execute(uri: "/authorize?" + query(pairs), method: .get) { response in
                #expect(response.status == .found)
                let location = try #require(response.headers[.location])
                #expect(location.utf8.count < 1000)
                let items = try #require(URLComponents(string: location)?.queryItems)
                #expect(items.first { $0.name == "error" }?.value == "invalid_request")
                #expect(
                    items.first { $0.name == "error_description" }?.value?.hasPrefix("\(name) is longer than") == true)
                #expect(items.first { $0.name == "state" }?.value == (name == "state" ? nil : "s-1"))
            }
        }
    }

    @Test("a confidential client must send PKCE too (OAuth 2.1) unless it is registered as a legacy exception")
    func confidentialClientNeedsPKCE() async throws {
        try await withAuthorize { client in
            let pairs = [
                ("response_type", "code"), ("client_id", "web"), ("redirect_uri", "https://app.example/cb"),
                ("scope", "openid"), ("state", "s-1"),
            ]
            try await client.execute(uri: "/authorize?" + query(pairs), method: .get) { response in
                #expect(response.status == .found)
                let location = try #require(response.headers[.location])
                #expect(location.hasPrefix("https://app.example/cb?error=invalid_request"))
                #expect(location.contains("PKCE"))
            }
        }
    }

    @Test("the loopback port exception applies only to native clients and only to IP literals")
    func loopbackMatching() {
        let registered = ["http://127.0.0.1/callback"]
        #expect(AuthorizationValidator.redirectURI("http://127.0.0.1:9/callback", matches: registered, isNative: true))
        #expect(
            !AuthorizationValidator.redirectURI("http://127.0.0.1:9/callback", matches: registered, isNative: false))
        #expect(
            !AuthorizationValidator.redirectURI("http://127.0.0.1:9/callback?x=1", matches: registered, isNative: true))
        #expect(!AuthorizationValidator.redirectURI("http://127.0.0.2:9/callback", matches: registered, isNative: true))
        for port in ["0", "65536", "70000"] {
            #expect(
                !AuthorizationValidator.redirectURI(
                    "http://127.0.0.1:\(port)/callback", matches: registered, isNative: true),
                "port \(port)")
        }
        #expect(
            AuthorizationValidator.redirectURI("http://127.0.0.1:65535/callback", matches: registered, isNative: true))
        #expect(
            AuthorizationValidator.redirectURI(
                "https://app.example/cb", matches: ["https://app.example/cb"], isNative: false)
        )
        #expect(
            !AuthorizationValidator.redirectURI(
                "https://app.example/cb/", matches: ["https://app.example/cb"], isNative: false)
        )
    }

    @Test("POST /authorize takes the same parameters as a form body (OpenID Connect Core §3.1.2.1)")
    func postForm() async throws {
        try await withAuthorize { client in
            let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            try await client.execute(
                uri: "/authorize", method: .post, headers: form, body: ByteBuffer(string: query(valid))
            ) { response in
                #expect(response.status == .ok)
            }
            try await client.execute(
                uri: "/authorize", method: .post, headers: form,
                body: ByteBuffer(string: query(replacing("response_type", with: "token")))
            ) { response in
                #expect(response.status == .found)
                #expect(response.headers[.location]?.contains("error=unsupported_response_type") == true)
            }
            try await client.execute(
                uri: "/authorize", method: .post, headers: [.contentType: "application/json"],
                body: ByteBuffer(string: "{}")
            ) { response in
                #expect(response.status == .unsupportedMediaType)
                #expect(response.headers[.location] == nil)
            }
        }
    }
}
