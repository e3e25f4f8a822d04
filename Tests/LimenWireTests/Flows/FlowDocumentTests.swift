import Foundation
import LimenWire
import Testing

@Suite("Flow documents")
struct FlowDocumentTests {
    func parse(_ json: String) throws(FlowDocumentError) -> FlowDocument {
        try FlowDocument(parsing: Data(json.utf8))
    }

    @Test("a continue node with every collector member: validation, options, policy, filled-in values")
    func continueNode() throws {
        let document = try parse(
            """
            {"interaction": "abc", "node": {"type": "continue", "id": "details", "name": "Create", "description": "D",
             "collectors": [
               {"type": "TEXT", "key": "email", "label": "Email", "required": true, "value": "ada@example.com",
                "validation": {"regex": "[^@]+@[^@]+", "message": "An email address"}},
               {"type": "PASSWORD", "key": "password", "label": "Password", "required": true,
                "policy": {"length": {"min": 8, "max": 64}, "min_unique_characters": 3, "max_repeated_characters": 2,
                           "min_characters": {"lowercase": 1, "uppercase": 1, "digits": 1, "special": 0}}},
               {"type": "RADIO", "key": "plan", "label": "Plan", "options": [{"label": "Free", "value": "free"}]},
               {"type": "SUBMIT_BUTTON", "key": "submit", "label": "Go", "future_member": [1, 2]},
               {"type": "LABEL", "key": "secret", "label": "Setup key", "value": "JBSWY3DPEHPK3PXP"}
             ]}}
            """)
        #expect(document.interaction == "abc")
        guard case .continue(let step) = document.node else {
            Issue.record("not a continue node: \(document.node)")
            return
        }
        #expect((step.id, step.name, step.description) == ("details", "Create", "D"))
        #expect(step.collectors.map(\.type) == ["TEXT", "PASSWORD", "RADIO", "SUBMIT_BUTTON", "LABEL"])
        #expect(step.collectors[0].validation?.regex == "[^@]+@[^@]+")
        #expect(step.collectors[0].value == "ada@example.com")
        #expect(step.collectors[0].isRequired)
        #expect(
            step.collectors[1].policy
                == FlowPasswordPolicy(
                    length: 8...64, minimumUniqueCharacters: 3, maximumRepeatedCharacters: 2,
                    minimumCharacters: .init(lowercase: 1, uppercase: 1, digits: 1)))
        #expect(step.collectors[2].options.map(\.value) == ["free"])
        #expect(!step.collectors[3].isRequired)
        #expect(step.collectors[4].value == "JBSWY3DPEHPK3PXP", "a LABEL's value is what the server filled in to show")
    }

    @Test("an error node answered because waiting helps carries retry_after; one that is no whole number is refused")
    func retryAfter() throws {
        let node = #"{"type": "error", "id": "mfa", "name": "N", "message": "Too many attempts.", "collectors": []}"#
        #expect(try parse(#"{"interaction": "i", "retry_after": 300, "node": \#(node)}"#).retryAfter == 300)
        #expect(try parse(#"{"interaction": "i", "node": \#(node)}"#).retryAfter == nil)
        #expect(throws: FlowDocumentError.invalid("document.retry_after is not a whole number")) {
            try parse(#"{"interaction": "i", "retry_after": -1, "node": \#(node)}"#)
        }
    }

    @Test("a PASSKEY collector keeps its mode and WebAuthn options object; a passkey registration's end has no code")
    func passkeys() throws {
        let document = try parse(
            """
            {"interaction": "i", "node": {"type": "continue", "id": "passkey", "collectors": [
               {"type": "PASSKEY", "key": "passkey", "label": "Passkey", "required": true, "mode": "authenticate",
                "options": {"challenge": "Y2hhbGxlbmdl", "rpId": "example.com", "allowCredentials": []}},
               {"type": "DROPDOWN", "key": "plan", "label": "Plan", "options": [{"label": "Free", "value": "free"}]}
             ]}}
            """)
        guard case .continue(let step) = document.node else {
            Issue.record("not a continue node: \(document.node)")
            return
        }
        #expect(step.collectors[0].mode == "authenticate")
        #expect(step.collectors[0].passkeyOptions?.objectValue?["rpId"]?.stringValue == "example.com")
        #expect(step.collectors[0].options.isEmpty)
        #expect(step.collectors[1].passkeyOptions == nil)
        #expect(step.collectors[1].options.map(\.value) == ["free"])
        #expect(try parse(#"{"node": {"type": "success", "registered": true}}"#).node == .registered)
        #expect(throws: FlowDocumentError.self) {
            try parse(#"{"node": {"type": "success", "registered": false}}"#)
        }
    }

    @Test("error, failure and success nodes, and a node type from a newer server")
    func otherNodes() throws {
        let error = try parse(
            """
            {"interaction": "i", "node": {"type": "error", "id": "credentials", "message": "Wrong",
             "details": [{"key": "password", "code": "invalid_credentials", "message": "No"}], "collectors": []}}
            """)
        guard case .error(let step, let message, let details) = error.node else {
            Issue.record("not an error node")
            return
        }
        #expect(step.id == "credentials")
        #expect(message == "Wrong")
        #expect(details == [FlowErrorDetail(key: "password", code: "invalid_credentials", message: "No")])
        #expect(
            try parse(#"{"node": {"type": "failure", "code": "too_many_attempts", "message": "Later"}}"#).node
                == .failure(code: "too_many_attempts", message: "Later"))
        #expect(
            try parse(#"{"node": {"type": "success", "code": "c", "state": "s", "iss": "https://id"}}"#).node
                == .success(code: "c", state: "s", issuer: "https://id", newUser: nil))
        #expect(
            try parse(#"{"node": {"type": "success", "code": "c", "iss": "https://id", "new_user": true}}"#).node
                == .success(code: "c", state: nil, issuer: "https://id", newUser: true))
        #expect(try parse(#"{"node": {"type": "passkey", "challenge": "x"}}"#).node == .unknown(type: "passkey"))
    }

    @Test("an IDP collector carries its provider; a redirect node its absolute URL and provider")
    func identityProvider() throws {
        let step = try parse(
            """
            {"interaction": "i", "node": {"type": "continue", "id": "credentials", "collectors": [
              {"type": "IDP", "key": "idp-glewlwyd", "label": "Continue with Glewlwyd", "required": false,
               "provider": "glewlwyd"},
              {"type": "SUBMIT_BUTTON", "key": "submit", "label": "Sign in"}]}}
            """)
        guard case .continue(let credentials) = step.node else {
            Issue.record("not a continue node: \(step.node)")
            return
        }
        #expect(credentials.collectors.map(\.provider) == ["glewlwyd", nil])
        #expect(
            (credentials.collectors[0].type, credentials.collectors[0].key, credentials.collectors[0].label)
                == ("IDP", "idp-glewlwyd", "Continue with Glewlwyd"))
        var other = credentials.collectors[0]
        other.provider = "apple"
        #expect(other != credentials.collectors[0], "== compares the provider")

        let redirect = try parse(
            #"{"interaction": "i", "node": {"type": "redirect", "url": "https://up.example/authorize?state=s", "#
                + #""provider": "glewlwyd"}}"#)
        #expect(redirect.interaction == "i")
        #expect(
            redirect.node == .redirect(url: URL(string: "https://up.example/authorize?state=s")!, provider: "glewlwyd"))
        #expect(
            try parse(#"{"node": {"type": "redirect", "url": "http://127.0.0.1:8080/authorize"}}"#).node
                == .redirect(url: URL(string: "http://127.0.0.1:8080/authorize")!, provider: nil))
    }

    static let notAWebPage = "node.url is not an absolute http(s) URL"

    @Test(
        "a redirect node without an absolute http(s) URL is refused",
        arguments: [
            (#""provider": "glewlwyd""#, "missing node.url"),
            (#""url": 7"#, "missing node.url"),
            (#""url": "/authorize?state=s""#, notAWebPage),
            (#""url": "authorize""#, notAWebPage),
            (#""url": "javascript:alert(1)""#, notAWebPage),
            (#""url": "com.example.app:/callback""#, notAWebPage),
            (#""url": "file:///etc/passwd""#, notAWebPage),
            (#""url": "https:///authorize""#, notAWebPage),
        ]
    )
    func redirectRefused(member: String, reason: String) {
        #expect(throws: FlowDocumentError.invalid(reason)) {
            try parse(#"{"node": {"type": "redirect", \#(member)}}"#)
        }
    }

    @Test(
        "a malformed answer is an error naming what is wrong, never a crash",
        arguments: [
            ("", "the body is not JSON"),
            ("[]", "missing node"),
            (#"{"node": {"id": "x"}}"#, "missing node.type"),
            (#"{"node": {"type": "continue"}}"#, "missing node.id"),
            (#"{"node": {"type": "continue", "id": "x", "collectors": {}}}"#, "node.collectors is not an array"),
            (#"{"node": {"type": "continue", "id": "x", "collectors": [1]}}"#, "node.collectors[0] is not an object"),
            (
                #"{"node": {"type": "continue", "id": "x", "collectors": [{"type": "TEXT"}]}}"#,
                "missing node.collectors[0].key"
            ),
            (
                #"{"node": {"type": "continue", "id": "x", "collectors": [{"type": "PASSWORD", "key": "p", "policy": {"length": {"min": 9, "max": 2}}}]}}"#,
                "node.collectors[0].policy.length has min above max"
            ),
            (
                #"{"node": {"type": "continue", "id": "x", "collectors": [{"type": "PASSWORD", "key": "p", "policy": {"min_unique_characters": -1}}]}}"#,
                "node.collectors[0].policy.min_unique_characters is not a whole number"
            ),
            (#"{"node": {"type": "failure"}}"#, "missing node.code"),
        ]
    )
    func malformed(body: String, reason: String) {
        #expect(throws: FlowDocumentError.invalid(reason)) { try parse(body) }
    }
}
