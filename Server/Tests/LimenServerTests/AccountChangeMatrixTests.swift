import Foundation
import HTTPTypes
import HummingbirdTesting
import LimenServerStorage
import LimenServerWire
import LimenTestSupport
import LimenWire
import NIOCore
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// The account-change rule (``AccountChangeGate``) as a matrix: every path that changes an account × every kind of
/// access token an attacker may hold. Only a first-party app's fresh token for Limen alone (with its secret, for a
/// confidential client) changes anything; every other cell is refused and leaves the account as it was.
@Suite("Who may change an account: every account-changing path × every kind of token", .serialized)
struct AccountChangeMatrixTests {
    /// An API listed for RFC 8707 resource indicators.
    static let api = "https://api.example"
    /// A first-party confidential client (a company's own web back end).
    static let firstPartyWeb = "first-web"
    static let firstPartyWebSecret = "first-web-secret"

    /// A path that changes an account.
    enum Path: String, CaseIterable, CustomTestStringConvertible {
        case deleteAccount = "DELETE /v1/me"
        case unlinkIdentity = "DELETE /v1/me/identities/password"
        case linkingFlowStart = "POST /flows/email-code with a bearer token"
        case phoneLinkingFlowStart = "POST /flows/phone-code with a bearer token"
        case passkeyRegistrationStart = "POST /flows/passkey-register with a bearer token"
        case renamePasskey = "PATCH /v1/me/passkeys/{id}"
        case removePasskey = "DELETE /v1/me/passkeys/{id}"
        case twoStepSetupStart = "POST /flows/totp-enrol with a bearer token"
        case newRecoveryCodes = "POST /v1/me/recovery-codes"
        case disableTwoStep = "DELETE /v1/me/totp"

        var testDescription: String { rawValue }

        /// Whether the path changes a two-step sign-in, which the user then has on.
        var needsTwoStep: Bool { self == .newRecoveryCodes || self == .disableTwoStep }
    }

    /// The token a request carries, and how it was come by.
    enum Holder: String, CaseIterable, CustomTestStringConvertible {
        case firstPartyFresh = "a first-party app, signed in just now"
        case firstPartyStale = "a first-party app, signed in longer ago than account_change_max_age"
        case thirdParty = "a third-party app"
        case resourceToken = "a token minted for an API (RFC 8707 resource)"
        case confidentialWithoutSecret = "a first-party confidential client's token without its secret"
        case expired = "an expired token"
        case revoked = "a revoked token"

        var testDescription: String { rawValue }
    }

    /// What a cell of the matrix answers.
    struct Outcome: Equatable {
        var status: HTTPResponse.Status
        /// The `error` of the bearer challenge or the failure node.
        var error: String?
    }

    static func configure(_ configuration: inout ServerConfiguration) {
        configuration.resources = [api]
    }

    @Test(
        "only a first-party app's fresh token for Limen alone changes an account",
        arguments: Path.allCases, Holder.allCases)
    func matrix(_ path: Path, _ holder: Holder) async throws {
        try await FlowFixture.run(configure: Self.configure) { fixture in
            try await Self.addFirstPartyWeb(to: fixture)
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            try await Self.addPasskey(for: grace, in: fixture)
            if path.needsTwoStep { try await Self.enableTwoStep(for: grace, in: fixture) }
            let (token, secret) = try await Self.token(of: holder, for: grace, in: fixture)
            let outcome = try await Self.send(
                path, bearer: token, clientSecret: secret, clientID: holder.clientID, in: fixture)

            let kinds = try await fixture.provider.store.identities(userID: grace.id).map(\.kind).sorted()
            let stored = try await fixture.provider.store.user(id: grace.id)
            let passkeys = try await fixture.provider.store.passkeyCredentials(userID: grace.id).map(\.name)
            let twoStep = try await fixture.provider.store.secondFactor(userID: grace.id)?.recoveryCodeHashes
            if holder == .firstPartyFresh {
                #expect((200..<300).contains(outcome.status.code), "\(outcome)")
                switch path {
                case .deleteAccount: #expect(stored == nil)
                case .unlinkIdentity: #expect(kinds == ["email"])
                case .linkingFlowStart, .phoneLinkingFlowStart, .passkeyRegistrationStart, .twoStepSetupStart:
                    #expect(stored != nil)
                case .renamePasskey: #expect(passkeys == ["Renamed"])
                case .removePasskey: #expect(passkeys.isEmpty)
                case .newRecoveryCodes: #expect(twoStep?.count == 10)
                case .disableTwoStep: #expect(twoStep == nil)
                }
                return
            }
            if path.needsTwoStep {
                #expect(twoStep == [try Self.recoveryCodeHash()], "two-step sign-in is kept as it was, its code unused")
            }
            #expect(outcome == holder.expectedRefusal, "\(path) with \(holder)")
            #expect(stored != nil, "the account is kept")
            #expect(kinds == ["email", "password"], "the identities are kept")
            #expect(passkeys == ["Laptop"], "the passkey is kept as it was")
        }
    }

