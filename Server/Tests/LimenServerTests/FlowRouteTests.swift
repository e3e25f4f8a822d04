import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Native flows over /flows: start, continue, success, and every refusal")
struct FlowRouteTests {
    @Test(
        "sign-in: start gives the credentials node; the right password gives a code that /token redeems",
        arguments: TokenBackend.allCases)
    func signIn(_ backend: TokenBackend) async throws {
        try await FlowFixture.run(on: backend) { fixture in
            let started = try await fixture.startFlow("sign-in")
            #expect(started.status == .ok)
            #expect(started.headers[.cacheControl] == "no-store")
            let id = try #require(started["interaction"])
            #expect(id.count >= 43)
            #expect(started.nodeType == "continue")
            #expect(started.node["id"]?.stringValue == "credentials")
            #expect(
                started.collectorKeys == [
                    "email", "password", "submit", "forgot-password", "create-account", "email-code",
                    "phone-code", "passkey", "passkey-autofill", "submit-passkey",
                ])
            let success = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
            #expect(success.status == .ok)
            #expect(success.nodeType == "success")
            #expect(success.node["state"]?.stringValue == "s-1")
            #expect(success.node["iss"]?.stringValue == fixture.provider.issuer.current)
            #expect(success.node["new_user"] == .bool(false))
            let code = try #require(success.node["code"]?.stringValue)
            let tokens = try await fixture.redeem(code, clientID: "app")
            #expect(tokens.status == .ok)
            let idToken = try await fixture.idTokenValidator(clientID: "app").validate(
                try #require(tokens["id_token"]), nonce: "n-1")
            let user = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(idToken.subject == user.id)
            #expect(tokens["refresh_token"] != nil)
        }
    }

