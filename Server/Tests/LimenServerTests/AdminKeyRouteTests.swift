import Foundation
import HTTPTypes
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Admin API: the signing keys")
struct AdminKeyRouteTests {
    @Test("the keys are listed with their states and times, never their private part")
    func list() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let listed = try await fixture.admin(.get, "/admin/keys", token: token)
            #expect(listed.status == .ok && listed.headers[.cacheControl] == "no-store")
            let keys = listed.objects(in: "keys")
            #expect(keys.compactMap { $0["kid"]?.stringValue } == fixture.provider.keys.keys.map(\.kid))
            #expect(Set(keys.compactMap { $0["alg"]?.stringValue }) == ["ES256", "RS256"])
            #expect(keys.allSatisfy { $0["state"] == .string("signing") && $0["retired_at"] == nil })
            #expect(keys.allSatisfy { Set($0.keys) == ["kid", "alg", "state", "created_at", "activates_at"] })
            for member in ["\"d\"", "\"p\"", "\"q\"", "encrypted"] { #expect(!listed.text.contains(member)) }
        }
    }

    @Test("a rotation publishes new keys in /jwks at once, the old ones signing until the switch, each recorded")
    func rotate() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let before = fixture.provider.keys.keys.map(\.kid)
            let rotated = try await fixture.admin(.post, "/admin/keys/rotate", token: token)
            #expect(rotated.status == .ok)
            let keys = rotated.objects(in: "keys")
            let added = keys.filter { !before.contains($0["kid"]?.stringValue ?? "") }
            #expect(added.count == 2 && added.allSatisfy { $0["state"] == .string("upcoming") })
            #expect(keys.filter { $0["state"] == .string("signing") }.count == 2, "the old keys sign until the switch")
            let jwks = try await fixture.get("/jwks")
            for key in added { #expect(jwks.text.contains(key["kid"]?.stringValue ?? "-")) }

            let events = try await fixture.provider.store.securityEvents(
                SecurityEventFilter(type: SecurityEventType.keyRotated.rawValue), limit: 10)
            #expect(events.count == 2 && events.allSatisfy { $0.actor == "admin_token" })

            fixture.clock.advance(by: 3601)
            let later = try await fixture.admin(.get, "/admin/keys", token: token).objects(in: "keys")
            let states = Dictionary(uniqueKeysWithValues: later.map { ($0["kid"]?.stringValue ?? "", $0["state"]) })
            for key in added { #expect(states[key["kid"]?.stringValue ?? ""] == .string("signing")) }
            for kid in before { #expect(states[kid] == .string("retiring")) }
        }
    }

    @Test("without the admin token nothing is listed or rotated")
    func refused() async throws {
        try await TokenFixture.runAdmin { fixture, _ in
            let before = try await fixture.provider.store.signingKeys().map(\.kid)
            for token in [nil, "not-the-token"] {
                #expect(try await fixture.admin(.get, "/admin/keys", token: token).status == .unauthorized)
                #expect(try await fixture.admin(.post, "/admin/keys/rotate", token: token).status == .unauthorized)
            }
            #expect(try await fixture.provider.store.signingKeys().map(\.kid) == before)
        }
    }
}