    @Test("a first-party confidential client that sends its secret with a fresh token may change the account")
    func confidentialClientWithItsSecret() async throws {
        try await FlowFixture.run(configure: Self.configure) { fixture in
            try await Self.addFirstPartyWeb(to: fixture)
            let grace = try #require(try await fixture.provider.store.user(email: FlowFixture.email))
            try await Self.addPasskey(for: grace, in: fixture)
            let paths: [Path] = [
                .linkingFlowStart, .phoneLinkingFlowStart, .passkeyRegistrationStart, .twoStepSetupStart,
                .renamePasskey, .removePasskey, .newRecoveryCodes, .disableTwoStep, .unlinkIdentity, .deleteAccount,
            ]
            for path in paths {
                if path.needsTwoStep { try await Self.enableTwoStep(for: grace, in: fixture) }
                let (token, _) = try await Self.token(of: .confidentialWithoutSecret, for: grace, in: fixture)
                let wrong = try await Self.send(
                    path, bearer: token, clientSecret: "not-the-secret", clientID: Self.firstPartyWeb, in: fixture)
                #expect(wrong == Holder.confidentialWithoutSecret.expectedRefusal, "\(path): \(wrong)")
                let outcome = try await Self.send(
                    path, bearer: token, clientSecret: Self.firstPartyWebSecret, clientID: Self.firstPartyWeb,
                    in: fixture)
                #expect((200..<300).contains(outcome.status.code), "\(path): \(outcome)")
            }
            #expect(try await fixture.provider.store.user(id: grace.id) == nil)
        }
    }

    @Test("a guest's token from a first-party app starts a linking flow however old the guest's sign-in is")
    func guests() async throws {
        try await FlowFixture.run(configure: Self.configure) { fixture in
            let guest = try await fixture.guestTokens()
            fixture.clock.advance(by: 400)
            let linking = try await Self.send(
                .linkingFlowStart, bearer: try TokenFixture.accessToken(guest), clientSecret: nil, clientID: "app",
                in: fixture)
            #expect(linking.status == .ok, "a guest has no sign-in to renew: \(linking)")
        }
    }

    @Test("a browser session may change its account within account_change_max_age of its sign-in; a guest's always")
    func browserSessions() async throws {
        try await withSignIn { fixture in
            let gate = fixture.provider.accountChangeGate
            let user = try #require(try await fixture.provider.store.user(id: fixture.user.id))
            let guest = UserRecord(id: "guest", email: nil, createdAt: fixture.clock.now)
            let signedIn = fixture.clock.now
            func refusal(_ user: UserRecord) -> AccountChangeRefusal? {
                let session = BrowserSessionRecord(
                    idHash: Data([1]), subject: user.id, authTime: signedIn, expiresAt: signedIn + 86_400)
                guard case .failure(let refusal) = gate.authorize(session: session, user: user) else { return nil }
                return refusal
            }
            #expect(refusal(user) == nil && refusal(guest) == nil)
            fixture.clock.advance(by: gate.maxAge)
            #expect(refusal(user) == nil, "at maxAge exactly the sign-in is recent enough")
            fixture.clock.advance(by: 1)
            #expect(refusal(user) == .staleAuthentication(maxAge: Int(gate.maxAge)))
            #expect(refusal(guest) == nil, "a guest has no sign-in to renew")
        }
    }

    // MARK: Tokens

    /// The ID of the passkey ``addPasskey(for:in:)`` gives Grace.
    static let passkeyID = Data([7, 7, 7, 7])