    @Test("a success code is refused without the verifier, with a wrong one, and the second time")
    func successCodeKeepsTokenRules() async throws {
        try await FlowFixture.run { fixture in
            let code = try #require(try await fixture.signInThroughFlow().node["code"]?.stringValue)
            #expect(try await fixture.redeem(code, verifier: nil, clientID: "app").error == "invalid_grant")
            let second = try #require(try await fixture.signInThroughFlow().node["code"]?.stringValue)
            #expect(
                try await fixture.redeem(second, verifier: String(repeating: "a", count: 43), clientID: "app").error
                    == "invalid_grant")
            let third = try #require(try await fixture.signInThroughFlow().node["code"]?.stringValue)
            #expect(try await fixture.redeem(third, clientID: "app").status == .ok)
            #expect(try await fixture.redeem(third, clientID: "app").error == "invalid_grant")
        }
    }

    @Test("a wrong password and an unknown email answer the same error node on the same interaction")
    func wrongPassword() async throws {
        try await FlowFixture.run { fixture in
            let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
            let wrong = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string(FlowFixture.email), "password": .string("not the password")])
            let unknown = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string("nobody@example.com"), "password": .string("not the password")])
            for answer in [wrong, unknown] {
                #expect(answer.status == .ok)
                #expect(answer["interaction"] == id)
                #expect(answer.nodeType == "error")
                #expect(answer.node["id"]?.stringValue == "credentials")
                #expect(answer.collectorKeys.contains("password"))
            }
            #expect(wrong.node["message"] == unknown.node["message"])
            #expect(wrong.node["details"] == unknown.node["details"])
            // The interaction goes on: the right password still signs in.
            let success = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
            #expect(success.nodeType == "success")
        }
    }

    @Test("the lockout is the one the hosted pages use: failures in a flow lock the sign-in page's check too")
    func sharedLockout() async throws {
        try await FlowFixture.run { fixture in
            let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
            var last: RecordedResponse?
            for _ in 0..<SignInLockout().threshold {
                last = try await fixture.continueFlow(
                    id, node: "credentials", action: "submit",
                    values: ["email": .string(FlowFixture.email), "password": .string("wrong password!")])
            }
            let locked = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string(FlowFixture.email), "password": .string(FlowFixture.password)])
            #expect(last?.nodeType == "error")
            #expect(locked.status == .tooManyRequests)
            #expect(locked.nodeType == "error")
            #expect(locked.headers[.retryAfter] != nil)
            // The page's sign-in (PasswordSignIn, keyed on email + client address) sees the same lock.
            await #expect(throws: AccountError.self) {
                try await fixture.provider.passwordSignIn.signIn(
                    email: FlowFixture.email, password: FlowFixture.password, from: RequestOrigin(ip: "unknown"))
            }
        }
    }

    @Test("values are checked against the node: required, unknown fields and wrong kinds are per-field details")
    func fieldValidation() async throws {
        try await FlowFixture.run { fixture in
            let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
            let missing = try await fixture.continueFlow(
                id, node: "credentials", action: "submit",
                values: ["email": .string(""), "password": .bool(true), "extra": .string("x")])
            #expect(missing.nodeType == "error")
            #expect(
                missing.detailCodes == [
                    "email": ["required"], "password": ["invalid_type"], "extra": ["unknown_field"],
                ])
        }
    }

    @Test("sign-up: the email first, then the code step advertises the password policy and enforces it rule by rule")
    func signUp() async throws {
        try await FlowFixture.run { fixture in
            let start = try await fixture.startFlow("sign-in")
            let id = try #require(start["interaction"])
            let switched = try await fixture.continueFlow(id, node: "credentials", action: "create-account")
            #expect(switched.node["id"]?.stringValue == "details")
            #expect(switched.collectorKeys == ["email", "submit", "sign-in"])
            let sent = try await fixture.continueFlow(
                id, node: "details", action: "submit", values: ["email": .string("new@example.com")])
            #expect(sent.node["id"]?.stringValue == "code")
            let password = sent.collectors.first { $0["type"]?.stringValue == "PASSWORD" }
            let policy = try #require(password?["policy"]?.objectValue)
            #expect(policy["length"]?.objectValue?["min"]?.numberValue == Double(Accounts.minimumPasswordLength))
            let short = try await fixture.continueFlow(
                id, node: "code", action: "submit",
                values: [
                    "code": .string("123456"), "password": .string("short"), "password-verify": .string("other"),
                ])
            #expect(short.detailCodes["password"] == ["invalid_length"])
            #expect(short.detailCodes["password-verify"] == ["password_mismatch"])
            #expect(try await fixture.provider.store.user(email: "new@example.com") == nil)
        }
    }

    @Test("with sign-up turned off, the sign-up flow is a 403 failure and creates nobody")
    func signUpDisabled() async throws {
        let signUpOff: (inout ServerConfiguration) -> Void = { $0.signUpEnabled = false }
        try await FlowFixture.run(configure: signUpOff) { fixture in
            let answer = try await fixture.startFlow("sign-up")
            #expect(answer.status == .forbidden)
            #expect(answer.nodeType == "failure")
            #expect(answer.node["code"]?.stringValue == "sign_up_disabled")
            let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
            let link = try await fixture.continueFlow(id, node: "credentials", action: "create-account")
            #expect(link.status == .forbidden)
        }
    }

    @Test("an expired interaction, another client's, an unknown one and one already completed are failures")
    func interactionRefusals() async throws {
        try await FlowFixture.run { fixture in
            let values: [String: JSONValue] = [
                "email": .string(FlowFixture.email), "password": .string(FlowFixture.password),
            ]
            let unknown = try await fixture.continueFlow("nope", node: "credentials", action: "submit", values: values)
            #expect(unknown.status == .notFound)
            #expect(unknown.node["code"]?.stringValue == "unknown_interaction")

            let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
            let other = try await fixture.continueFlow(
                id, node: "credentials", action: "submit", values: values, extra: ["client_id": .string("native")])
            #expect(other.status == .forbidden)
            #expect(other.node["code"]?.stringValue == "wrong_client")
            #expect(
                try await fixture.continueFlow(id, node: "credentials", action: "submit", values: values).nodeType
                    == "success")
            let again = try await fixture.continueFlow(id, node: "credentials", action: "submit", values: values)
            #expect(again.status == .conflict)
            #expect(again.node["code"]?.stringValue == "interaction_finished")

            let late = try #require(try await fixture.startFlow("sign-in")["interaction"])
            fixture.clock.advance(by: FlowEngine.interactionLifetime + 1)
            let expired = try await fixture.continueFlow(late, node: "credentials", action: "submit", values: values)
            #expect(expired.status == .gone)
            #expect(expired.node["code"]?.stringValue == "interaction_expired")
        }
    }

    @Test("after too many refused submissions the interaction fails")
    func tooManyAttempts() async throws {
        try await FlowFixture.run { fixture in
            let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
            var answers: [RecordedResponse] = []
            for _ in 0..<FlowEngine.maximumAttempts {
                answers.append(try await fixture.continueFlow(id, node: "credentials", action: "submit"))
            }
            #expect(answers.dropLast().allSatisfy { $0.nodeType == "error" })
            #expect(answers.last?.node["code"]?.stringValue == "too_many_attempts")
            #expect(try await fixture.continueFlow(id, node: "credentials", action: "submit").status == .conflict)
        }
    }

    @Test("starts are checked like /authorize: unknown flow, client, redirect, missing PKCE, unknown parameter")
    func startRefusals() async throws {
        try await FlowFixture.run { fixture in
            #expect(try await fixture.startFlow("nope").status == .notFound)
            let base: [(String, String)] = [
                ("client_id", "app"), ("redirect_uri", TokenFixture.nativeRedirect), ("scope", "openid"),
                ("code_challenge", PKCE.fixture.challenge), ("code_challenge_method", "S256"),
            ]
            func with(_ name: String, _ value: String?) -> [(String, String)] {
                base.filter { $0.0 != name } + (value.map { [(name, $0)] } ?? [])
            }
            let unknownClient = try await fixture.startFlow("sign-in", with("client_id", "ghost"))
            #expect(unknownClient.node["code"]?.stringValue == "invalid_client")
            #expect(
                try await fixture.startFlow("sign-in", with("redirect_uri", "https://evil.example/cb")).status
                    == .badRequest)
            let noPKCE = try await fixture.startFlow(
                "sign-in", with("code_challenge", nil).filter { $0.0 != "code_challenge_method" })
            #expect(noPKCE.node["code"]?.stringValue == "invalid_request")
            #expect(try await fixture.startFlow("sign-in", base + [("prompt", "none")]).status == .badRequest)
            let json = try await fixture.post(
                "/flows/sign-in", [], headers: [.contentType: "application/json"],
                body:
                    #"{"client_id": "app", "redirect_uri": "\#(TokenFixture.nativeRedirect)", "scope": "openid", "code_challenge": "\#(PKCE.fixture.challenge)", "code_challenge_method": "S256"}"#
            )
            #expect(json.status == .ok)
            #expect(json.nodeType == "continue")
        }
    }

    @Test("malformed, oversized and wrongly typed bodies are 400 (or 415) JSON failures, never a 500")
    func badBodies() async throws {
        try await FlowFixture.run { fixture in
            let id = try #require(try await fixture.startFlow("sign-in")["interaction"])
            let json: HTTPFields = [.contentType: "application/json"]
            let bodies = [
                "{", "[]", #"{"node": "credentials"}"#, #"{"node": "credentials", "action": "submit", "x": 1}"#,
                #"{"node": "credentials", "action": "submit", "values": {"email": 3}}"#,
                #"{"node": "a", "node": "b", "action": "submit"}"#,
                #"{"node": "credentials", "action": "submit", "values": {"email": "\#(String(repeating: "a", count: 70_000))"}}"#,
            ]
            for body in bodies {
                let answer = try await fixture.post("/flows/interactions/\(id)", [], headers: json, body: body)
                #expect(answer.status == .badRequest, "\(body.prefix(60))")
                #expect(answer.nodeType == "failure")
            }
            let form = try await fixture.post("/flows/interactions/\(id)", [("node", "credentials")])
            #expect(form.status == .unsupportedMediaType)
            #expect(try await fixture.post("/flows/sign-in", [], headers: json, body: "{").status == .badRequest)
            #expect(
                try await fixture.post("/flows/sign-in", [], headers: json, body: #"{"scope": 1}"#).status
                    == .badRequest)
        }
    }

    @Test("an operator's sign-up with a required terms checkbox: in the node, enforced, then accepted (to the code)")
    func operatorCheckbox() async throws {
        let file = try FlowPageFixtures.signUpWithTermsFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let useFile: (inout ServerConfiguration) -> Void = { $0.flowFiles = [file] }
        try await FlowFixture.run(configure: useFile) { fixture in
            let started = try await fixture.startFlow("sign-up")
            let id = try #require(started["interaction"])
            let terms = try #require(started.collectors.first { $0["key"]?.stringValue == "terms" })
            #expect(terms["type"]?.stringValue == "CHECKBOX")
            #expect(terms["required"] == .bool(true))
            var values: [String: JSONValue] = ["email": .string("terms@example.com")]
            let refused = try await fixture.continueFlow(id, node: "details", action: "submit", values: values)
            #expect(refused.detailCodes == ["terms": ["required"]])
            values["terms"] = .bool(true)
            let accepted = try await fixture.continueFlow(id, node: "details", action: "submit", values: values)
            #expect(accepted.node["id"]?.stringValue == "code")
        }
    }
}
