import LimenServerStorage

/// How strongly a sign-in authenticated the user: the ID token's `acr`, each level satisfying those below it.
///
/// ```swift
/// AuthenticationLevel(AuthenticationMethods([.password, .oneTimePassword, .multipleFactors]))  // .multipleFactors
/// AuthenticationLevel.required(acrValues: "mfa phr", client: client)  // .multipleFactors, or the client's if higher
/// ```
package enum AuthenticationLevel: String, Sendable, CaseIterable, Comparable, Codable {
    /// No authentication worth the name (`0`, OpenID Connect Core §2): a guest, or a sign-in kept from before this
    /// server recorded how people authenticate.
    case none = "0"
    /// One factor (`1`): a password, a code by email or SMS, another provider's sign-in.
    case singleFactor = "1"
    /// Two factors (`mfa`): a second step after the first, or a user-verified passkey.
    case multipleFactors = "mfa"
    /// Phishing-resistant (`phr`, OpenID's EAP ACR values): a user-verified passkey took part.
    case phishingResistant = "phr"

    /// The `acr_values_supported` discovery lists, strongest first.
    package static let supportedValues = allCases.reversed().map(\.rawValue)

    /// The level `methods` reach.
    package init(_ methods: AuthenticationMethods) {
        if methods.contains(.user), methods.contains(.hardwareKey) || methods.contains(.softwareKey) {
            self = .phishingResistant
        } else if methods.contains(.multipleFactors) {
            self = .multipleFactors
        } else if !methods.methods.isEmpty {
            self = .singleFactor
        } else {
            self = .none
        }
    }

    /// The level a request needs: the weakest of the levels its `acr_values` name (any one of them will do, and a
    /// stronger one satisfies a weaker), raised to the one `client` requires; `nil` when neither asks for any.
    package static func required(acrValues: String?, client: ClientRecord) -> AuthenticationLevel? {
        let requested = known(in: acrValues).min()
        let required = client.requiredACR.flatMap(AuthenticationLevel.init(rawValue:))
        return [requested, required].compactMap(\.self).max()
    }

    /// The levels `acrValues` (space-separated) names that this server knows.
    package static func known(in acrValues: String?) -> [AuthenticationLevel] {
        (acrValues ?? "").split(separator: " ").compactMap { AuthenticationLevel(rawValue: String($0)) }
    }

    package static func < (lhs: AuthenticationLevel, rhs: AuthenticationLevel) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