    /// Gives `user` a passkey named "Laptop".
    static func addPasskey(for user: UserRecord, in fixture: TokenFixture) async throws {
        let stored = try await fixture.provider.store.insertPasskeyCredential(
            PasskeyCredentialRecord(
                credentialID: passkeyID, userID: user.id, userHandle: Data([1]), publicKey: Data([0xa0]), signCount: 0,
                isBackupEligible: true, isBackedUp: true, name: "Laptop", createdAt: fixture.clock.now))
        #expect(stored)
    }

    /// The recovery code ``enableTwoStep(for:in:)`` gives Grace, which the two-step paths send as their fresh second
    /// factor.
    static let recoveryCode = "abcdef-ghjkmn"

    /// The hash of ``recoveryCode``.
    static func recoveryCodeHash() throws -> Data {
        try #require(RecoveryCode(typed: recoveryCode)).hash
    }

    /// Turns two-step sign-in on for `user` afresh, with ``recoveryCode`` as their one recovery code.
    static func enableTwoStep(for user: UserRecord, in fixture: TokenFixture) async throws {
        _ = try await fixture.provider.store.deleteSecondFactor(userID: user.id)
        let enrolment = try fixture.provider.flowServices.secondFactors.newEnrolment(for: user)
        let enabled = try await fixture.provider.store.insertSecondFactor(
            SecondFactorRecord(
                userID: user.id, sealedTOTPSecret: enrolment.sealedSecret, recoveryCodeHashes: [try recoveryCodeHash()],
                enabledAt: fixture.clock.now))
        #expect(enabled)
    }

    /// The first-party confidential client `first-web`, with the native redirect so that codes can be made for it.
    static func addFirstPartyWeb(to fixture: TokenFixture) async throws {
        try await fixture.provider.store.insertClientIfAbsent(
            ClientRecord(
                id: firstPartyWeb, name: "First-party web", kind: .confidential,
                secretHash: ClientSecret.hash(firstPartyWebSecret), redirectURIs: [TokenFixture.nativeRedirect],
                isFirstParty: true, createdAt: fixture.clock.now))
    }

    /// The access token `holder` holds for `user`, and the client secret it can send (none but the first-party web
    /// client's, which ``Holder/confidentialWithoutSecret`` does not send).
    static func token(of holder: Holder, for user: UserRecord, in fixture: TokenFixture) async throws
        -> (token: String, secret: String?)
    {
        let clientID = holder.clientID
        let code = try await fixture.issueCode(for: user, clientID: clientID)
        var fields: [(String, String?)] = [
            ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", TokenFixture.nativeRedirect),
            ("client_id", clientID), ("code_verifier", PKCE.fixture.verifier),
        ]
        if clientID == firstPartyWeb { fields.append(("client_secret", firstPartyWebSecret)) }
        if holder == .resourceToken { fields.append(("resource", api)) }
        let tokens = try await fixture.post("/token", FormEncoding.present(fields))
        let token = try TokenFixture.accessToken(tokens)
        switch holder {
        case .firstPartyStale: fixture.clock.advance(by: 301)
        case .expired: fixture.clock.advance(by: 601)
        case .revoked:
            let revoked = try await fixture.post("/revoke", [("token", token), ("client_id", clientID)])
            #expect(revoked.status == .ok)
        default: break
        }
        return (token, nil)
    }

    // MARK: Requests

