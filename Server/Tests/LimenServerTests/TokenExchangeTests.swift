import Crypto
import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Token exchange (RFC 8693)")
struct TokenExchangeTests {
    private static func linkingByEmail(_ issuer: StandInIssuer) -> TrustedIssuer {
        issuer.trusted(linkByVerifiedEmail: true)
    }

    private static func mappingClaims(_ issuer: StandInIssuer) -> TrustedIssuer {
        var trusted = issuer.trusted()
        trusted.claims.email = "mail"
        trusted.claims.emailVerified = "mail_verified"
        trusted.claims.name = "display_name"
        return trusted
    }

    private static func notLinking(_ issuer: StandInIssuer) -> TrustedIssuer { issuer.trusted() }

    @Test(
        "a valid ID token of a trusted issuer becomes tokens with a refresh token for a new user",
        arguments: SigningAlgorithm.allCases)
    func validToken(algorithm: SigningAlgorithm) async throws {
        try await ExchangeFixture.run { fixture in
            let response = try await fixture.exchange(try await fixture.token(algorithm: algorithm))
            #expect(response.status == .ok, "\(String(decoding: response.body, as: UTF8.self))")
            #expect(response["token_type"] == "Bearer")
            #expect(response["issued_token_type"] == TokenExchangeRequest.TokenType.accessToken)
            #expect(response["id_token"] != nil)
            let refreshToken = try #require(response["refresh_token"])
            let subject = try #require(try ExchangeFixture.subject(of: response))
            #expect(subject != TokenFixture.user.id)
            let identities = try await fixture.tokens.provider.store.identities(userID: subject)
            #expect(
                identities.map(\.kind) == ["oidc:\(fixture.issuer.issuer)"]
                    && identities.map(\.subject) == ["ext-user-1"])
            let user = try #require(try await fixture.tokens.provider.store.user(id: subject))
            #expect(user.email == nil && user.authLevel == .unverified)

            let refreshed = try await fixture.tokens.refresh(refreshToken, clientID: ExchangeFixture.clientID)
            #expect(refreshed.status == .ok)
            #expect(try ExchangeFixture.subject(of: refreshed) == subject)
        }
    }

    @Test("a JWT subject token of a trusted issuer is exchanged as an ID token is")
    func jwtType() async throws {
        try await ExchangeFixture.run { fixture in
            let response = try await fixture.exchange(
                try await fixture.token(), type: TokenExchangeRequest.TokenType.jwt)
            #expect(response.status == .ok)
        }
    }

    @Test("the same external subject signs in as the same user; another subject as another")
    func sameSubjectSameUser() async throws {
        try await ExchangeFixture.run { fixture in
            let first = try ExchangeFixture.subject(of: try await fixture.exchange(try await fixture.token()))
            let again = try ExchangeFixture.subject(
                of: try await fixture.exchange(try await fixture.token(algorithm: .rs256)))
            let other = try ExchangeFixture.subject(
                of: try await fixture.exchange(try await fixture.token(subject: "ext-user-2")))
            #expect(first != nil && first == again)
            #expect(other != nil && other != first)
        }
    }

    @Test("a disabled user's exchange is invalid_grant, recorded as a sign-in failed for being disabled, no grant made")
    func disabledUser() async throws {
        try await ExchangeFixture.run { fixture in
            let subject = try #require(
                try ExchangeFixture.subject(of: try await fixture.exchange(try await fixture.token())))
            let store = fixture.tokens.provider.store
            #expect(
                try await AdminUserDisablement(store: store, now: { fixture.now }).disable(
                    subject, origin: .commandLine))
            let refused = try await fixture.exchange(try await fixture.token())
            #expect(refused.status == .badRequest && refused.error == "invalid_grant")
            #expect(try await store.activeGrants(subject: subject, at: fixture.now).isEmpty)
            let failed = try await store.securityEvents(
                SecurityEventFilter(type: SecurityEventType.userSignInFailed.rawValue), limit: 10)
            #expect(failed.map(\.user) == [subject] && failed.first?.details == #"{"reason":"disabled"}"#)
        }
    }

    @Test("a verified address becomes the new user's; an unverified one is never stored")
    func verifiedEmail() async throws {
        try await ExchangeFixture.run { fixture in
            let store = fixture.tokens.provider.store
            let verified = try #require(
                try ExchangeFixture.subject(
                    of: try await fixture.exchange(
                        try await fixture.token(
                            subject: "v", extra: ["email": .string("New@Example.com"), "email_verified": .bool(true)])))
            )
            let verifiedUser = try #require(try await store.user(id: verified))
            #expect(verifiedUser.email == "new@example.com" && verifiedUser.emailVerified)
            #expect(verifiedUser.authLevel == .verified)

            let unverified = try #require(
                try ExchangeFixture.subject(
                    of: try await fixture.exchange(
                        try await fixture.token(
                            subject: "u",
                            extra: ["email": .string("other@example.com"), "email_verified": .bool(false)]))))
            let unverifiedUser = try #require(try await store.user(id: unverified))
            #expect(unverifiedUser.email == nil && unverifiedUser.authLevel == .unverified)
            #expect(try await store.user(email: "other@example.com") == nil)
        }
    }

    @Test("a verified address of an existing user links only with link_by_verified_email", arguments: [false, true])
    func linkByVerifiedEmail(link: Bool) async throws {
        try await ExchangeFixture.run(trust: link ? Self.linkingByEmail : Self.notLinking) { fixture in
            let claims: [String: JSONValue] = [
                "email": .string(TokenFixture.user.email ?? ""), "email_verified": .bool(true),
            ]
            let subject = try ExchangeFixture.subject(
                of: try await fixture.exchange(try await fixture.token(extra: claims)))
            if link {
                #expect(subject == TokenFixture.user.id)
                // Linked to Ada by her verified address: identity.linked for her, and nobody else created.
                let store = fixture.tokens.provider.store
                let linked = try await store.securityEvents(SecurityEventFilter(type: "identity.linked"), limit: 10)
                #expect(linked.map(\.user) == [TokenFixture.user.id])
                let created = try await store.securityEvents(SecurityEventFilter(type: "user.created"), limit: 10)
                #expect(created.allSatisfy { $0.user == TokenFixture.user.id })
            } else {
                let created = try #require(subject)
                #expect(created != TokenFixture.user.id)
                #expect(try await fixture.tokens.provider.store.user(id: created)?.email == nil)
            }
        }
    }

    @Test("an issuer's claims mapping says where the address and its verification are read")
    func claimMapping() async throws {
        try await ExchangeFixture.run(trust: Self.mappingClaims) { fixture in
            let claims: [String: JSONValue] = [
                "email": .string("ignored@example.com"), "email_verified": .bool(true),
                "mail": .string("mapped@example.com"), "mail_verified": .bool(true), "display_name": .string("Mapped"),
            ]
            let subject = try #require(
                try ExchangeFixture.subject(of: try await fixture.exchange(try await fixture.token(extra: claims))))
            let user = try #require(try await fixture.tokens.provider.store.user(id: subject))
            #expect(user.email == "mapped@example.com" && user.emailVerified && user.name == "Mapped")
        }
    }

    @Test("an unverified address never links to the user who has it, even with link_by_verified_email")
    func unverifiedNeverLinks() async throws {
        try await ExchangeFixture.run(trust: Self.linkingByEmail) { fixture in
            let claims: [String: JSONValue] = [
                "email": .string(TokenFixture.user.email ?? ""), "email_verified": .bool(false),
            ]
            let subject = try ExchangeFixture.subject(
                of: try await fixture.exchange(try await fixture.token(extra: claims)))
            #expect(subject != nil && subject != TokenFixture.user.id)
        }
    }

    @Test("concurrent exchanges for one new external subject make exactly one user", arguments: TokenBackend.allCases)
    func raceMakesOneUser(backend: TokenBackend) async throws {
        try await ExchangeFixture.run(on: backend) { fixture in
            for round in 0..<3 {
                // Four tokens of one subject: each token is exchanged once.
                var tokens: [String] = []
                for _ in 0..<4 { tokens.append(try await fixture.token(subject: "racer-\(round)")) }
                let subjects = try await withThrowingTaskGroup(of: String?.self) { group in
                    for token in tokens {
                        group.addTask { try ExchangeFixture.subject(of: try await fixture.exchange(token)) }
                    }
                    return try await group.reduce(into: [String?]()) { $0.append($1) }
                }
                #expect(subjects.count == 4 && subjects.allSatisfy { $0 != nil })
                #expect(Set(subjects).count == 1, "round \(round): \(subjects)")
            }
            // Ada and one user per external subject: the losers' users are gone.
            #expect(try await fixture.tokens.provider.store.users().count == 4)
            // Each winner is one user.created and one identity.linked; a loser's user, deleted, is neither.
            let store = fixture.tokens.provider.store
            let created = try await store.securityEvents(SecurityEventFilter(type: "user.created"), limit: 100)
                .filter { $0.user != TokenFixture.user.id }
            let linked = try await store.securityEvents(SecurityEventFilter(type: "identity.linked"), limit: 100)
            #expect(created.count == 3 && linked.count == 3)
            #expect(Set(created.compactMap(\.user)) == Set(linked.compactMap(\.user)))
            #expect(linked.allSatisfy { $0.details.hasPrefix(#"{"identity":"oidc:"#) })
        }
    }

    @Test("the external identity is listed at /v1/me/identities and unlinked by its kind, percent-encoded")
    func identityEndpoints() async throws {
        try await ExchangeFixture.run { fixture in
            let claims: [String: JSONValue] = ["email": .string("ext@example.com"), "email_verified": .bool(true)]
            let response = try await fixture.exchange(try await fixture.token(extra: claims))
            let accessToken = try #require(response["access_token"])
            let kind = "oidc:\(fixture.issuer.issuer)"
            let listed = try await fixture.tokens.send(.get, "/v1/me/identities", bearer: accessToken)
            let kinds = listed.json["identities"].flatMap { if case .array(let items) = $0 { items } else { nil } }?
                .compactMap { $0.objectValue?["kind"]?.stringValue }
            #expect(Set(kinds ?? []) == [kind, IdentityRecord.emailKind])

            let encoded = try #require(kind.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let unlinked = try await fixture.tokens.send(.delete, "/v1/me/identities/\(encoded)", bearer: accessToken)
            #expect(unlinked.status == .ok)
            let subject = try #require(try ExchangeFixture.subject(of: response))
            #expect(try await fixture.tokens.provider.store.identities(userID: subject).map(\.kind) == ["email"])
        }
    }

    @Test("a client not registered for token exchange is refused with unauthorized_client")
    func clientWithoutGrantType() async throws {
        try await ExchangeFixture.run { fixture in
            let response = try await fixture.exchange(try await fixture.token(), clientID: "native")
            #expect(response.error == "unauthorized_client")
        }
    }

    @Test("without trusted issuers the grant type is unsupported and discovery does not list it")
    func disabledWithoutIssuers() async throws {
        try await TokenFixture.run { fixture in
            let response = try await fixture.post(
                "/token",
                [
                    ("grant_type", GrantType.tokenExchange.rawValue), ("subject_token", "x"),
                    ("subject_token_type", TokenExchangeRequest.TokenType.idToken), ("client_id", "native"),
                ])
            #expect(response.error == "unsupported_grant_type")
            let discovery = try await fixture.get("/.well-known/openid-configuration")
            #expect(
                discovery.json["grant_types_supported"]?.stringArrayValue?.contains(GrantType.tokenExchange.rawValue)
                    == false)
        }
    }

    @Test("discovery lists the grant type when an issuer is trusted")
    func discoveryListsGrantType() async throws {
        try await ExchangeFixture.run { fixture in
            let discovery = try await fixture.tokens.get("/.well-known/openid-configuration")
            #expect(
                discovery.json["grant_types_supported"]?.stringArrayValue?.contains(GrantType.tokenExchange.rawValue)
                    == true)
        }
    }

    @Test("scope, resource and requested_token_type are checked like the other grants")
    func parameters() async throws {
        try await ExchangeFixture.run { fixture in
            let token = try await fixture.token()
            let unknownScope = try await fixture.exchange(token, extra: [("scope", "openid admin")])
            #expect(unknownScope.error == "invalid_scope")
            let resource = try await fixture.exchange(token, extra: [("resource", "https://api.unknown.example")])
            #expect(resource.error == "invalid_target")
            let audience = try await fixture.exchange(token, extra: [("audience", "https://api.unknown.example")])
            #expect(audience.error == "invalid_target")
            let refreshType = try await fixture.exchange(
                token, extra: [("requested_token_type", TokenExchangeRequest.TokenType.refreshToken)])
            #expect(refreshType.error == "invalid_request")
            let actor = try await fixture.exchange(
                token, extra: [("actor_token", token), ("actor_token_type", TokenExchangeRequest.TokenType.idToken)])
            #expect(actor.error == "invalid_request")
            let narrowed = try await fixture.exchange(token, extra: [("scope", "openid email")])
            #expect(narrowed["scope"] == "openid email offline_access")
        }
    }
}
