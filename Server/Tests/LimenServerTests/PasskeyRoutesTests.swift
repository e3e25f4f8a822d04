import Foundation
import HTTPTypes
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("/v1/me/passkeys: the signed-in user's passkeys listed, renamed and removed; nobody else's")
struct PasskeyRoutesTests {
    @Test("a registered passkey is listed with its dates and flags, renamed, then removed; then it signs nobody in")
    func listRenameRemove() async throws {
        try await FlowFixture.run { fixture in
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            authenticator.counts = false
            #expect(try await fixture.registerPasskey(with: authenticator, name: "Laptop").nodeType == "success")
            let token = try await fixture.graceAccessToken()
            let id = Base64URL.encode(authenticator.credentials[0].id)

            let listed = try await fixture.send(.get, "/v1/me/passkeys", bearer: token)
            #expect(listed.status == .ok)
            #expect(listed.headers[.cacheControl] == "no-store")
            let passkeys = try #require(listed.json["passkeys"])
            let created = fixture.clock.now.timeIntervalSince1970.rounded(.down)
            #expect(
                passkeys
                    == .array([
                        .object([
                            "id": .string(id), "name": .string("Laptop"), "created_at": .number(created),
                            "last_used_at": .null, "backup_eligible": .bool(false), "backed_up": .bool(false),
                        ])
                    ]))

            let renamed = try await fixture.renamePasskey(id, to: "Work laptop", bearer: token)
            #expect(renamed.status == .ok)
            #expect(renamed.json["name"]?.stringValue == "Work laptop")
            let tooLong = try await fixture.renamePasskey(id, to: String(repeating: "é", count: 65), bearer: token)
            #expect(tooLong.status == .badRequest)
            #expect(tooLong.json["error"]?.stringValue == "invalid_request")
            let notJSON = try await fixture.send(
                .patch, "/v1/me/passkeys/\(id)",
                headers: [.authorization: "Bearer \(token)", .contentType: "text/plain"], body: "name=x")
            #expect(notJSON.status == .unsupportedMediaType)

            let removed = try await fixture.send(.delete, "/v1/me/passkeys/\(id)", bearer: token)
            #expect(removed.status == .noContent)
            let again = try await fixture.send(.delete, "/v1/me/passkeys/\(id)", bearer: token)
            #expect(again.status == .notFound)
            let emptied = try await fixture.send(.get, "/v1/me/passkeys", bearer: token)
            #expect(emptied.json["passkeys"] == .array([]))

            let (signIn, options) = try await fixture.startPasskeySignIn()
            let refused = try await fixture.answerPasskey(signIn, try authenticator.authenticate(options))
            #expect(refused.detailCodes == ["passkey": ["unknown_credential"]])
        }
    }

    @Test("another user's passkey is not found, to rename or to remove; a malformed ID names nothing; no token is 401")
    func othersPasskeys() async throws {
        try await FlowFixture.run { fixture in
            let authenticator = SoftwareAuthenticator(origin: TokenFixture.passkeyOrigin)
            #expect(try await fixture.registerPasskey(with: authenticator).nodeType == "success")
            let id = Base64URL.encode(authenticator.credentials[0].id)
            _ = try await fixture.provider.accounts.signUp(
                email: "mallory@example.com", password: FlowFixture.password, name: "Mallory", origin: RequestOrigin())
            let mallory = try #require(try await fixture.provider.store.user(email: "mallory@example.com"))
            let code = try await fixture.issueCode(for: mallory, clientID: "app")
            let token = try TokenFixture.accessToken(try await fixture.redeem(code, clientID: "app"))

            #expect(try await fixture.send(.get, "/v1/me/passkeys", bearer: token).json["passkeys"] == .array([]))
            #expect(try await fixture.renamePasskey(id, to: "Mine", bearer: token).status == .notFound)
            #expect(try await fixture.send(.delete, "/v1/me/passkeys/\(id)", bearer: token).status == .notFound)
            #expect(try await fixture.send(.delete, "/v1/me/passkeys/%21%21", bearer: token).status == .notFound)
            #expect(try await fixture.send(.get, "/v1/me/passkeys", bearer: nil).status == .unauthorized)
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            #expect(try await fixture.provider.store.passkeyCredentials(userID: grace.id).map(\.name) == ["Laptop"])
        }
    }
}

extension TokenFixture {
    /// `PATCH /v1/me/passkeys/{id}` with `{"name": name}`.
    func renamePasskey(_ id: String, to name: String, bearer token: String) async throws -> RecordedResponse {
        try await send(
            .patch, "/v1/me/passkeys/\(id)",
            headers: [.authorization: "Bearer \(token)", .contentType: "application/json"],
            body: String(decoding: JSONValue.object(["name": .string(name)]).serialized(), as: UTF8.self))
    }
}
