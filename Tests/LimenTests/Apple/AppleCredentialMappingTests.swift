import Foundation
import Testing

@testable import Limen

@Suite("Apple's credential becomes an AppleIDCredential")
struct AppleCredentialMappingTests {
    static func name(given: String? = nil, family: String? = nil, nickname: String? = nil) -> PersonNameComponents {
        var components = PersonNameComponents()
        components.givenName = given
        components.familyName = family
        components.nickname = nickname
        return components
    }

    @Test("tokens are decoded from UTF-8; a code that is not UTF-8 is dropped; an empty address is none")
    func tokens() {
        let credential = AppleIDCredential.fromAuthorization(
            user: "000123.abc", identityToken: Data("eyJ.token.sig".utf8), authorizationCode: Data([0xff, 0xfe]),
            email: "", fullName: nil)
        #expect(
            credential
                == .success(
                    AppleIDCredential(
                        user: "000123.abc", identityToken: "eyJ.token.sig", authorizationCode: nil, email: nil,
                        fullName: nil)))
        let withCode = AppleIDCredential.fromAuthorization(
            user: "u", identityToken: Data("t".utf8), authorizationCode: Data("c123".utf8), email: "a@example.com",
            fullName: nil)
        #expect((try? withCode.get())?.authorizationCode == "c123")
        #expect((try? withCode.get())?.email == "a@example.com")
    }

    @Test(
        "a missing, empty or non-UTF-8 identity token is a presentation failure",
        arguments: [nil, Data(), Data([0xc3])])
    func missingToken(token: Data?) {
        let credential = AppleIDCredential.fromAuthorization(
            user: "u", identityToken: token, authorizationCode: nil, email: nil, fullName: nil)
        #expect(credential == .failure(.presentationFailed("Apple gave no identity token")))
    }

    @Test(
        "names are written given name first, or family name first in Han, kana or Hangul; an empty name is none",
        arguments: [
            (name(given: "Ada", family: "Lovelace"), "Ada Lovelace"),
            (name(given: "  Ada ", family: nil), "Ada"),
            (name(given: "太郎", family: "山田"), "山田太郎"),
            (name(given: "민준", family: "김"), "김민준"),
            (name(nickname: "Kay"), "Kay"),
        ])
    func written(components: PersonNameComponents, expected: String) {
        #expect(AppleIDCredential.displayName(components) == expected)
    }

    @Test(
        "Apple's empty name at a later sign-in (every part blank) gives no name",
        arguments: [
            name(), name(given: "", family: ""), name(given: " ", family: "\n"),
        ])
    func emptyName(components: PersonNameComponents) {
        #expect(AppleIDCredential.displayName(components) == nil)
        let credential = AppleIDCredential.fromAuthorization(
            user: "u", identityToken: Data("t".utf8), authorizationCode: nil, email: nil, fullName: components)
        #expect((try? credential.get())?.fullName == nil)
    }

    @Test("a closed Apple sheet is the userCancelled every sign-in path throws; other failures are presentationFailed")
    func sheetFailures() async {
        #expect(AppleSheetFailure.canceled.userAgentError == .cancelled)
        #expect(AppleSheetFailure.other("no network").userAgentError == .presentationFailed("no network"))
        let client = AuthClient(
            configuration: Configuration(
                issuer: URL(filePath: "/unused"), clientID: "app", store: MemoryStore()))
        await #expect(throws: LimenError.userCancelled) {
            try await client.signInWithApple(using: ClosedSheet(), allowMigration: nil)
        }
        #expect(client.state.phase != .signedIn)
    }

    /// Apple's sheet, closed by the person.
    struct ClosedSheet: AppleIDAuthorizing {
        func authorize(hashedNonce: String) async throws(UserAgentError) -> AppleIDCredential {
            throw AppleSheetFailure.canceled.userAgentError
        }
    }
}
