import Crypto
import Foundation
import Hummingbird
import LimenServerWire
import LimenTestSupport
import LimenWire
import NIOCore

@testable import LimenServer
@testable import LimenServerCore

/// Apple's REST API as a server with the team key meets it, played by a ``StandInIssuer``: `POST /auth/token` redeems
/// the codes it was told of with a refresh token of its own making and an ID token naming the code's Apple ID, and `POST /auth/revoke` records what it was given;
/// both check the client secret as Apple does (``check(secret:clientID:audience:)``) and refuse it otherwise.
final class StandInAppleTeam: Sendable {
    /// The team ID and key ID of the test's team key.
    static let teamID = "TEAM123456"
    static let keyID = "KEY9876543"

    /// What a test told it and what it was sent.
    struct State: Sendable {
        /// The team's public key; `nil` refuses every secret.
        var publicKey: P256.Signing.PublicKey?
        /// The authorization codes it redeems (each once), and the Apple ID (`sub`) each was given to.
        var codes: [String: String] = [:]
        /// How many times `/auth/token` was called.
        var tokenCalls = 0
        /// The refresh tokens it issued, by client ID.
        var issued: [(clientID: String, refreshToken: String)] = []
        /// The forms `/auth/revoke` accepted, without the client secret.
        var revocations: [[String: String]] = []
    }

    private let state = Locked(State())

    /// A snapshot of its state.
    var current: State { state.withLock { $0 } }

    /// Makes a team key: writes its private key (PEM) in `directory` and trusts its public key; returns the setting.
    func makeTeamKey(in directory: String) throws -> AppleSignIn.TeamKey {
        let key = P256.Signing.PrivateKey()
        let path = directory + "/AuthKey_\(Self.keyID).p8"
        try key.pemRepresentation.write(toFile: path, atomically: true, encoding: .utf8)
        state.withLock { $0.publicKey = key.publicKey }
        return AppleSignIn.TeamKey(teamID: Self.teamID, keyID: Self.keyID, privateKeyFile: path)
    }

    /// Trusts another key than the team's from now on: every secret the team signs is refused.
    func distrustTeamKey() {
        state.withLock { $0.publicKey = P256.Signing.PrivateKey().publicKey }
    }

    /// Makes `code` one it redeems, as a code of the Apple ID `subject` (the identity tokens' default one unless told).
    func accept(code: String, subject: String = "001234.abcdef") {
        state.withLock { $0.codes[code] = subject }
    }

    /// Why `secret` is not the client secret Apple expects from the team for `clientID` at `audience`, or `nil`: a
    /// compact JWS whose header is `alg: ES256` with the team key's `kid`, signed by the team's key, whose claims are
    /// `iss` the team ID, `sub` the client ID, `aud` Apple's base URL, and `iat` < `exp` ≤ `iat` + 6 months.
    func check(secret: String, clientID: String, audience: String) -> String? {
        guard let publicKey = current.publicKey else { return "no team key" }
        let parts = secret.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 3, let headerBytes = Base64URL.decode(parts[0]),
            let claimBytes = Base64URL.decode(parts[1]), let signatureBytes = Base64URL.decode(parts[2]),
            let header = (try? JSONValue(parsing: headerBytes))?.objectValue,
            let claims = (try? JSONValue(parsing: claimBytes))?.objectValue
        else { return "not a JWS" }
        guard header["alg"] == .string("ES256") else { return "alg" }
        guard header["kid"] == .string(Self.keyID) else { return "kid" }
        guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signatureBytes),
            publicKey.isValidSignature(signature, for: Data((parts[0] + "." + parts[1]).utf8))
        else { return "signature" }
        guard claims["iss"] == .string(Self.teamID) else { return "iss" }
        guard claims["sub"] == .string(clientID) else { return "sub" }
        guard claims["aud"] == .string(audience) else { return "aud" }
        guard let issuedAt = claims["iat"]?.numberValue, let expiry = claims["exp"]?.numberValue,
            issuedAt < expiry, expiry <= issuedAt + 15_777_000
        else { return "iat/exp" }
        return nil
    }

    /// Adds `/auth/token` and `/auth/revoke` to `router`; `issuer` is its base URL (the secrets' audience).
    func add(to router: Router<BasicRequestContext>, issuer: @escaping @Sendable () -> String) {
        router.post("/auth/token") { request, _ in
            let form = try await Self.form(of: request)
            self.state.withLock { $0.tokenCalls += 1 }
            let clientID = form["client_id"] ?? ""
            guard self.check(secret: form["client_secret"] ?? "", clientID: clientID, audience: issuer()) == nil else {
                return Self.refusal("invalid_client")
            }
            guard form["grant_type"] == "authorization_code", let code = form["code"],
                let subject = self.state.withLock({ $0.codes.removeValue(forKey: code) })
            else { return Self.refusal("invalid_grant") }
            let refreshToken = "r.apple." + RandomToken.make(byteCount: 16)
            self.state.withLock { $0.issued.append((clientID, refreshToken)) }
            return Responses.json(
                .object([
                    "access_token": .string("a.apple." + RandomToken.make(byteCount: 8)),
                    "token_type": .string("Bearer"), "expires_in": .number(3600),
                    "refresh_token": .string(refreshToken),
                    "id_token": .string(Self.idToken(issuer: issuer(), clientID: clientID, subject: subject)),
                ]))
        }
        router.post("/auth/revoke") { request, _ in
            let form = try await Self.form(of: request)
            let clientID = form["client_id"] ?? ""
            guard self.check(secret: form["client_secret"] ?? "", clientID: clientID, audience: issuer()) == nil else {
                return Self.refusal("invalid_client")
            }
            let recorded = ["client_id", "token", "token_type_hint"].reduce(into: [String: String]()) {
                $0[$1] = form[$1]
            }
            self.state.withLock { $0.revocations.append(recorded) }
            return Response(status: .ok)
        }
    }

    /// An ID token as Apple's token endpoint answers with (read by Limen without its signature, which TLS stands for
    /// there): `iss`, `aud` the client ID, `sub` the code's Apple ID.
    private static func idToken(issuer: String, clientID: String, subject: String) -> String {
        let claims: [String: JSONValue] = [
            "iss": .string(issuer), "aud": .string(clientID), "sub": .string(subject),
            "iat": .number(1_700_000_000), "exp": .number(1_700_003_600),
        ]
        return HostileSubjectToken.compact(header: ["alg": .string("RS256")], claims: claims) + ".c2lnbmF0dXJl"
    }

    private static func form(of request: Request) async throws -> FormFields {
        let body = try await request.body.collect(upTo: 64 * 1024)
        return try FormFields.parse(String(buffer: body))
    }

    private static func refusal(_ error: String) -> Response {
        Responses.json(.object(["error": .string(error)]), status: .badRequest)
    }
}
