import Foundation
import LimenOIDC
import LimenServerStorage
import LimenTestSupport
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// The headless Chromium peer (`Tests/Peers/chromium`): Debian's `chromium` and `chromium-driver`, and Selenium.
enum ChromiumPeer {
    /// The script that drives the browser through sign-up, consent and sign-out.
    static let script = PythonPeer.script("Tests/Peers/chromium/sign_in.py")
    /// The script that drives the browser through the account page.
    static let accountScript = PythonPeer.script("Tests/Peers/chromium/account.py")
    /// The script that drives the browser through every page the flows render, checking each with axe-core.
    static let flowPagesScript = PythonPeer.script("Tests/Peers/chromium/flow_pages.py")
    /// The script that opens an email's link in the browser that asked for the code, and in another.
    static let emailLinkScript = PythonPeer.script("Tests/Peers/chromium/email_link.py")
    /// The script that makes the browser a guest, then creates an account in the same browser.
    static let guestUpgradeScript = PythonPeer.script("Tests/Peers/chromium/guest_upgrade.py")
    /// The script that signs in through glewlwyd, an upstream provider, with its own login page.
    static let upstreamScript = PythonPeer.script("Tests/Peers/chromium/upstream_glewlwyd.py")
    /// The script that signs in with a passkey held by Chromium's virtual authenticator.
    static let passkeyScript = PythonPeer.script("Tests/Peers/chromium/passkey.py")
    /// The script that adds a passkey and turns on two-step sign-in on the account page, then signs in with each.
    static let accountPasskeysScript = PythonPeer.script("Tests/Peers/chromium/account_passkeys.py")
    /// A native app's IDP collector through glewlwyd, Chromium as the web session.
    static let nativeUpstreamScript = PythonPeer.script("Tests/Peers/chromium/native_upstream_glewlwyd.py")

    /// Registers the public native client the scripts sign in with (`browser-test`, any loopback port).
    static func registerClient(
        in provider: ServerComposition,
        id: String = "browser-test",
        firstParty: Bool = false
    ) async throws -> ClientRecord {
        let (client, _) = try ClientRegistration(
            id: id, name: "Browser Test", kind: .public, isNative: true, isFirstParty: firstParty,
            redirectURIs: ["http://127.0.0.1/callback"]
        ).record(now: provider.now())
        #expect(try await provider.store.insertClientIfAbsent(client))
        return client
    }

    /// Why the browser test cannot run, or `nil` when it can. With `LIMEN_REQUIRE_PEERS=1` (CI) it always runs, so a
    /// missing browser fails instead of being skipped.
    static let unavailableReason: String? = {
        if Peers.areRequired { return nil }
        let install = "run Tests/Peers/chromium/install.sh"
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"]
        where !FileManager.default.isExecutableFile(atPath: tool) {
            return "\(tool) is missing: \(install)"
        }
        return Peers.missingPythonModules("selenium, axe_core_python", install: install)
    }()
}

/// Runs `body` with a live server (``withLiveServer``) whose mail goes to a real SMTP server on 127.0.0.1: the scripts
/// read the codes it keeps in its directory.
func withMailedLiveServer(
    configure: @escaping (inout ServerConfiguration) -> Void = { _ in },
    _ body: (ServerComposition, String, SMTPPeer) async throws -> Void
) async throws {
    try await SMTPPeer.with { peer in
        let mailed: (inout ServerConfiguration) -> Void = {
            $0.mailTransport = MailTransport(url: "smtp://127.0.0.1:\(peer.port)") ?? .log
            configure(&$0)
        }
        try await withLiveServer(configure: mailed) { provider, issuer in try await body(provider, issuer, peer) }
    }
}

/// What `sign_in.py` prints.
private struct BrowserSummary: Decodable {
    let redirectURI: String
    let code: String?
    let state: String?
    let sentState: String
    let iss: String?
    let landedCode: String?
    let consentAccount: String
    let sessionCookieAfterLogout: Bool
    let signInFormAfterLogout: Bool
    let screenshot: String

    enum CodingKeys: String, CodingKey {
        case redirectURI = "redirect_uri"
        case code, state
        case sentState = "sent_state"
        case iss
        case landedCode = "landed_code"
        case consentAccount = "consent_account"
        case sessionCookieAfterLogout = "session_cookie_after_logout"
        case signInFormAfterLogout = "sign_in_form_after_logout"
        case screenshot
    }
}

