import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Logging
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Flows log to the request's logger")
struct FlowLoggingTests {
    @Test("finding 11: a start with the log mailer warns that codes and links go to the log; with SMTP it does not")
    func logMailerWarns() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory)
        for transport in [MailTransport.log, MailTransport(url: "smtp://127.0.0.1:25")] {
            configuration.mailTransport = try #require(transport)
            let recorded = RecordedLines()
            let provider = try await ServerComposition.bootstrap(configuration: configuration, logger: recorded.logger)
            await provider.store.close()
            let warned = recorded.lines.withLock { $0 }.contains { $0.message.hasPrefix("mail_url is log:") }
            #expect(warned == (configuration.mailTransport == .log))
        }
    }

    @Test("an upstream provider out of reach is logged with the request's id, and the IDP press answers 503")
    func upstreamFailureCarriesRequestID() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory)
        // Nothing listens on port 1: discovery fails at once.
        configuration.identityProviders = [
            IdentityProvider(id: "down", displayName: "Down", issuer: "http://127.0.0.1:1", clientID: "limen")
        ]
        let provider = try await ServerComposition.bootstrap(configuration: configuration)
        let recorded = RecordedLines()
        let application = Application(
            router: LimenServerApplication.router(composition: provider), logger: recorded.logger)
        let start = [
            ("client_id", SeedClients.cliClientID), ("redirect_uri", "http://127.0.0.1:53124/callback"),
            ("scope", "openid"), ("state", "s-1"), ("nonce", "n-1"), ("code_challenge", PKCE().challenge),
            ("code_challenge_method", "S256"), ("action", "idp-down"),
        ]
        let requestID = try #require(HTTPField.Name("X-Request-Id"))
        do {
            try await application.test(.router) { client in
                try await client.execute(
                    uri: "/flows/sign-in", method: .post,
                    headers: [.contentType: "application/x-www-form-urlencoded", requestID: "flow-request-1"],
                    body: ByteBuffer(string: FormEncoding.encode(start))
                ) { response in
                    #expect(response.status == .serviceUnavailable)
                    #expect(String(buffer: response.body).contains(FlowFederationStep.providerUnavailable))
                }
            }
        } catch {
            await provider.store.close()
            throw error
        }
        await provider.store.close()
        let line = try #require(
            recorded.lines.withLock { $0 }.first { $0.message == "An upstream sign-in did not finish" })
        #expect(line.metadata["hb.request.id"] == "flow-request-1")
        #expect(line.metadata["provider"] == "down")
    }
}
