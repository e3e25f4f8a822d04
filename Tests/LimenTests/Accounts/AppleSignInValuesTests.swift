import Foundation
import Testing

@testable import Limen

/// Sign in with Apple's values on every platform: the nonce and its hash, the credential and the login credentials
/// it becomes, none of which ever prints a secret.
@Suite("Sign in with Apple: nonce, credential, login credentials")
struct AppleSignInValuesTests {
    static let credential = AppleIDCredential(
        user: "000123.apple", identityToken: "eyJ.secret-token.sig", authorizationCode: "c-secret-code",
        email: "abc@privaterelay.appleid.com", fullName: "Ada Lovelace")

    @Test("the nonce's hash is the lowercase hex SHA-256 of its raw value (FIPS 180-2's abc vector)")
    func nonceHash() {
        #expect(
            AppleSignInNonce(raw: "abc").sha256
                == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("a new nonce is 32 random bytes in base64url, different every time, and never printed")
    func nonceRandom() {
        let first = AppleSignInNonce()
        let second = AppleSignInNonce()
        #expect(first.raw.count == 43)
        #expect(first.raw.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
        #expect(first != second)
        #expect(!"\(first)".contains(first.raw) && !String(reflecting: first).contains(first.raw))
    }

    @Test("Apple's credential prints its user and address, never the token or the code")
    func credentialRedacted() {
        for text in ["\(Self.credential)", String(reflecting: Self.credential)] {
            #expect(text.contains("000123.apple"))
            #expect(!text.contains("secret"), "\(text)")
        }
    }

    @Test("login credentials from Apple: the apple flow's values, the shared address, provider apple, redacted")
    func loginCredentials() {
        let nonce = AppleSignInNonce(raw: "raw-nonce")
        let credentials = LoginCredentials(apple: Self.credential, nonce: nonce)
        #expect(credentials.provider == .apple)
        #expect(credentials.email == "abc@privaterelay.appleid.com")
        #expect(credentials.flow.name == "apple")
        #expect(
            credentials.flow.values == [
                "identity_token": "eyJ.secret-token.sig", "nonce": "raw-nonce", "name": "Ada Lovelace",
            ])
        for text in ["\(credentials)", String(reflecting: credentials)] {
            #expect(!text.contains("secret") && !text.contains("raw-nonce"), "\(text)")
        }
        let password = LoginCredentials(email: "ada@example.com", password: "hunter2")
        #expect(password.provider == .password && password.flow.name == "sign-in")
        #expect(password.flow.values == ["email": "ada@example.com", "password": "hunter2"])
        #expect(credentials != LoginCredentials(apple: Self.credential, nonce: AppleSignInNonce(raw: "other")))
    }
}
