import Crypto
import Foundation

extension JSONWebKey {
    /// The key's JWK thumbprint (RFC 7638): base64url of the SHA-256 of its required members, written in lexicographic
    /// order without whitespace (§3.2–3.3); `nil` when the key type is not `EC`, `RSA`, `OKP` or `oct`, or a required
    /// member is absent or not a string.
    ///
    /// The required members are `crv`, `kty`, `x`, `y` for `EC` (RFC 7638 §3.2), `e`, `kty`, `n` for `RSA`, `crv`,
    /// `kty`, `x` for `OKP` (RFC 8037 §2), and `k`, `kty` for `oct`; other members (`kid`, `alg`, `use`, private ones)
    /// do not change it. DPoP names a client's key by it (`jkt`, RFC 9449 §6.1).
    ///
    /// ```swift
    /// let x = "11qYAYKxCrfVS_7TyWQHOg7hcvPapiMlrwIaaPcHURo"
    /// let key = JSONWebKey(parameters: ["kty": .string("OKP"), "crv": .string("Ed25519"), "x": .string(x)])
    /// key.thumbprint   // "kPrK_qmxVWaYVA9wwBF6Iuo3vVzz7TxHCTwXBygrS4k" (RFC 8037 Appendix A.3)
    /// ```
    public var thumbprint: String? {
        guard let keyType, let names = Self.thumbprintMembers[keyType] else { return nil }
        var members: [String: JSONValue] = [:]
        for name in names {
            guard case .string(let value)? = parameters[name] else { return nil }
            members[name] = .string(value)
        }
        // serialized() writes members in the byte order of their names and no whitespace: RFC 7638's form.
        return Base64URL.encode(SHA256.hash(data: JSONValue.object(members).serialized()))
    }

    /// The members a thumbprint covers, by key type.
    private static let thumbprintMembers: [String: [String]] = [
        "EC": ["crv", "kty", "x", "y"],
        "RSA": ["e", "kty", "n"],
        "OKP": ["crv", "kty", "x"],
        "oct": ["k", "kty"],
    ]
}
