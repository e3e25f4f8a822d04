import Crypto
import Foundation
import LimenServerStorage
import LimenTestSupport
import LimenWire
import Testing

@testable import LimenServer
@testable import LimenServerCore

extension ChromiumPeerTests {
    @Test(
        "a passkey in Chromium's virtual authenticator signs in on the hosted passkey page, which passes axe-core")
    func passkeySignIn() async throws {
        // WebAuthn takes no IP address as an RP ID: the server answers on localhost, its default RP ID then.
        let onLocalhost: (inout ServerConfiguration) -> Void = { $0.host = "localhost" }
        try await withLiveServer(configure: onLocalhost) { provider, issuer in
            let client = try await ChromiumPeer.registerClient(in: provider, firstParty: true)
            let user = try await provider.accounts.signUp(
                email: "radia@example.com", password: "a long enough password", name: "Radia", origin: RequestOrigin())
            let key = P256.Signing.PrivateKey()
            let credentialID = Data(RandomToken.bytes(count: 16))
            let handle = try await provider.store.passkeyUserHandle(
                userID: user.id, candidate: Data(RandomToken.bytes(count: 32)))
            let stored = try await provider.store.insertPasskeyCredential(
                PasskeyCredentialRecord(
                    credentialID: credentialID, userID: user.id, userHandle: handle,
                    publicKey: Data(SoftwareAuthenticator.coseKey(key.publicKey)), signCount: 0,
                    isBackupEligible: false, isBackedUp: false, name: "Chromium", createdAt: provider.now()))
            #expect(stored)

            let output = try await PythonPeer.run([
                // `--name=value`: a base64url value may start with "-", which argparse would take for an option.
                ChromiumPeer.passkeyScript.path, "--issuer", issuer, "--client-id", client.id, "--rp-id", "localhost",
                "--credential-id=\(Base64URL.encode(credentialID))", "--user-handle=\(Base64URL.encode(handle))",
                "--private-key=\(Base64URL.encode(key.derRepresentation))",
            ])
            let summary = try JSONDecoder().decode(PasskeyBrowserSummary.self, from: output)
            let code = try #require(summary.callback["code"])
            let redeemed = try #require(
                try await provider.store.redeemedCode(
                    hash: RandomIdentifier.hash(code), now: provider.now(), clientID: client.id))
            #expect(redeemed.subject == user.id)
            #expect(summary.axe.passes > 10, "axe-core ran its rules")
            #expect(summary.axe.violations.isEmpty, "\(summary.axe.violations)")
            #expect(summary.signCount == 1, "the browser's authenticator signed once")
            #expect(try await provider.store.passkeyCredential(id: credentialID)?.signCount == 1)
        }
    }
}

extension ChromiumPeerTests {
    @Test(
        "the account page adds a passkey from Chromium's authenticator, which signs in by the button and by autofill; two-step sign-in set up there completes a password sign-in; both pages pass axe-core"
    )
    func accountPasskeyAndTwoStep() async throws {
        let onLocalhost: (inout ServerConfiguration) -> Void = { $0.host = "localhost" }
        try await withLiveServer(configure: onLocalhost) { provider, issuer in
            let client = try await ChromiumPeer.registerClient(in: provider, firstParty: true)
            try await provider.installProfileSchema()
            let user = try await provider.accounts.signUp(
                email: "mary@example.com", password: "a long enough password", name: "Mary", origin: RequestOrigin())
            let output = try await PythonPeer.run([
                ChromiumPeer.accountPasskeysScript.path, "--issuer", issuer, "--client-id", client.id, "--email",
                "mary@example.com", "--password", "a long enough password",
            ])
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let summary = try decoder.decode(AccountPasskeysSummary.self, from: output)
            #expect(summary.added == ["The passkey is saved: next time, sign in with it."])
            #expect(summary.listed.count == 1)
            #expect(summary.listed.first?.hasPrefix("Chromium: created ") == true)
            #expect(try await provider.store.passkeyCredentials(userID: user.id).map(\.name) == ["Chromium"])
            #expect(summary.credentials == 1, "the browser's authenticator holds the passkey")
            // Signing out everywhere ends the earlier codes too: the last one, after the second step, is redeemed.
            #expect(
                summary.passwordCode != nil && summary.passkeyCode != nil && summary.autofillCode != nil,
                "the sign-ins with the password, the passkey button and the passkey from autofill reached the client")
            #expect(summary.autofillPage.conditionalFields == 1, "the sign-in node carries the autofill's request")
            #expect(summary.autofillPage.fetches == 0, "the autofill starts with the page's own challenge")
            let passkey = try #require(try await provider.store.passkeyCredentials(userID: user.id).first)
            #expect(passkey.lastUsedAt != nil, "the passkey signed in")
            let redeemed = try await provider.store.redeemedCode(
                hash: RandomIdentifier.hash(try #require(summary.secondStepCode)), now: provider.now(),
                clientID: client.id)
            #expect(redeemed?.subject == user.id)
            #expect(summary.twoStep == ["Two-step sign-in is on; 10 recovery codes left."])
            #expect(summary.recoveryCodes == 10)
            for axe in [summary.axePasskeys, summary.axeSetup] {
                #expect(axe.passes > 10, "axe-core ran its rules")
                #expect(axe.violations.isEmpty, "\(axe.violations)")
            }
        }
    }
}

/// What `account_passkeys.py` prints (its keys in snake case).
private struct AccountPasskeysSummary: Decodable {
    let passwordCode: String?
    let added: [String]
    let listed: [String]
    let axePasskeys: PasskeyBrowserSummary.Axe
    let passkeyCode: String?
    let autofillCode: String?
    let autofillPage: AutofillPage
    let axeSetup: PasskeyBrowserSummary.Axe
    let twoStep: [String]
    let recoveryCodes: Int
    let secondStepCode: String?
    let credentials: Int
}

/// What `account_passkeys.py` saw on the sign-in page before a passkey was picked: its conditional `PASSKEY` fields,
/// and the `fetch` requests its script made.
private struct AutofillPage: Decodable {
    let conditionalFields: Int
    let fetches: Int
}

/// What `passkey.py` prints.
private struct PasskeyBrowserSummary: Decodable {
    struct Axe: Decodable {
        let passes: Int
        let violations: [String]
    }

    let callback: [String: String]
    let axe: Axe
    let signCount: Int

    enum CodingKeys: String, CodingKey {
        case callback, axe
        case signCount = "sign_count"
    }
}
