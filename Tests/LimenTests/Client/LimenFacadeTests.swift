import Foundation
import Limen
import TestSupport
import Testing

@Suite("Limen façade")
struct LimenFacadeTests {
    // One test, so that "before configure" really runs before: the façade's shared client is process-wide.
    @Test(
        "before configure it throws a configuration error; after, validAccessToken and user use the shared client")
    func configureThenUse() async throws {
        await #expect(throws: LimenError.configuration(.missingKey("Limen.configure"))) {
            try await Limen.validAccessToken()
        }
        #expect(throws: LimenError.configuration(.missingKey("Limen.configure"))) { try Limen.user }
        await #expect(throws: LimenError.configuration(.missingKey("Limen.configure"))) {
            try await Limen.getAccessToken("an external token")
        }
        #expect(Limen.shared == nil)
        #expect(await Limen.resume() == nil)
        try await ProviderFixture.with(expiresIn: 3600) { _ in
            .json(ProviderFixture.rotated)
        } run: { fixture async throws in
            let client = Limen.configure(fixture.client.configuration)
            #expect(Limen.shared === client)
            #expect(try await Limen.validAccessToken() == "at-old")
            #expect(Limen.state.phase == .signedIn)
            #expect(await Limen.resume() == nil)
            let field = try await Limen.user.encrypt(plaintext: "secret")
            #expect(try await client.user.decrypt(ciphertext: field) == "secret")
        }
    }
}
