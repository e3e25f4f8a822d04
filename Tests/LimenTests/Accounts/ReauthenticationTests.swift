import Foundation
import LimenOIDC
import LimenTestSupport
import Synchronization
import TestSupport
import Testing

@testable import Limen

/// The SDK answering an account change's step-up challenge (RFC 9470) with a ``Reauthentication``: sign in again,
/// then retry the change once; never as another person.
@Suite("Account changes answer the step-up challenge by signing in again and retrying once")
struct ReauthenticationTests {
    static let challenge =
        #"Bearer realm="limen", error="insufficient_user_authentication", "#
        + #"error_description="a more recent authentication is required", max_age=300"#

    /// A route that answers the challenge to its first `challenges` requests, then `success`.
    static func challenging(_ challenges: Int, then success: HTTPResponse) -> TestHTTPServer.Handler {
        let count = Mutex(0)
        return { _ in
            let seen = count.withLock { count in
                count += 1
                return count
            }
            return seen <= challenges ? HTTPResponse(status: 401, headers: ["WWW-Authenticate": challenge]) : success
        }
    }

    @Test("deleteAccount signs in again with the provider's max_age, retries once, and then signs out")
    func deleteRetriesOnce() async throws {
        try await ProviderFixture.with(
            expiresIn: 3600,
            routes: ["DELETE /v1/me": Self.challenging(1, then: HTTPResponse(status: 204))],
            token: { _ in .json(ProviderFixture.rotated) },
            run: { fixture in
                let asked = Mutex<[Int?]>([])
                try await fixture.client.deleteAccount(
                    reauthenticating: Reauthentication { _, maxAge in asked.withLock { $0.append(maxAge) } })
                #expect(asked.withLock { $0 } == [300])
                #expect(await fixture.server.log.requests.filter { $0.path == "/v1/me" }.count == 2)
                #expect(fixture.client.state.phase == .signedOut)
            })
    }

    @Test("a second challenge after signing in again is thrown, not answered again; the session is kept")
    func retriesOnlyOnce() async throws {
        try await ProviderFixture.with(
            expiresIn: 3600,
            routes: ["DELETE /v1/me/identities/password": Self.challenging(5, then: HTTPResponse(status: 204))],
            token: { _ in .json(ProviderFixture.rotated) },
            run: { fixture in
                let asked = Mutex(0)
                await #expect(throws: LimenError.account(.reauthenticationRequired(maxAge: 300))) {
                    try await fixture.client.unlink(
                        .password, reauthenticating: Reauthentication { _, _ in asked.withLock { $0 += 1 } })
                }
                #expect(asked.withLock { $0 } == 1)
                #expect(await fixture.server.log.requests.filter { $0.path.hasPrefix("/v1/me") }.count == 2)
                #expect(fixture.client.state.phase == .signedIn)
            })
    }

    @Test("signing in again as someone else (or not at all) changes nothing: reauthenticatedAsAnotherUser")
    func anotherUser() async throws {
        try await ProviderFixture.with(
            expiresIn: 3600,
            routes: ["DELETE /v1/me": Self.challenging(1, then: HTTPResponse(status: 204))],
            token: { _ in .json(ProviderFixture.rotated) },
            run: { fixture in
                await #expect(throws: LimenError.account(.reauthenticatedAsAnotherUser)) {
                    try await fixture.client.deleteAccount(
                        reauthenticating: Reauthentication { client, _ throws(LimenError) in _ = await client.signOut()
                        })
                }
                #expect(await fixture.server.log.requests.filter { $0.path == "/v1/me" }.count == 1)
            })
    }

    @Test("unlink returns every kind the provider says went")
    func unlinkNamesWhatWent() async throws {
        try await ProviderFixture.with(
            expiresIn: 3600,
            routes: [
                "DELETE /v1/me/identities/email": { _ in .json(#"{"removed": ["email", "password"]}"#) }
            ],
            token: { _ in .json(ProviderFixture.rotated) },
            run: { fixture in
                let removed = try await fixture.client.unlink(.email)
                #expect(removed == [.email, .password])
            })
    }

    @Test(
        "a third-party app's or a secretless confidential client's refusal is changeNotAllowed",
        arguments: [
            (403, #"Bearer error="insufficient_scope""#, "insufficient_scope"),
            (401, #"Bearer error="invalid_client""#, "invalid_client"),
        ])
    func changeNotAllowed(status: Int, header: String, code: String) async throws {
        try await ProviderFixture.with(
            expiresIn: 3600,
            routes: ["DELETE /v1/me": { _ in HTTPResponse(status: status, headers: ["WWW-Authenticate": header]) }],
            token: { _ in .json(ProviderFixture.rotated) },
            run: { fixture in
                await #expect(throws: LimenError.account(.changeNotAllowed(code: code))) {
                    try await fixture.client.deleteAccount()
                }
                #expect(fixture.client.state.phase == .signedIn)
            })
    }

    @Test("the browser way asks for prompt=login and the provider's max_age")
    func browserOptions() {
        let options = SignInOptions(prompt: ["consent"]).reauthenticating(300)
        #expect(options.prompt == ["consent", "login"])
        #expect(options.maxAge == 300)
    }
}