@Suite(
    "A real browser (headless Chromium) through the hosted pages",
    .enabled(
        if: ChromiumPeer.unavailableReason == nil,
        Comment(rawValue: ChromiumPeer.unavailableReason ?? "")
    ),
    // One browser at a time: two headless Chromiums at once on a small CI machine slow each page past the scripts'
    // waits.
    .serialized
)
struct ChromiumPeerTests {
    @Test(
        "sign-up via the sign-in page with the mailed code, consent, the code at the client's redirect; sign-out shows sign-in again",
        .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
    func signUpConsentAndSignOut() async throws {
        try await withMailedLiveServer { provider, issuer, peer in
            let client = try await ChromiumPeer.registerClient(in: provider)
            let email = "grace@example.com"

            let output = try await PythonPeer.run([
                ChromiumPeer.script.path, "--issuer", issuer, "--client-id", client.id, "--email", email,
                "--password", "a long enough password", "--mail-dir", peer.directory.path,
            ])
            let summary = try JSONDecoder().decode(BrowserSummary.self, from: output)

            #expect(summary.state == summary.sentState)
            #expect(summary.iss == issuer)
            #expect(summary.landedCode == summary.code, "the browser itself ended on the redirect with the code")
            #expect(summary.consentAccount.contains(email))
            #expect(!summary.sessionCookieAfterLogout)
            #expect(summary.signInFormAfterLogout)
            let png = try Data(contentsOf: URL(fileURLWithPath: summary.screenshot))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG file")

            let code = try #require(summary.code)
            let user = try #require(try await provider.store.user(email: email), "sign-up created the account")
            #expect(user.emailVerified, "the mailed code proved the address")
            let redemption = try await provider.store.redeemAuthorizationCode(
                hash: RandomIdentifier.hash(code), clientID: client.id, grantID: "browser-test-grant",
                now: provider.now())
            guard case .redeemed(let stored) = redemption else {
                Issue.record("the code is not in the store: \(redemption)")
                return
            }
            #expect(stored.clientID == client.id && stored.subject == user.id)
            #expect(stored.redirectURI == summary.redirectURI)
        }
    }

    @Test(
        "every page the flows render passes axe-core; an operator's required checkbox shows and is enforced",
        .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
    func flowPagesAccessible() async throws {
        let file = try FlowPageFixtures.signUpWithTermsFile()
        defer { try? FileManager.default.removeItem(atPath: file) }
        let useFile: (inout ServerConfiguration) -> Void = { $0.flowFiles = [file] }
        try await withMailedLiveServer(configure: useFile) { provider, issuer, peer in
            let client = try await ChromiumPeer.registerClient(in: provider)
            let branded = try await ChromiumPeer.registerClient(in: provider, id: "browser-brand")
            let pale = ClientBranding(displayName: "Pale Shop", accentColor: "#ffd23f", theme: .dark)
            #expect(try await provider.store.updateClientBranding(id: branded.id, branding: pale))
            let email = "hedy@example.com"
            let output = try await PythonPeer.run([
                ChromiumPeer.flowPagesScript.path, "--issuer", issuer, "--client-id", client.id, "--email", email,
                "--password", "a long enough password", "--mail-dir", peer.directory.path,
                "--branded-client-id", branded.id,
            ])
            let summary = try JSONDecoder().decode(FlowPagesSummary.self, from: output)
            #expect(summary.pages.count == 13)
            for page in summary.pages {
                #expect(page.passes > 10, "axe-core ran its rules on \(page.page)")
                #expect(page.violations.isEmpty, "\(page.page) at \(page.url): \(page.violations)")
            }
            #expect(summary.refusedSignUp.heading == "Create your account", "refused on the same page")
            #expect(summary.refusedSignUp.alert == "I accept the terms is required.")
            #expect(summary.refusedSignUp.termsError == "I accept the terms is required.")
            #expect(summary.refusedSignUp.termsDescribedBy == "terms-error form-error")
            #expect(summary.refusedSignUp.emailKept == email)
            #expect(summary.callbacks == 3, "sign-up, password reset and email code each reached the client")
            #expect(try await provider.store.user(email: email)?.emailVerified == true)
        }
    }

    @Test(
        "an email's link opened in the browser that asked signs in; in another browser it shows the code unused; every page passes axe-core",
        .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
    func emailLinkInTheBrowser() async throws {
        try await withMailedLiveServer { provider, issuer, peer in
            let client = try await ChromiumPeer.registerClient(in: provider)
            let email = "barbara@example.com"
            _ = try await provider.accounts.signUp(
                email: email, password: "a long enough password", name: "Barbara", origin: RequestOrigin())
            let output = try await PythonPeer.run([
                ChromiumPeer.emailLinkScript.path, "--issuer", issuer, "--client-id", client.id, "--email", email,
                "--password", "a long enough password", "--mail-dir", peer.directory.path,
            ])
            let summary = try JSONDecoder().decode(EmailLinkSummary.self, from: output)
            #expect(summary.link.hasPrefix(issuer + EmailLink.hostedPath + "#limen_interaction=page."))
            #expect(
                summary.pages.map(\.page) == [
                    "email link: no fragment", "email link: another browser", "email link: wrong code",
                ])
            for page in summary.pages {
                #expect(page.passes > 10, "axe-core ran its rules on \(page.page)")
                #expect(page.violations.isEmpty, "\(page.page) at \(page.url): \(page.violations)")
            }
            #expect(summary.elsewhere.code == summary.code, "the other browser shows the code to type")
            #expect(summary.elsewhere.url == issuer + EmailLinkRoutes.submitPath, "the fragment left the address bar")
            #expect(!summary.elsewhere.sessionCookie)
            #expect(summary.refused.alert == "The code is not correct, or no longer works.")
            #expect(summary.refused.url == issuer + EmailLinkRoutes.submitPath)
            #expect(summary.landedCode != nil, "the browser that asked ended at the client with a code")
            #expect(summary.callbacks == 1)
            #expect(try await provider.store.user(email: email)?.emailVerified == true, "the code proved the address")
        }
    }

    @Test(
        "the account page: encrypted fields shown as encrypted on the device, a field saved, signed out everywhere; the account deleted with the password (a wrong one deletes nothing), and its password no longer signs in",
        .enabled(if: SMTPPeer.unavailableReason == nil, "aiosmtpd is not installed"))
    func accountPage() async throws {
        try await withMailedLiveServer { provider, issuer, peer in
            let client = try await ChromiumPeer.registerClient(in: provider)
            try await provider.installProfileSchema()
            let email = "katherine@example.com"
            let output = try await PythonPeer.run([
                ChromiumPeer.accountScript.path, "--issuer", issuer, "--client-id", client.id, "--email", email,
                "--password", "a long enough password", "--mail-dir", peer.directory.path, "--nickname", "kj",
            ])
            let summary = try JSONDecoder().decode(AccountSummary.self, from: output)
            #expect(summary.notice == "Saved.")
            #expect(summary.encrypted.contains("diagnosis: encrypted on your device (no value yet)"))
            #expect(summary.savedNickname == "kj")
            #expect(summary.nicknameAfterSignIn == "kj", "the saved field was there when signed in again")
            let png = try Data(contentsOf: URL(fileURLWithPath: summary.screenshot))
            #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]), "a PNG file")

            #expect(summary.refusedDeletion == "The email or password is not correct.")
            #expect(summary.accountAfterRefusal == "Signed in as \(email)", "the wrong password deleted nothing")
            #expect(!summary.sessionCookieAfterDeletion, "the deletion signed the browser out")
            #expect(summary.signInAfterDeletion == "The email or password is not correct.")
            #expect(try await provider.store.user(email: email) == nil, "the account is gone")
            #expect(try await provider.store.users().isEmpty, "the only account the script made")
        }
    }
}

/// What `email_link.py` prints.
private struct EmailLinkSummary: Decodable {
    struct Elsewhere: Decodable {
        let code: String
        let url: String
        let sessionCookie: Bool

        enum CodingKeys: String, CodingKey {
            case code, url
            case sessionCookie = "session_cookie"
        }
    }

    struct Refused: Decodable {
        let alert: String
        let url: String
    }

    let pages: [FlowPagesSummary.CheckedPage]
    let link: String
    let code: String
    let elsewhere: Elsewhere
    let refused: Refused
    let landedCode: String?
    let callbacks: Int

    enum CodingKeys: String, CodingKey {
        case pages, link, code, elsewhere, refused, callbacks
        case landedCode = "landed_code"
    }
}

/// What `flow_pages.py` prints.
struct FlowPagesSummary: Decodable {
    struct CheckedPage: Decodable {
        let page: String
        let url: String
        let passes: Int
        let violations: [Violation]
    }

    struct Violation: Decodable, CustomStringConvertible {
        let id: String
        let impact: String?
        let nodes: [String]
        var description: String { "\(id) (\(impact ?? "?")): \(nodes.joined(separator: " | "))" }
    }

    struct RefusedSignUp: Decodable {
        let heading: String
        let alert: String
        let termsError: String
        let termsDescribedBy: String
        let emailKept: String

        enum CodingKeys: String, CodingKey {
            case heading, alert
            case termsError = "terms_error"
            case termsDescribedBy = "terms_described_by"
            case emailKept = "email_kept"
        }
    }

    let pages: [CheckedPage]
    let refusedSignUp: RefusedSignUp
    let callbacks: Int

    enum CodingKeys: String, CodingKey {
        case pages, callbacks
        case refusedSignUp = "refused_sign_up"
    }
}

/// What `account.py` prints.
private struct AccountSummary: Decodable {
    let encrypted: [String]
    let notice: String
    let savedNickname: String
    let screenshot: String
    let nicknameAfterSignIn: String
    let refusedDeletion: String?
    let accountAfterRefusal: String
    let sessionCookieAfterDeletion: Bool
    let signInAfterDeletion: String?

    enum CodingKeys: String, CodingKey {
        case encrypted, notice, screenshot
        case savedNickname = "saved_nickname"
        case nicknameAfterSignIn = "nickname_after_sign_in"
        case refusedDeletion = "refused_deletion"
        case accountAfterRefusal = "account_after_refusal"
        case sessionCookieAfterDeletion = "session_cookie_after_deletion"
        case signInAfterDeletion = "sign_in_after_deletion"
    }
}
