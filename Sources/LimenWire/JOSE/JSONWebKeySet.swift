import Foundation

/// A JSON Web Key Set (RFC 7517 §5) as a provider publishes it at its `jwks_uri`.
///
/// Keys of types Limen cannot use (for example `oct`) are kept, so that key selection sees the set as published,
/// but they are never selected.
public struct JSONWebKeySet: Sendable, Equatable {
    /// The keys, in published order.
    public var keys: [JSONWebKey]

    /// Creates a set from keys.
    public init(keys: [JSONWebKey]) {
        self.keys = keys
    }

    /// Parses a JWKS document; throws ``IDTokenValidationError/jwksInvalid(_:)`` unless it is an object whose
    /// `keys` member is an array of objects.
    public init(json: Data) throws(IDTokenValidationError) {
        guard let document = JSONObject.decode(json) else { throw .jwksInvalid("the key set is not a JSON object") }
        guard case .array(let members)? = document["keys"] else { throw .jwksInvalid("the key set has no keys array") }
        var keys: [JSONWebKey] = []
        for member in members {
            guard let parameters = member.objectValue else { throw .jwksInvalid("a key is not a JSON object") }
            keys.append(JSONWebKey(parameters: parameters))
        }
        self.keys = keys
    }
}

/// One JSON Web Key (RFC 7517 §4), kept as its JSON members.
public struct JSONWebKey: Sendable, Hashable {
    /// Every member of the key, as published.
    public var parameters: [String: JSONValue]

    /// Wraps a key's JSON members.
    public init(parameters: [String: JSONValue]) {
        self.parameters = parameters
    }

    /// `kty`: the key type, such as `RSA`, `EC` or `OKP`.
    public var keyType: String? { parameters["kty"]?.stringValue }
    /// `kid`: the key ID.
    public var keyID: String? { parameters["kid"]?.stringValue }
    /// `alg`: the one algorithm this key is for, when the provider says.
    public var algorithm: String? { parameters["alg"]?.stringValue }
    /// `use`: `sig` or `enc`, when the provider says.
    public var use: String? { parameters["use"]?.stringValue }
    /// `crv`: the curve of an `EC` or `OKP` key.
    public var curve: String? { parameters["crv"]?.stringValue }

    /// Whether this key may verify a signature made with `algorithm`: the key type (and curve) fit, the key's own
    /// `alg`, if any, is that algorithm, and its `use`, if any, is `sig`.
    func canVerify(_ algorithm: JWSAlgorithm) -> Bool {
        keyType == algorithm.keyType
            && (algorithm.curve == nil || curve == algorithm.curve)
            && (self.algorithm == nil || self.algorithm == algorithm.rawValue)
            && (use == nil || use == "sig")
    }
}
