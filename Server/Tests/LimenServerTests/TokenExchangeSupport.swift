import Foundation
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire

@testable import LimenServer
@testable import LimenServerCore

/// Token exchange against a ``StandInIssuer``: a ``TokenFixture`` trusting it, with a public native client
/// `exchanger` registered for the token exchange and refresh token grants.
struct ExchangeFixture: Sendable {
    /// The client registered for token exchange.
    static let clientID = "exchanger"
    /// When both the issuer and the provider start: the fixture's ``TestNow`` default.
    static let start = TestNow().now

    let tokens: TokenFixture
    let issuer: StandInIssuer

    /// The provider's current time.
    var now: Date { tokens.clock.now }

    /// Runs `body` with a stand-in issuer trusted as `trust` makes it, over `backend`, adjusted by `configure`.
    static func run(
        on backend: TokenBackend = .sqlite,
        trust: @escaping @Sendable (StandInIssuer) -> TrustedIssuer = { $0.trusted() },
        configure: @escaping @Sendable (inout ServerConfiguration) -> Void = { _ in },
        _ body: @Sendable (ExchangeFixture) async throws -> Void
    ) async throws {
        try await StandInIssuer.with(now: start) { issuer in
            let setUp: (inout ServerConfiguration) -> Void = {
                $0.trustedIssuers = [trust(issuer)]
                configure(&$0)
            }
            try await TokenFixture.run(on: backend, configure: setUp) { tokens in
                try await tokens.provider.store.insertClientIfAbsent(
                    ClientRecord(
                        id: clientID, name: "Exchanger", kind: .public, isNative: true,
                        redirectURIs: [TokenFixture.nativeRedirect],
                        grantTypes: [.refreshToken, .tokenExchange], isFirstParty: true,
                        createdAt: tokens.clock.now))
                try await body(ExchangeFixture(tokens: tokens, issuer: issuer))
            }
        }
    }

    /// `POST /token` exchanging `token` of `type`, by `clientID`, with `extra` fields.
    func exchange(
        _ token: String,
        type: String = TokenExchangeRequest.TokenType.idToken,
        clientID: String = clientID,
        extra: [(String, String?)] = []
    ) async throws -> RecordedResponse {
        try await tokens.post(
            "/token",
            FormEncoding.present(
                [
                    ("grant_type", GrantType.tokenExchange.rawValue), ("subject_token", token),
                    ("subject_token_type", type), ("client_id", clientID),
                ] + extra))
    }

    /// A fresh token of the issuer for `subject`, with `extra` claims, signed with `algorithm`.
    func token(subject: String = "ext-user-1", extra: [String: JSONValue] = [:], algorithm: SigningAlgorithm = .es256)
        async throws -> String
    {
        try await issuer.token(issuer.claims(subject: subject, now: now, extra: extra), algorithm: algorithm, at: now)
    }

    /// The `sub` of the access token in a token response.
    static func subject(of response: RecordedResponse) throws -> String? {
        guard let accessToken = response["access_token"] else { return nil }
        return try UnverifiedJWT(accessToken).subject
    }
}
