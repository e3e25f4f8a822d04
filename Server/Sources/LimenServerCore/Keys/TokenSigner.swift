import Foundation
import JWTKit
import LimenServerWire
import LimenWire

/// Signs JWTs (ID tokens, RFC 9068 access tokens) with the provider's newest key for an algorithm, through jwt-kit.
///
/// ```swift
/// let signer = try await TokenSigner(keys: provider.keys)
/// let jwt = try await signer.sign(
///     ["iss": .string(issuer), "sub": .string("user-1")], algorithm: "ES256", at: provider.now())
/// ```
public struct TokenSigner: Sendable {
    /// The keys it signs with.
    public let keys: KeyRing
    private let collection: JWTKeyCollection

    /// Loads every key of `keys` into a jwt-kit key collection, each under its kid.
    public init(keys: KeyRing) async throws {
        let collection = JWTKeyCollection()
        for key in keys.keys {
            let kid = JWKIdentifier(string: key.kid)
            switch key.material {
            case .es256(let privateKey):
                await collection.add(ecdsa: try ES256PrivateKey(backing: privateKey), kid: kid)
            case .rs256(let privateKey):
                await collection.add(
                    rsa: try Insecure.RSA.PrivateKey(backing: privateKey),
                    digestAlgorithm: .sha256,
                    kid: kid
                )
            }
        }
        self.keys = keys
        self.collection = collection
    }

    /// A compact JWS over `claims`, signed with the key that signs for `algorithm` at `date`; the header
    /// carries `alg`, `kid` and `typ` (`JWT`, or `at+jwt` for RFC 9068 access tokens).
    public func sign(
        _ claims: [String: JSONValue],
        algorithm: SigningAlgorithm,
        type: String = "JWT",
        at date: Date
    ) async throws -> String {
        guard let key = keys.signingKey(for: algorithm, at: date) else {
            throw KeyError.unsupportedAlgorithm(algorithm.rawValue)
        }
        var header = JWTHeader()
        header.alg = algorithm.rawValue
        header.typ = type
        return try await collection.sign(ClaimSet(members: claims), kid: JWKIdentifier(string: key.kid), header: header)
    }
}

/// Arbitrary claims as a jwt-kit payload; the caller decides the claims, jwt-kit only signs (``TokenSigner``,
/// ``AppleClientSecret``).
struct ClaimSet: JWTPayload {
    package var members: [String: JSONValue]

    package init(members: [String: JSONValue]) {
        self.members = members
    }

    package init(from decoder: any Decoder) throws {
        members = try decoder.singleValueContainer().decode([String: JSONValue].self)
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(members)
    }

    package func verify(using algorithm: some JWTAlgorithm) async throws {}
}
