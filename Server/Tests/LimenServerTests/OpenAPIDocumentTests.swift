import Foundation
import Hummingbird
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// `Server/openapi.yaml` and the router agree: the document names every route the server registers, and nothing else.
@Suite("OpenAPI document: routes")
struct OpenAPIDocumentTests {
    /// Every route of the router of a provider configured by `configure`, as `METHOD /path`, Hummingbird writing a
    /// captured parameter as OpenAPI does (`{id}`).
    private static func registeredRoutes(
        _ configure: (inout ServerConfiguration) -> Void = { _ in }
    ) async throws -> Set<String> {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var configuration = ServerConfiguration.testing(directory: directory)
        configure(&configuration)
        let provider = try await ServerComposition.bootstrap(configuration: configuration)
        let routes = LimenServerApplication.router(composition: provider).routes
        await provider.store.close()
        return Set(routes.map { "\($0.method.rawValue) \($0.path)" })
    }

    @Test("every route the router registers is in openapi.yaml, and every documented operation is a route")
    func documentMatchesRouter() async throws {
        let documented = try OpenAPIDocument().operations
        let registered = try await Self.registeredRoutes {
            $0.metricsAccess = .loopback
            $0.apple = AppleSignIn(bundleIDs: ["com.example.app"])
        }
        #expect(registered.contains("GET /admin/users/{id}"), "route paths are not written as expected: \(registered)")
        let undocumented = registered.subtracting(documented).sorted()
        let unrouted = documented.subtracting(registered).sorted()
        #expect(undocumented.isEmpty, "routes missing from Server/openapi.yaml: \(undocumented)")
        #expect(unrouted.isEmpty, "operations in Server/openapi.yaml that no route serves: \(unrouted)")
    }

    @Test("with metrics off the router lacks exactly GET /metrics, as the document says")
    func metricsOffRemovesOnlyMetrics() async throws {
        let documented = try OpenAPIDocument().operations
        let registered = try await Self.registeredRoutes {
            $0.metricsAccess = .off
            $0.apple = AppleSignIn(bundleIDs: ["com.example.app"])
        }
        #expect(documented.subtracting(registered) == ["GET /metrics"])
        #expect(registered.subtracting(documented).isEmpty)
    }

    @Test("without the apple setting the router lacks exactly the AppleSignInKit routes")
    func appleOffRemovesOnlyItsRoutes() async throws {
        let documented = try OpenAPIDocument().operations
        let registered = try await Self.registeredRoutes { $0.metricsAccess = .loopback }
        #expect(
            documented.subtracting(registered) == [
                "POST /auth/apple/native", "POST /auth/apple/notifications", "POST /auth/refresh",
                "POST /auth/logout", "GET /auth/me",
            ])
    }
}
