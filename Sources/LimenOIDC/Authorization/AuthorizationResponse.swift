import Foundation
import LimenWire

/// The checked outcome of an authorization redirect: the code to exchange.
public struct AuthorizationResponse: Sendable, Equatable {
    /// The authorization code.
    public let code: String
    /// The `state` the provider echoed (already checked).
    public let state: String

    /// Parses and checks the URL the provider redirected to.
    ///
    /// Parameters are read from the query, or from the fragment when the query has none. The `state` is compared in
    /// constant time before anything else, so an attacker cannot inject an error or a code into another flow.
    /// - Parameters:
    ///   - url: The full redirect URL.
    ///   - request: The request this response answers (its `state` and redirect URI are checked).
    ///   - issuer: The expected issuer identifier.
    ///   - issuerParameterRequired: Whether the provider advertises
    ///     `authorization_response_iss_parameter_supported` (then `iss` must be present).
    /// - Throws: ``OIDCError/authorizationResponse(_:)`` for a refused response, ``OIDCError/oauth(_:)`` when the
    ///   provider reported an error.
    public init(
        url: URL,
        for request: AuthorizationRequest,
        issuer: String,
        issuerParameterRequired: Bool
    ) throws(OIDCError) {
        guard Self.isSameEndpoint(url, request.redirectURI) else {
            throw .authorizationResponse(.unexpectedRedirect(Self.withoutParameters(url)))
        }
        let parameters = Self.parameters(of: url)
        guard let state = parameters["state"], ConstantTime.equals(state, request.state) else {
            throw .authorizationResponse(.stateMismatch)
        }
        if let iss = parameters["iss"] {
            guard iss == issuer else { throw .authorizationResponse(.issuerMismatch(expected: issuer, actual: iss)) }
        } else if issuerParameterRequired {
            throw .authorizationResponse(.missingIssuer)
        }
        if let error = parameters["error"] {
            throw .oauth(
                OAuthError(
                    error: OAuthError.ErrorCode(rawValue: error),
                    errorDescription: parameters["error_description"],
                    errorURI: parameters["error_uri"]
                )
            )
        }
        guard let code = parameters["code"], !code.isEmpty else { throw .authorizationResponse(.missingCode) }
        self.code = code
        self.state = state
    }

    /// Query parameters, or fragment parameters when there is no query; the first occurrence of a name wins.
    static func parameters(of url: URL) -> [String: String] {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        let source =
            components?.percentEncodedQuery.flatMap { $0.isEmpty ? nil : $0 } ?? components?.percentEncodedFragment
            ?? ""
        return Dictionary(FormEncoding.decode(source), uniquingKeysWith: { first, _ in first })
    }

    /// Scheme, host, port and path equal (the loopback port is compared too: the listener chose it).
    static func isSameEndpoint(_ lhs: URL, _ rhs: URL) -> Bool {
        withoutParameters(lhs) == withoutParameters(rhs)
    }

    private static func withoutParameters(_ url: URL) -> String {
        var components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        components?.query = nil
        components?.fragment = nil
        return components?.string ?? url.absoluteString
    }
}
