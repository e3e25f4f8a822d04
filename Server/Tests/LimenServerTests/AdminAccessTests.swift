import Crypto
import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Admin API access")
struct AdminAccessTests {
    static let routes: [(HTTPTypes.HTTPRequest.Method, String)] = [
        (.get, "/admin/clients"), (.post, "/admin/clients"), (.get, "/admin/clients/web"),
        (.delete, "/admin/clients/web"), (.get, "/admin/users"), (.post, "/admin/users"),
        (.get, "/admin/users/user-1"), (.delete, "/admin/users/user-1"),
    ]

    @Test("with no admin token configured every admin route answers 404 and changes nothing")
    func offWithoutToken() async throws {
        try await TokenFixture.run { fixture in
            for (method, path) in Self.routes {
                let response = try await fixture.admin(method, path, token: "anything", json: "{}")
                #expect(response.status == .notFound, "\(method) \(path)")
            }
            #expect(try await fixture.provider.store.client(id: "web") != nil)
            #expect(try await fixture.provider.store.user(id: "user-1") != nil)
        }
    }

    @Test("a request without a token is refused with 401 and a bare Bearer challenge")
    func missingToken() async throws {
        try await TokenFixture.runAdmin { fixture, _ in
            for (method, path) in Self.routes {
                let response = try await fixture.admin(method, path, token: nil)
                #expect(response.status == .unauthorized, "\(method) \(path)")
                #expect(response.headers[.wwwAuthenticate] == "Bearer realm=\"limen\"")
            }
        }
    }

    @Test("a wrong token, or another scheme, is refused with 401 invalid_token and changes nothing")
    func wrongToken() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            for (method, path) in Self.routes {
                let response = try await fixture.admin(method, path, token: token + "x", json: "{}")
                #expect(response.status == .unauthorized, "\(method) \(path)")
                #expect(response.headers[.wwwAuthenticate]?.hasPrefix("Bearer ") == true)
                #expect(response.headers[.wwwAuthenticate]?.contains("error=\"invalid_token\"") == true)
            }
            let basic = try await fixture.get("/admin/clients", headers: [.authorization: "Basic \(token)"])
            #expect(basic.status == .unauthorized)
            #expect(try await fixture.provider.store.client(id: "web") != nil)
        }
    }

    @Test("only the token's SHA-256 is stored")
    func onlyHashStored() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            #expect(Base64URL.decode(token)?.count == 32, "256 random bits")
            let stored = try await fixture.provider.store.adminTokenHash()
            #expect(stored == Data(SHA256.hash(data: Data(token.utf8))))
            #expect(stored != Data(token.utf8))
        }
    }

    @Test("a new token replaces the old one, and removing it turns the API off")
    func replaceAndRemove() async throws {
        try await TokenFixture.runAdmin { fixture, first in
            #expect(try await fixture.admin(.get, "/admin/clients", token: first).status == .ok)
            let second = try await fixture.installAdminToken()
            #expect(try await fixture.admin(.get, "/admin/clients", token: first).status == .unauthorized)
            #expect(try await fixture.admin(.get, "/admin/clients", token: second).status == .ok)
            try await AdminToken.remove(from: fixture.provider.store, now: fixture.clock.now)
            #expect(try await fixture.admin(.get, "/admin/clients", token: second).status == .notFound)
        }
    }
}