    /// Sends `path` with `token` (and `clientSecret`, as the path takes it) and reads what it answered.
    static func send(
        _ path: Path,
        bearer token: String,
        clientSecret: String?,
        clientID: String,
        in fixture: TokenFixture
    ) async throws -> Outcome {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        let response: RecordedResponse
        switch path {
        case .deleteAccount, .unlinkIdentity:
            let target = path == .deleteAccount ? "/v1/me" : "/v1/me/identities/password"
            let body = clientSecret.map { FormEncoding.encode([("client_secret", $0)]) }
            if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
            response = try await fixture.send(.delete, target, headers: headers, body: body)
        case .renamePasskey:
            headers[.contentType] = "application/json"
            var body: [String: JSONValue] = ["name": .string("Renamed")]
            body["client_secret"] = clientSecret.map(JSONValue.string)
            response = try await fixture.send(
                .patch, "/v1/me/passkeys/\(Base64URL.encode(passkeyID))", headers: headers,
                body: String(decoding: JSONValue.object(body).serialized(), as: UTF8.self))
        case .removePasskey:
            let body = clientSecret.map { FormEncoding.encode([("client_secret", $0)]) }
            if body != nil { headers[.contentType] = "application/x-www-form-urlencoded" }
            response = try await fixture.send(
                .delete, "/v1/me/passkeys/\(Base64URL.encode(passkeyID))", headers: headers, body: body)
        case .newRecoveryCodes, .disableTwoStep:
            headers[.contentType] = "application/x-www-form-urlencoded"
            let body = FormEncoding.encode(
                FormEncoding.present([("code", recoveryCode), ("client_secret", clientSecret)]))
            response =
                path == .disableTwoStep
                ? try await fixture.send(.delete, "/v1/me/totp", headers: headers, body: body)
                : try await fixture.send(.post, "/v1/me/recovery-codes", headers: headers, body: body)
        case .linkingFlowStart, .phoneLinkingFlowStart, .passkeyRegistrationStart, .twoStepSetupStart:
            let flows: [Path: String] = [
                .linkingFlowStart: "email-code", .phoneLinkingFlowStart: "phone-code", .twoStepSetupStart: "totp-enrol",
            ]
            let flow = flows[path] ?? "passkey-register"
            let fields: [(String, String?)] = [
                ("client_id", clientID), ("redirect_uri", TokenFixture.nativeRedirect), ("scope", "openid email"),
                ("state", "s-1"), ("code_challenge", PKCE.fixture.challenge), ("code_challenge_method", "S256"),
                ("client_secret", clientSecret),
            ]
            response = try await fixture.post("/flows/\(flow)", FormEncoding.present(fields), headers: headers)
        }
        return Outcome(status: response.status, error: Self.error(of: response))
    }

    /// The `error` of the answer: the bearer challenge's, else a failure node's.
    static func error(of response: RecordedResponse) -> String? {
        if let challenge = response.headers[.wwwAuthenticate],
            let range = challenge.range(of: #"error="([a-z_]+)""#, options: .regularExpression)
        {
            return String(challenge[range].dropFirst(7).dropLast())
        }
        return response.node["code"]?.stringValue ?? response.json["error"]?.stringValue
    }
}

extension AccountChangeMatrixTests.Holder {
    /// The client whose token it holds.
    var clientID: String {
        switch self {
        case .thirdParty: "native"
        case .confidentialWithoutSecret: AccountChangeMatrixTests.firstPartyWeb
        default: "app"
        }
    }

    /// What every account-changing path answers it.
    var expectedRefusal: AccountChangeMatrixTests.Outcome {
        switch self {
        case .firstPartyFresh: .init(status: .ok, error: nil)
        case .firstPartyStale: .init(status: .unauthorized, error: "insufficient_user_authentication")
        case .thirdParty: .init(status: .forbidden, error: "insufficient_scope")
        case .resourceToken, .expired, .revoked: .init(status: .unauthorized, error: "invalid_token")
        case .confidentialWithoutSecret: .init(status: .unauthorized, error: "invalid_client")
        }
    }
}

extension TokenFixture {
    /// A fresh authorization code for `user` and `clientID` granting `scope` (native redirect, the PKCE fixture),
    /// signed in just now.
    func issueCode(
        for user: UserRecord,
        clientID: String,
        scope: String = "openid email profile offline_access"
    ) async throws -> String {
        let code = RandomToken.make(byteCount: 32)
        try await provider.store.insertAuthorizationCode(
            AuthorizationCodeRecord(
                codeHash: RandomIdentifier.hash(code), clientID: clientID, redirectURI: Self.nativeRedirect,
                subject: user.id, scope: scope, nonce: nil,
                codeChallenge: PKCE.fixture.challenge, authTime: clock.now, expiresAt: clock.now.addingTimeInterval(60)
            ))
        return code
    }

    /// `method path` with `headers` and an optional body.
    func send(_ method: HTTPRequest.Method, _ path: String, headers: HTTPFields, body: String?) async throws
        -> RecordedResponse
    {
        try await client.execute(
            uri: path, method: method, headers: headers, body: body.map { ByteBuffer(string: $0) } ?? ByteBuffer()
        ) { response in
            RecordedResponse(
                status: response.status, headers: response.headers, body: Data(response.body.readableBytesView))
        }
    }
}
