import Foundation
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

/// The script that signs an admin in to the console with a TOTP, registers a client, edits its redirect URIs and
/// rotates its secret, rotates the signing keys, disables a user and reads the events, registers a webhook, and opens the
/// flows and profile schema pages.
private let adminConsoleScript = PythonPeer.script("Tests/Peers/chromium/admin_console.py")

extension ChromiumPeerTests {
    @Test(
        "an admin with an authenticator app signs in to the console, registers a client whose secret shows once, edits its redirect URIs and rotates its secret, rotates the keys, disables a user, finds the events, registers a webhook whose secret shows once, and sees the flows and the schema; every page passes axe-core at 390 px without scrolling sideways"
    )
    func adminConsole() async throws {
        try await withLiveServer { provider, issuer in
            let admin = try await provider.accounts.signUp(
                email: "grace@example.com", password: "a long enough password", name: "Grace", origin: RequestOrigin())
            #expect(
                try await AdminRoles(store: provider.store, now: provider.now).grant(to: admin.id, origin: .commandLine)
            )
            let secret = try await provider.enableTOTPSecret(for: admin, at: provider.now())
            let ada = try await provider.accounts.signUp(
                email: "ada@example.com", password: "another long password", name: "Ada", origin: RequestOrigin())
            let output = try await PythonPeer.run([
                adminConsoleScript.path, "--issuer", issuer, "--email", "grace@example.com", "--password",
                "a long enough password", "--totp-secret", secret, "--disable", "ada@example.com",
            ])
            let decoder = JSONDecoder()
            decoder.keyDecodingStrategy = .convertFromSnakeCase
            let summary = try decoder.decode(AdminConsoleSummary.self, from: output)
            #expect(summary.signedInAs == "Signed in as grace@example.com")
            #expect(!summary.secretShownAgain)
            #expect(summary.listed.contains("billing"))
            #expect(summary.events.count == 1 && summary.events.first?.contains("admin.client_created") == true)
            #expect(summary.events.first?.contains("actor \(admin.id)") == true)
            let redirects = ["https://billing.example/new", "https://billing.example/other"]
            #expect(summary.edited.redirectUris == redirects)
            #expect(summary.edited.notice == "The settings are saved.")
            let edited = try #require(try await provider.store.client(id: "billing"))
            #expect(edited.redirectURIs == redirects)
            #expect(edited.isProved(bySecret: summary.edited.rotatedSecret), "the rotated secret is the client's now")
            #expect(!edited.isProved(bySecret: summary.secret), "the first secret is not")
            let kids = provider.keys.keys.map(\.kid)
            #expect(summary.keys.before.count == 2 && summary.keys.after == kids && kids.count == 4)
            #expect(summary.state == "disabled")
            #expect(try await provider.store.disabledAt(userID: ada.id) != nil)
            #expect(summary.disabledEvents.count == 1)
            #expect(summary.disabledEvents.first?.contains("user \(ada.id)") == true)
            #expect(summary.disabledEvents.first?.contains("actor \(admin.id)") == true)
            let webhook = try #require(try await provider.store.webhooks().first)
            #expect(summary.webhook.secret.hasPrefix("whsec_") && !summary.webhook.secretShownAgain)
            #expect(provider.webhooks.secret(of: webhook)?.rawValue == summary.webhook.secret)
            #expect(webhook.events == ["key.rotated"] && summary.webhook.heading == "Webhook")
            #expect(Set(summary.webhook.flows) == Set(provider.flows.flows.keys))
            #expect(summary.webhook.schema.contains("No profile fields are configured."))
            for (name, page) in summary.pages {
                #expect(page.passes > 10, "axe-core ran its rules on \(name)")
                #expect(page.violations.isEmpty, "\(name): \(page.violations)")
                #expect(!page.scrollsSideways, "\(name) scrolls sideways at 390 px")
            }
        }
    }
}

/// What `admin_console.py` prints (its keys in snake case).
private struct AdminConsoleSummary: Decodable {
    let signedInAs: String
    let secret: String
    let secretShownAgain: Bool
    let listed: [String]
    let events: [String]
    let state: String
    let disabledEvents: [String]
    let edited: EditedClient
    let keys: Keys
    let webhook: Webhook
    let pages: [String: Page]

    /// The client's page after its redirect URIs were saved and its secret rotated.
    struct EditedClient: Decodable {
        let redirectUris: [String]
        let notice: String
        let rotatedSecret: String
    }

    /// The key IDs the keys page listed before and after the rotation.
    struct Keys: Decodable {
        let before: [String]
        let after: [String]
    }

    /// The webhook registered (its secret, whether its page showed it again, that page's heading), the flows page's
    /// flow names and the schema page's text.
    struct Webhook: Decodable {
        let secret: String
        let secretShownAgain: Bool
        let heading: String
        let flows: [String]
        let schema: String
    }

    /// One page's checks: axe-core's passes and violations, and whether it scrolls sideways.
    struct Page: Decodable {
        let passes: Int
        let violations: [String]
        let scrollsSideways: Bool
    }
}
