import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// With `sign_up: disabled`, an external identity signs in only to an account it already leads to: token exchange
/// and AppleSignInKit's native sign-in make nobody, as the sign-up flows do not.
@Suite("Sign-up off: external identities make no account")
struct SignUpOffFederationTests {
    private static let signUpOff: @Sendable (inout ServerConfiguration) -> Void = { $0.signUpEnabled = false }

    /// A user linked to `kind` + `subject`, as a sign-in while sign-up was on left them.
    private static func linkedUser(kind: String, subject: String, in store: any Store, at now: Date) async throws
        -> String
    {
        let user = UserRecord(id: RandomToken.make(byteCount: 16), email: nil, name: "Linked", createdAt: now)
        try await store.insertUserIfAbsent(user)
        #expect(
            try await store.insertIdentityIfAbsent(
                IdentityRecord(kind: kind, subject: subject, userID: user.id, createdAt: now)))
        return user.id
    }

    @Test("token exchange: a new external subject is invalid_grant and makes nobody; a linked one signs in")
    func tokenExchange() async throws {
        try await ExchangeFixture.run(configure: Self.signUpOff) { fixture in
            let store = fixture.tokens.provider.store
            let before = try await store.users().count
            let refused = try await fixture.exchange(try await fixture.token(subject: "ext-new"))
            #expect(refused.status == .badRequest)
            #expect(refused["error"] == "invalid_grant")
            #expect(try await store.users().count == before)

            let linked = try await Self.linkedUser(
                kind: fixture.issuer.trusted().identityKind, subject: "ext-linked", in: store, at: fixture.now)
            let accepted = try await fixture.exchange(try await fixture.token(subject: "ext-linked"))
            #expect(accepted.status == .ok)
            #expect(try ExchangeFixture.subject(of: accepted) == linked)
        }
    }

    @Test("AppleSignInKit's native sign-in: a new Apple ID is 403 sign_up_disabled; a linked one signs in")
    func appleNative() async throws {
        try await AppleFixture.run(configure: Self.signUpOff) { fixture in
            let store = fixture.tokens.provider.store
            let before = try await store.users().count
            let refused = try await fixture.signIn(try await fixture.identityToken(subject: "apple.new"))
            #expect(refused.status == .forbidden)
            #expect(refused.json["success"] == .bool(false))
            #expect(refused.json["error"] == .string("sign_up_disabled"))
            #expect(try await store.users().count == before)

            let linked = try await Self.linkedUser(kind: "apple", subject: "apple.linked", in: store, at: fixture.now)
            let accepted = try await fixture.signIn(try await fixture.identityToken(subject: "apple.linked"))
            #expect(accepted.status == .ok)
            #expect(accepted.user["id"] == .string(linked))
        }
    }
}
