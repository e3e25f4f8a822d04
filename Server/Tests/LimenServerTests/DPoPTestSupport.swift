import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerWire
import LimenTestSupport
import LimenWire
import NIOCore

@testable import LimenServer
@testable import LimenServerCore

/// A DPoP client of a ``TokenFixture``: its own P-256 key, proofs for the fixture's URLs at the fixture's time, and the
/// requests it sends with them.
struct DPoPTestClient {
    static let proofField = HTTPField.Name("DPoP")!
    static let nonceField = HTTPField.Name("DPoP-Nonce")!

    let fixture: TokenFixture
    let maker = DPoPProofMaker(privateKey: P256.Signing.PrivateKey())

    /// The thumbprint tokens bound to this client's key carry (`cnf.jkt`).
    var thumbprint: String { maker.thumbprint }

    /// A proof for `method` at the issuer's `path`, bound to `accessToken` and carrying `nonce` when given.
    func proof(
        _ method: String = "POST", _ path: String = "/token", accessToken: String? = nil, nonce: String? = nil
    ) throws -> String {
        try maker.proof(
            method: method, url: URL(string: fixture.provider.issuer.current + path)!, accessToken: accessToken,
            nonce: nonce, now: fixture.clock.now)
    }

    /// The native client's code exchange with `proofs` (one `DPoP` field each).
    func redeem(_ code: String, clientID: String = "native", proofs: [String]) async throws -> RecordedResponse {
        try await fixture.post(
            "/token",
            [
                ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.nativeRedirect),
                ("client_id", clientID), ("code_verifier", PKCE.fixture.verifier),
            ], headers: Self.headers(proofs: proofs))
    }

    /// A fresh code of `clientID` redeemed with a proof by this client's key.
    func signIn(clientID: String = "native") async throws -> RecordedResponse {
        try await redeem(try await fixture.issueCode(clientID: clientID), clientID: clientID, proofs: [try proof()])
    }

    /// A refresh by the native client with `proofs`.
    func refresh(_ refreshToken: String, proofs: [String]) async throws -> RecordedResponse {
        try await fixture.post(
            "/token", [("grant_type", "refresh_token"), ("refresh_token", refreshToken), ("client_id", "native")],
            headers: Self.headers(proofs: proofs))
    }

    /// `GET path` (or `method`) with `Authorization: DPoP accessToken` (or `scheme`) and `proofs`.
    func get(
        _ path: String, method: HTTPRequest.Method = .get, accessToken: String, scheme: String = "DPoP",
        proofs: [String]
    ) async throws -> RecordedResponse {
        var headers = Self.headers(proofs: proofs)
        headers[.authorization] = "\(scheme) \(accessToken)"
        return try await fixture.client.execute(uri: path, method: method, headers: headers) { response in
            RecordedResponse(
                status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }

    /// `GET path` with `accessToken` and a fresh proof for it.
    func get(_ path: String, accessToken: String) async throws -> RecordedResponse {
        try await get(path, accessToken: accessToken, proofs: [try proof("GET", path, accessToken: accessToken)])
    }

    /// One `DPoP` field per proof.
    static func headers(proofs: [String]) -> HTTPFields {
        HTTPFields(proofs.map { HTTPField(name: proofField, value: $0) })
    }

    /// The `cnf.jkt` of an access token.
    static func boundKey(of accessToken: String?) throws -> String? {
        guard case .object(let confirmation)? = try UnverifiedJWT(accessToken ?? "")[claim: "cnf"] else { return nil }
        return confirmation["jkt"]?.stringValue
    }
}
