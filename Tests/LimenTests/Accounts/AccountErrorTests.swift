import Foundation
import LimenOIDC
import TestSupport
import Testing

@testable import Limen

/// The account domain's values: errors and their codes, credentials that never show their password, the auth level in
/// the state, and the RFC 9470 challenge of `DELETE /v1/me`.
@Suite("Account errors and values")
struct AccountErrorTests {
    static let credentials = LoginCredentials(email: "ada@example.com", password: "hunter2 secret")

    @Test(
        "each case has a stable code, a description without the password, and says whether to sign in again",
        arguments: [
            (AccountError.migrationRequired(credentials), "account.migration_required", false),
            (.credentialInUse, "account.credential_in_use", false),
            (.accountHasEmail, "account.account_has_email", false),
            (.notAnonymous, "account.not_anonymous", false),
            (.lastIdentity, "account.last_identity", false),
            (.notLinked, "account.not_linked", false),
            (.reauthenticationRequired(maxAge: 300), "account.reauthentication_required", true),
            (.server(status: 500, code: nil), "account.server_error", false),
            (.malformedResponse("x"), "account.malformed_response", false),
        ])
    func codes(error: AccountError, code: String, reauthenticate: Bool) {
        #expect(error.code == code)
        #expect(LimenError.account(error).code == code)
        #expect(LimenError.account(error).requiresReauthentication == reauthenticate)
        #expect(!(error.errorDescription ?? "").contains("hunter2"))
        #expect(!String(describing: LimenError.account(error)).contains("hunter2"))
    }

    @Test("credentials show the address and never the password, however they are printed")
    func credentialsRedacted() {
        let credentials = Self.credentials
        for text in ["\(credentials)", String(reflecting: credentials), "\([credentials])"] {
            #expect(text.contains("ada@example.com"))
            #expect(!text.contains("hunter2"), "\(text)")
        }
    }

    @Test("a flow error node's details name the linking case; migration needs the credentials it would use")
    func details() {
        func detail(_ code: String) -> [FlowErrorDetail] { [FlowErrorDetail(key: "email", code: code, message: "")] }
        #expect(
            AccountError(details: detail("migration_required"), credentials: Self.credentials)
                == .migrationRequired(Self.credentials))
        #expect(AccountError(details: detail("migration_required"), credentials: nil) == nil)
        #expect(AccountError(details: detail("credential_in_use"), credentials: nil) == .credentialInUse)
        #expect(AccountError(details: detail("account_has_email"), credentials: nil) == .accountHasEmail)
        #expect(AccountError(details: detail("invalid_credentials"), credentials: nil) == nil)
        #expect(Self.credentials == LoginCredentials(email: "ada@example.com", password: "hunter2 secret"))
    }

    @Test(
        "a flow's network and client failures keep their domains; the rest is LimenError.flow",
        arguments: [
            (FlowError.network(.timeout), LimenError.network(.timeout)),
            (.client(.sessionExpired), .sessionExpired),
            (.incomplete(step: "code"), .flow(.incomplete(step: "code"))),
        ])
    func flowErrors(flow: FlowError, limen: LimenError) {
        #expect(LimenError(flow) == limen)
        #expect(LimenError(flow).code == flow.code)
    }

    @Test(
        "the auth_level claim is the state's level; isAnonymous only for a guest; no claim, no level",
        arguments: [
            (JSONValue.string("guest"), AuthLevel.guest as AuthLevel?, true),
            (.string("unverified"), .unverified, false),
            (.string("verified"), .verified, false),
            (.string("platinum"), nil, false),
            (.number(1), nil, false),
        ])
    func level(claim: JSONValue, level: AuthLevel?, anonymous: Bool) {
        let tokens = TokenSet(
            accessToken: "at", refreshToken: nil, idToken: nil, expiresAt: nil, scope: nil, subject: "u",
            claims: ["sub": .string("u"), AuthLevel.claimName: claim])
        let state = AuthState.signedIn(tokens)
        #expect(state.auth.level == level)
        #expect(state.auth.isAnonymous == anonymous)
        #expect(state.auth.description.contains("level: \(level?.rawValue ?? "nil")"))
        var other = tokens
        other.claims = ["sub": .string("u")]
        #expect(AuthState.signedIn(other).auth.level == nil, "a provider without the claim")
    }
}
