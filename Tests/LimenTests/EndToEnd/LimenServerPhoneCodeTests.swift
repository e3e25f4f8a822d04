import Foundation
import Limen
import LimenOIDC
import LimenWire
import TestSupport
import Testing

/// Sign-in by phone number against Limen Server: the `limen-server` binary sending its SMS to a real HTTPS webhook
/// receiver that checks the signature, and the SDK's `requestPhoneCode(phone:)` and `signIn(phone:code:)`.
@Suite(
    "Sign-in by phone number against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil && SMSSink.unavailableReason == nil,
        "limen-server is not built, or python3 cannot import cryptography")
)
struct LimenServerPhoneCodeTests {
    func client(_ server: LimenServerPeer) throws -> AuthClient {
        AuthClient(
            configuration: Configuration(
                issuer: server.issuer, clientID: "limen-cli",
                redirectURI: try #require(URL(string: "http://127.0.0.1/callback")),
                scopes: ["phone", "offline_access"], store: MemoryStore()))
    }

    @Test(
        "requestPhoneCode then signIn(phone:code:) makes a verified account; events say method phone; the ID token has the number"
    )
    func signsIn() async throws {
        try await SMSSink.with { sink in
            try await LimenServerPeer.with(configuration: sink.configuration, settings: sink.settings) { server in
                let client = try client(server)
                let events = client.eventStream()
                try await client.requestPhoneCode(phone: "+1 (555) 010-0199")
                let message = try await sink.nextMessage()
                #expect(message["to"] == .string("+15550100199"))
                #expect(message["purpose"] == .string("sign-in"))
                let code = try #require(message["code"]?.stringValue)
                let user = try await client.signIn(phone: "+15550100199", code: code)
                #expect(user.phoneNumber == "+15550100199")
                #expect(client.state.phase == .signedIn && client.state.auth.level == .verified)
                var iterator = events.makeAsyncIterator()
                #expect(await iterator.next() == .signInStarted(method: .phone))
                #expect(await iterator.next() == .signInCompleted(method: .phone, userType: .new))
                let info = try #require(await client.idTokenInfo())
                #expect(info.claims["phone_number"] == .string("+15550100199"))
                #expect(info.claims["phone_number_verified"] == .bool(true))
            }
        }
    }

    @Test("a number that is no number is refused as invalid_phone_number, and nothing is sent")
    func refusesMalformedNumbers() async throws {
        try await SMSSink.with { sink in
            try await LimenServerPeer.with(configuration: sink.configuration, settings: sink.settings) { server in
                let client = try client(server)
                do throws(FlowError) {
                    try await client.requestPhoneCode(phone: "555 0100")
                    Issue.record("a number without its country code was taken")
                } catch .refused(_, let details) {
                    #expect(details.map(\.code) == ["invalid_phone_number"])
                } catch {
                    Issue.record("not refused: \(error)")
                }
                do throws(FlowError) {
                    _ = try await client.signIn(phone: "555 0100", code: "123456")
                    Issue.record("a code for a number never asked signed in")
                } catch .incomplete {
                } catch {
                    Issue.record("not incomplete: \(error)")
                }
            }
        }
    }
}
