import Foundation
import Limen
import Testing

@Suite("Configuration from a file")
struct ConfigurationFileTests {
    @Test("every key of a JSON file is read")
    func json() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(component: "limen.json")
            try Data(
                """
                {"issuer": "https://id.example.com", "clientID": "cli", "redirectURI": "http://127.0.0.1/callback",
                 "scopes": ["profile", "email"], "clientSecret": "s3cret", "secretMethod": "client_secret_post",
                 "postLogoutRedirectURI": "https://app.example.com/bye", "leeway": 30, "namespace": "work"}
                """.utf8
            ).write(to: file)
            let configuration = try Configuration(contentsOf: file)
            #expect(configuration.issuer == URL(string: "https://id.example.com"))
            #expect(configuration.clientID == "cli")
            #expect(configuration.redirectURI == URL(string: "http://127.0.0.1/callback"))
            #expect(configuration.scopes == ["profile", "email"])
            #expect(configuration.clientSecret == "s3cret")
            #expect(configuration.secretMethod == .post)
            #expect(configuration.postLogoutRedirectURI == URL(string: "https://app.example.com/bye"))
            #expect(configuration.leeway == 30)
            #expect(configuration.namespace == "work")
        }
    }

    @Test("every key of a property list is read; scopes may be a space-separated string")
    func plist() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(component: "Limen.plist")
            let values: [String: Any] = [
                "issuer": "https://id.example.com", "clientID": "ios", "redirectURI": "com.example.app:/callback",
                "scopes": "profile offline_access", "clientSecret": "s3cret", "secretMethod": "client_secret_basic",
                "postLogoutRedirectURI": "com.example.app:/bye", "leeway": 12.5, "namespace": "phone",
            ]
            try PropertyListSerialization.data(fromPropertyList: values, format: .xml, options: 0).write(to: file)
            let configuration = try Configuration(contentsOf: file)
            #expect(configuration.issuer == URL(string: "https://id.example.com"))
            #expect(configuration.clientID == "ios")
            #expect(configuration.redirectURI == URL(string: "com.example.app:/callback"))
            #expect(configuration.scopes == ["profile", "offline_access"])
            #expect(configuration.clientSecret == "s3cret")
            #expect(configuration.secretMethod == .basic)
            #expect(configuration.postLogoutRedirectURI == URL(string: "com.example.app:/bye"))
            #expect(configuration.leeway == 12.5)
            #expect(configuration.namespace == "phone")
        }
    }

    @Test("a file without issuer is refused with missingKey(\"issuer\")")
    func missingIssuer() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(component: "limen.json")
            try Data(#"{"clientID": "cli"}"#.utf8).write(to: file)
            #expect(throws: ConfigurationError.missingKey("issuer")) { try Configuration(contentsOf: file) }
        }
    }

    @Test("a leeway that is not a number is refused naming the key")
    func invalidLeeway() async throws {
        try await withTemporaryDirectory { directory in
            let file = directory.appending(component: "limen.json")
            try Data(#"{"issuer": "https://id.example.com", "clientID": "cli", "leeway": "abc"}"#.utf8).write(to: file)
            let error = #expect(throws: ConfigurationError.self) { try Configuration(contentsOf: file) }
            guard case .invalidValue(let key, _)? = error else {
                Issue.record("expected invalidValue, got \(String(describing: error))")
                return
            }
            #expect(key == "leeway")
        }
    }

    @Test("a missing or malformed file is refused with unreadableFile")
    func unreadable() async throws {
        try await withTemporaryDirectory { directory in
            let missing = directory.appending(component: "absent.json")
            #expect(throws: ConfigurationError.unreadableFile(missing.path)) { try Configuration(contentsOf: missing) }
            let garbage = directory.appending(component: "garbage.json")
            try Data("not json".utf8).write(to: garbage)
            #expect(throws: ConfigurationError.unreadableFile(garbage.path)) { try Configuration(contentsOf: garbage) }
        }
    }
}
