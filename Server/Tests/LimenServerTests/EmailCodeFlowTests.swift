import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite(
    "Email codes over a real SMTP server: password reset and passwordless sign-in",
    .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
struct EmailCodeFlowTests {
    static func run(
        codeLength: Int = EmailCodes.defaultLength,
        _ body: @escaping @Sendable (TokenFixture, SMTPPeer) async throws -> Void
    ) async throws {
        try await SMTPPeer.with { peer in
            let useRelay: (inout ServerConfiguration) -> Void = {
                $0.mailTransport = MailTransport(url: "smtp://127.0.0.1:\(peer.port)") ?? .log
                $0.emailCodeLength = codeLength
            }
            try await FlowFixture.run(configure: useRelay) { fixture in
                try await body(fixture, peer.delivering(for: fixture.provider))
            }
        }
    }

    @Test(
        "password reset: the code arrives by mail; the address as password is refused before the code is spent; a new password signs in"
    )
    func passwordReset() async throws {
        try await Self.run { fixture, peer in
            let id = try #require(try await fixture.startFlow("password-reset")["interaction"])
            let sent = try await fixture.continueFlow(
                id, node: "email", action: "submit", values: ["email": .string(FlowFixture.email)])
            #expect(sent.node["id"]?.stringValue == "code")
            #expect(sent.collectors.first { $0["key"]?.stringValue == "password" }?["policy"] != nil)
            let code = try await peer.lastCode()
            #expect(await peer.messages().last?.contains("X-Envelope-To: \(FlowFixture.email)") == true)
            let address = try await fixture.continueFlow(
                id, node: "code", action: "submit",
                values: [
                    "code": .string(code), "password": .string(FlowFixture.email),
                    "password-verify": .string(FlowFixture.email),
                ])
            #expect(address.detailCodes == ["password": ["weak_password"]], "refused before the code is spent")
            let newPassword = "a brand new password"
            let done = try await fixture.continueFlow(
                id, node: "code", action: "submit",
                values: [
                    "code": .string(code), "password": .string(newPassword), "password-verify": .string(newPassword),
                ])
            #expect(done.nodeType == "success")
            #expect(try await fixture.signInThroughFlow(password: newPassword).nodeType == "success")
            #expect(try await fixture.signInThroughFlow().nodeType == "error")
        }
    }

    @Test("an unknown email gets the same answer and no mail; a wrong, reused or sixth code is refused")
    func codeRefusals() async throws {
        try await Self.run { fixture, peer in
            let unknown = try #require(try await fixture.startFlow("email-code")["interaction"])
            let noMail = try await fixture.continueFlow(
                unknown, node: "email", action: "submit", values: ["email": .string("nobody@example.com")])
            #expect(noMail.node["id"]?.stringValue == "code")
            #expect(await peer.messages().isEmpty)

            let id = try #require(try await fixture.startFlow("email-code")["interaction"])
            let sent = try await fixture.continueFlow(
                id, node: "email", action: "submit", values: ["email": .string(FlowFixture.email)])
            #expect(sent.node == noMail.node)
            try await fixture.expectTriesUsedUp(id, rightCode: try await peer.lastCode())

            let again = try #require(try await fixture.startFlow("email-code")["interaction"])
            _ = try await fixture.continueFlow(
                again, node: "email", action: "submit", values: ["email": .string(FlowFixture.email)])
            let fresh = try await peer.lastCode()
            let signedIn = try await fixture.continueFlow(
                again, node: "code", action: "submit", values: ["code": .string(fresh)])
            #expect(signedIn.nodeType == "success")
            #expect(try await fixture.provider.store.user(email: FlowFixture.email)?.emailVerified == true)
            // Single use: the same code in another interaction is refused.
            let third = try #require(try await fixture.startFlow("email-code")["interaction"])
            var context = try #require(
                try await fixture.provider.store.flowInteraction(idHash: RandomIdentifier.hash(third)))
            context.context = FlowInteractionRecord.encode(FlowContext(email: FlowFixture.email))
            (context.node, context.revision) = ("code", 1)
            #expect(try await fixture.provider.store.updateFlowInteraction(context))
            let reused = try await fixture.continueFlow(
                third, node: "code", action: "submit", values: ["code": .string(fresh)])
            #expect(reused.detailCodes == ["code": ["invalid_code"]])
        }
    }

    @Test("with the mail server down the step answers as usual and the email waits in the outbox for its next try")
    func mailServerDown() async throws {
        let port = try FreePort.find()
        let deadRelay: (inout ServerConfiguration) -> Void = {
            $0.mailTransport = MailTransport(url: "smtp://127.0.0.1:\(port)") ?? .log
        }
        try await FlowFixture.run(configure: deadRelay) { fixture in
            try await fixture.expectCodeKeptForRetry()
        }
    }
}
