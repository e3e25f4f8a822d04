import Foundation
import LimenOIDC
import LimenServerStorage
import LimenServerWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Signing with the provider's keys")
struct TokenSignerTests {
    @Test(
        "a token signed with each key verifies against the published JWKS, with alg, kid and typ in its header",
        arguments: SigningAlgorithm.allCases)
    func signedTokenVerifiesAgainstJWKS(algorithm: SigningAlgorithm) async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let provider = try await ServerComposition.bootstrap(configuration: .testing(directory: directory))
        await provider.store.close()
        let signer = try await TokenSigner(keys: provider.keys)
        let claims: [String: JSONValue] = ["sub": .string("user-1"), "iat": .number(1_700_000_000)]

        let token = try await signer.sign(claims, algorithm: algorithm, type: "at+jwt", at: provider.now())

        let jwks = try JSONWebKeySet(
            json: JSONEncoder().encode(JSONValue.object(provider.keys.jwks(at: provider.now()))))
        let payload = try await JWSVerifier.verify(compact: token, jwks: jwks, allowedAlgorithms: [.es256, .rs256])
        #expect(try JSONDecoder().decode([String: JSONValue].self, from: payload) == claims)
        let headerPart = try #require(token.split(separator: ".").first)
        let header = try JSONDecoder().decode([String: String].self, from: try #require(Base64URL.decode(headerPart)))
        #expect(header["alg"] == algorithm.rawValue)
        #expect(header["kid"] == provider.keys.signingKey(for: algorithm, at: provider.now())?.kid)
        #expect(header["typ"] == "at+jwt")
    }

    @Test("an algorithm the ring holds no key for is refused")
    func algorithmWithoutKeyRefused() async throws {
        let keys = KeyRing(keys: [try SigningKey.generate(algorithm: .es256, now: Date())])
        let signer = try await TokenSigner(keys: keys)
        await #expect(throws: KeyError.unsupportedAlgorithm("RS256")) {
            _ = try await signer.sign([:], algorithm: .rs256, at: Date())
        }
    }
}
