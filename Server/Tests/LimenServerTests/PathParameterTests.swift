import Hummingbird
import HummingbirdTesting
import Testing

@testable import LimenServer

@Suite("Path parameters are read into their types at the edge")
struct PathParameterTests {
    @Test("an identity kind is percent-decoded; a segment that is not valid percent-encoding is kept as it is")
    func identityKind() {
        #expect(
            IdentityKind(pathSegment: "oidc%3Ahttps%3A%2F%2Fissuer.example").rawValue == "oidc:https://issuer.example")
        #expect(IdentityKind(pathSegment: "password").rawValue == "password")
        #expect(IdentityKind(pathSegment: "oidc%zz").rawValue == "oidc%zz")
    }

    @Test("a route reads its parameter by type, and an ID is passed on exactly as the path gave it")
    func readByType() async throws {
        let router = Router()
        router.get("/clients/:id") { _, context in try context.parameters.path(ClientID.self).rawValue }
        router.get("/federation/:provider") { _, context in
            try context.parameters.path(UpstreamProviderID.self).rawValue
        }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/clients/web%20app", method: .get) { response in
                #expect(String(buffer: response.body) == "web%20app")
            }
            try await client.execute(uri: "/federation/glewlwyd", method: .get) { response in
                #expect(String(buffer: response.body) == "glewlwyd")
            }
        }
    }

    @Test("a pattern without the parameter a handler reads is a 400, never an empty identifier")
    func missingParameter() async throws {
        let router = Router()
        router.get("/users") { _, context in try context.parameters.path(UserID.self).rawValue }
        try await Application(router: router).test(.router) { client in
            try await client.execute(uri: "/users", method: .get) { response in
                #expect(response.status == .badRequest)
            }
        }
    }
}
