import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

/// The SDK's passkey conveniences against Limen Server: `registerPasskey(name:using:)` and `signInWithPasskey(using:)`
/// with a software authenticator (swift-crypto's P-256) answering the `limen-server` binary's ceremonies.
@Suite(
    "Passkeys through the SDK against Limen Server",
    .enabled(
        if: LimenServerPeer.unavailableReason == nil, "limen-server is not built (swift build --package-path Server)")
)
struct LimenServerPasskeyTests {
    /// A software authenticator answering for `server`'s origin.
    func authenticator(_ server: LimenServerPeer) throws -> SoftwareAuthenticator {
        let issuer = server.issuer
        let origin = "\(try #require(issuer.scheme))://\(try #require(issuer.host())):\(try #require(issuer.port))"
        return SoftwareAuthenticator(origin: origin)
    }

    @Test("a passkey registered by the signed-in user signs them in again without a username")
    func registerThenSignIn() async throws {
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let client = try server.cliClient()
            let passkeys = SoftwarePasskeys(try authenticator(server))
            try await client.signIn(email: server.user.email, password: server.user.password)
            try await client.registerPasskey(name: "Test key", using: passkeys)
            #expect(passkeys.authenticator.credentials.count == 1)
            _ = await client.signOut()
            #expect(client.state.phase != .signedIn)

            let user = try await client.signInWithPasskey(using: passkeys)
            #expect(user.email == server.user.email)
            #expect(client.state.phase == .signedIn)
        }
    }

    @Test("nobody signed in cannot register; a cancelled sheet and an unknown passkey are typed errors")
    func refusals() async throws {
        try await LimenServerPeer.with(settings: ["--sign-in-rate-limit", "100/s"]) { server in
            let client = try server.cliClient()
            let passkeys = SoftwarePasskeys(try authenticator(server))
            await #expect(throws: FlowError.self) { try await client.registerPasskey(using: passkeys) }
            do throws(FlowError) {
                try await client.registerPasskey(using: passkeys)
            } catch {
                #expect(error.code == "invalid_token")
            }

            await #expect(throws: FlowError.passkey(.cancelled)) {
                try await client.signInWithPasskey(using: CancellingPasskeys())
            }
            await #expect(throws: FlowError.passkey(.noCredential)) {
                try await client.signInWithPasskey(using: passkeys)
            }
            // A passkey the server never registered: made for another relying party's ceremony.
            let stranger = try authenticator(server)
            _ = try stranger.register(
                .object([
                    "rp": .object(["id": .string("127.0.0.1")]), "user": .object(["id": .string("AAAA")]),
                    "challenge": .string("AAAA"),
                ]))
            do throws(FlowError) {
                try await client.signInWithPasskey(using: SoftwarePasskeys(stranger))
                Issue.record("an unknown passkey signed in")
            } catch {
                #expect(error.code == "flow.refused.unknown_credential")
            }
            #expect(client.state.phase != .signedIn)
        }
    }
}

/// An authenticator whose person always closes the sheet.
private struct CancellingPasskeys: PasskeyAuthenticator {
    func register(_ options: JSONValue) async throws(PasskeyError) -> JSONValue { throw .cancelled }
    func authenticate(_ options: JSONValue) async throws(PasskeyError) -> JSONValue { throw .cancelled }
}
