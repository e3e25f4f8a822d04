/// One way a user proved who they are in a sign-in: an RFC 8176 Authentication Method Reference value (the ID token's
/// `amr`), or `fed` for a sign-in another provider vouched for (Apple, an upstream OpenID provider, an exchanged token).
public enum AuthenticationMethod: String, Sendable, CaseIterable, Codable {
    /// A password (`pwd`).
    case password = "pwd"
    /// A one-time code: an authenticator app's, a recovery code, or one sent by email (`otp`).
    case oneTimePassword = "otp"
    /// A code sent by SMS (`sms`).
    case sms
    /// A passkey bound to its device (`hwk`: the authenticator says it cannot be backed up).
    case hardwareKey = "hwk"
    /// A synced passkey (`swk`: backup eligible, so its private key lives in software the user's devices share).
    case softwareKey = "swk"
    /// The authenticator tested that the user is present and verified them (`user`).
    case user
    /// More than one factor (`mfa`): a second step after the first, or a user-verified passkey.
    case multipleFactors = "mfa"
    /// Another provider authenticated the user (`fed`; not in RFC 8176's registry: Microsoft's value for the case).
    case federated = "fed"
}

/// The methods of one sign-in, kept with its browser session, codes and grants as their `amr` column: the values
/// separated by spaces, in a fixed order. Values this version does not know are dropped when read (they count for
/// nothing), and a row written before the column existed reads as none.
public struct AuthenticationMethods: Sendable, Hashable, Codable {
    /// The methods.
    public private(set) var methods: Set<AuthenticationMethod>

    /// The methods `methods`.
    public init(_ methods: some Sequence<AuthenticationMethod> = []) {
        self.methods = Set(methods)
    }

    /// The methods a stored column holds.
    public init(stored: String?) {
        self.init((stored ?? "").split(separator: " ").compactMap { AuthenticationMethod(rawValue: String($0)) })
    }

    /// The `amr` values, in the order of ``AuthenticationMethod``'s cases.
    public var values: [String] {
        AuthenticationMethod.allCases.filter(methods.contains).map(\.rawValue)
    }

    /// The column's text: ``values`` separated by spaces.
    public var stored: String {
        values.joined(separator: " ")
    }

    /// Whether `method` is among them.
    public func contains(_ method: AuthenticationMethod) -> Bool {
        methods.contains(method)
    }

    /// These methods and `others`.
    public func adding(_ others: some Sequence<AuthenticationMethod>) -> AuthenticationMethods {
        AuthenticationMethods(methods.union(others))
    }

    public init(from decoder: any Decoder) throws {
        self.init(try [String](from: decoder).compactMap(AuthenticationMethod.init(rawValue:)))
    }

    public func encode(to encoder: any Encoder) throws {
        try values.encode(to: encoder)
    }
}
