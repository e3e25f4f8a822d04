import Foundation
import Limen
import LimenOIDC
import TestSupport
import Testing

@Suite("Namespaces and sign-in history")
struct NamespaceTests {
    static func client(_ namespace: String, store: any SecureStore) -> AuthClient {
        AuthClient(
            configuration: Configuration(
                issuer: URL(string: "https://id.example.com")!,
                clientID: "app",
                namespace: namespace,
                store: store
            )
        )
    }

    static func session(_ subject: String) -> TokenSet {
        TokenSet(
            accessToken: "at-\(subject)",
            refreshToken: nil,
            idToken: nil,
            expiresAt: nil,
            scope: nil,
            subject: subject,
            claims: [:]
        )
    }

    @Test("clients with different namespaces keep separate sessions in one store")
    func separateSessions() async throws {
        let store = MemoryStore()
        try await store.write(try JSONEncoder().encode(Self.session("alice")), for: "work.session")
        let work = Self.client("work", store: store)
        let home = Self.client("home", store: store)
        await work.restore()
        await home.restore()
        #expect(work.state.user.id == "alice")
        #expect(home.state.phase == .signedOut)
        await work.signOut(revoke: false)
        #expect(try await store.read("work.session") == nil)
        #expect(home.state.phase == .signedOut)
    }

    @Test("hasPreviouslySignedIn survives sign-out and a restart")
    func previouslySignedIn() async throws {
        let store = MemoryStore()
        let fresh = Self.client("default", store: store)
        await fresh.restore()
        #expect(fresh.state.auth.hasPreviouslySignedIn == false)

        try await store.write(try JSONEncoder().encode(Self.session("alice")), for: "default.session")
        try await store.write(Data([1]), for: "default.previously_signed_in")
        let first = Self.client("default", store: store)
        await first.restore()
        await first.signOut(revoke: false)
        #expect(first.state.auth.hasPreviouslySignedIn == true)

        let relaunched = Self.client("default", store: store)
        await relaunched.restore()
        #expect(relaunched.state.phase == .signedOut)
        #expect(relaunched.state.auth.hasPreviouslySignedIn == true)
    }
}
