import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite(
    "Email codes: the message's two parts, its link, the code's length, a new code ending the old",
    .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
struct EmailCodeMessageTests {
    /// Sends a code for Grace in a new `email-code` interaction started by `clientID`; returns the interaction.
    private static func sendCode(_ fixture: TokenFixture, clientID: String = "app") async throws -> String {
        let started = try await fixture.startFlow(
            "email-code",
            [
                ("client_id", clientID), ("redirect_uri", TokenFixture.nativeRedirect), ("scope", "openid email"),
                ("state", "s-1"), ("nonce", "n-1"), ("code_challenge", PKCE.fixture.challenge),
                ("code_challenge_method", "S256"),
            ])
        let id = try #require(started["interaction"])
        _ = try await fixture.continueFlow(
            id, node: "email", action: "submit", values: ["email": .string(FlowFixture.email)])
        return id
    }

    @Test("text and HTML both arrive, each with the code and the issuer's link holding interaction and code")
    func bothParts() async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            let id = try await Self.sendCode(fixture)
            let message = try #require(await peer.messages().last)
            #expect(message.contains("Content-Type: multipart/alternative"))
            let parts = SMTPPeer.parts(of: message)
            let code = try await peer.lastCode()
            let link = "\(fixture.provider.issuer.current)/flows/link#limen_interaction=\(id)&code=\(code)"
            let text = try #require(parts["text/plain"])
            #expect(text.contains("Your code to sign in at \(fixture.provider.issuer.current) is \(code)."))
            #expect(text.contains(link))
            let html = try #require(parts["text/html"])
            #expect(html.contains("<strong>\(code)</strong>"))
            #expect(html.contains("href=\"\(link.replacingOccurrences(of: "&", with: "&amp;"))\""))
            #expect(!link.contains("?"), "the secret is never in a query")
        }
    }

    @Test("a client's registered email_link_uri is the link's base")
    func clientLinkBase() async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            try await fixture.provider.store.insertClientIfAbsent(
                ClientRecord(
                    id: "mobile", name: "Mobile", kind: .public, isNative: true,
                    redirectURIs: [TokenFixture.nativeRedirect], isFirstParty: true, createdAt: fixture.clock.now,
                    emailLinkURI: "com.example.app:/email-link"))
            let id = try await Self.sendCode(fixture, clientID: "mobile")
            let message = try #require(await peer.messages().last)
            let text = try #require(SMTPPeer.parts(of: message)["text/plain"])
            let code = try await peer.lastCode()
            #expect(text.contains("com.example.app:/email-link#limen_interaction=\(id)&code=\(code)"))
        }
    }

    @Test("with email_code_length 8 the code has eight digits and works; its first six do not")
    func longerCode() async throws {
        try await EmailCodeFlowTests.run(codeLength: 8) { fixture, peer in
            let id = try await Self.sendCode(fixture)
            let code = try await peer.lastCode()
            #expect(code.count == 8 && code.allSatisfy(\.isNumber))
            let short = try await fixture.continueFlow(
                id, node: "code", action: "submit", values: ["code": .string(String(code.prefix(6)))])
            #expect(short.detailCodes == ["code": ["invalid_code"]])
            let done = try await fixture.continueFlow(
                id, node: "code", action: "submit", values: ["code": .string(code)])
            #expect(done.nodeType == "success")
            #expect(done.node["new_user"] == .bool(false))
        }
    }

    @Test("each new code ends the earlier one: after 'send another code' only the newest works, and only once")
    func newCodeEndsTheOld() async throws {
        try await EmailCodeFlowTests.run { fixture, peer in
            let id = try await Self.sendCode(fixture)
            let first = try await peer.lastCode()
            _ = try await fixture.continueFlow(id, node: "code", action: "resend")
            _ = try await fixture.continueFlow(
                id, node: "email", action: "submit", values: ["email": .string(FlowFixture.email)])
            let second = try await peer.lastCode()
            #expect(await peer.messages().count == 2)
            if first != second {
                let old = try await fixture.continueFlow(
                    id, node: "code", action: "submit", values: ["code": .string(first)])
                #expect(old.detailCodes == ["code": ["invalid_code"]])
            }
            let done = try await fixture.continueFlow(
                id, node: "code", action: "submit", values: ["code": .string(second)])
            #expect(done.nodeType == "success")
            let codes = EmailCodes(
                store: fixture.provider.store, keys: fixture.provider.derivedKeys, now: { fixture.clock.now })
            #expect(try await !codes.redeem(second, email: FlowFixture.email, purpose: "email-code"), "single use")
        }
    }
}

@Suite("Email templates")
struct MailTemplateTests {
    @Test("every mail template compiles")
    func compile() throws {
        _ = try MailTemplates.compile()
    }
}
