import Crypto
import Foundation
import HTTPTypes
import LimenOIDC
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite(
    "Client branding: set through the admin API (PUT or at registration), kept with the client, applied to the hosted pages"
)
struct ClientBrandingTests {
    static let branding = """
        {"display_name": "Example Shop", "logo_uri": "https://cdn.example/logo.png", "accent_color": "#0b6e4f",
         "theme": "dark"}
        """

    @Test("PUT sets a client's branding, GET shows it, an empty object removes it", arguments: TokenBackend.allCases)
    func setShowRemove(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            let set = try await fixture.admin(.put, "/admin/clients/web/branding", token: token, json: Self.branding)
            #expect(set.status == .ok)
            let shown = try #require(set.json["branding"]?.objectValue)
            #expect(shown["display_name"] == .string("Example Shop"))
            #expect(shown["logo_uri"] == .string("https://cdn.example/logo.png"))
            #expect(shown["accent_color"] == .string("#0b6e4f"))
            #expect(shown["theme"] == .string("dark"))
            let stored = try await fixture.provider.store.client(id: "web")?.branding
            #expect(
                stored
                    == ClientBranding(
                        displayName: "Example Shop", logoURL: "https://cdn.example/logo.png",
                        accentColor: "#0b6e4f", theme: .dark))
            let read = try await fixture.admin(.get, "/admin/clients/web", token: token)
            #expect(read.json["branding"] == set.json["branding"])
            let removed = try await fixture.admin(.put, "/admin/clients/web/branding", token: token, json: "{}")
            #expect(removed.status == .ok && removed.json["branding"] == nil)
            #expect(try await fixture.provider.store.client(id: "web")?.branding == nil)
        }
    }

    /// Branding the admin API refuses, whether `PUT` or in a registration, and the member each refusal names.
    static let invalidBranding = [
        (#"{"logo_uri": "http://cdn.example/logo.png"}"#, "logo_uri"),
        (#"{"logo_uri": "https://user:pw@cdn.example/logo.png"}"#, "logo_uri"),
        (#"{"logo_uri": "https://cdn.example/a;b.png"}"#, "logo_uri"),
        (#"{"logo_uri": "/logo.png"}"#, "logo_uri"),
        (#"{"accent_color": "red"}"#, "accent_color"),
        (##"{"accent_color": "#12345g"}"##, "accent_color"),
        (#"{"theme": "sepia"}"#, "theme"),
        (#"{"display_name": ""}"#, "display_name"),
        (##"{"colour": "#000000"}"##, "colour"),
    ]

    /// A registration of the client `shop` (redirect `https://shop.example/cb`) with `branding` as its member's JSON.
    static func registration(branding: String) -> String {
        #"{"client_id": "shop", "redirect_uris": ["https://shop.example/cb"], "branding": \#(branding)}"#
    }

    @Test("refusals name the member and change nothing", arguments: invalidBranding)
    func refusals(_ json: String, _ member: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let refused = try await fixture.admin(.put, "/admin/clients/web/branding", token: token, json: json)
            #expect(refused.status == .badRequest)
            #expect(refused["error_description"]?.hasPrefix(member) == true, "\(refused.text)")
            #expect(try await fixture.provider.store.client(id: "web")?.branding == nil)
        }
    }

    @Test(
        "a registration with branding keeps it: the answer and GET show it, and the sign-in page applies it",
        arguments: TokenBackend.allCases)
    func registerWithBranding(_ backend: TokenBackend) async throws {
        try await TokenFixture.runAdmin(on: backend) { fixture, token in
            let registered = try await fixture.admin(
                .post, "/admin/clients", token: token, json: Self.registration(branding: Self.branding))
            #expect(registered.status == .created, "\(registered.text)")
            let shown = try #require(registered.json["branding"]?.objectValue)
            #expect(shown["display_name"] == .string("Example Shop"))
            #expect(shown["theme"] == .string("dark"))
            let read = try await fixture.admin(.get, "/admin/clients/shop", token: token)
            #expect(read.json["branding"] == registered.json["branding"])
            #expect(
                try await fixture.provider.store.client(id: "shop")?.branding
                    == ClientBranding(
                        displayName: "Example Shop", logoURL: "https://cdn.example/logo.png",
                        accentColor: "#0b6e4f", theme: .dark))

            var browser = Browser()
            let page = try await browser.send(
                fixture.client,
                SignInFixture.authorizeURI(client: "shop", [("redirect_uri", "https://shop.example/cb")]))
            #expect(page.body.contains(#"<html lang="en" class="theme-dark">"#), "\(page.body)")
            #expect(page.body.contains(#"<img class="logo" src="https://cdn.example/logo.png" alt="Example Shop">"#))
            let style = try #require(AccentStyle.css(accent: "#0b6e4f"))
            #expect(page.body.contains("<style>\(style)</style>"))
        }
    }

    @Test(
        "a registration whose branding PUT would refuse is 400 naming branding.<member>, and registers no client",
        arguments: invalidBranding)
    func registrationRefusals(_ branding: String, _ member: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let refused = try await fixture.admin(
                .post, "/admin/clients", token: token, json: Self.registration(branding: branding))
            #expect(refused.status == .badRequest)
            #expect(refused.error == "invalid_request")
            #expect(refused["error_description"]?.hasPrefix("branding.\(member)") == true, "\(refused.text)")
            #expect(try await fixture.provider.store.client(id: "shop") == nil)
        }
    }

    @Test(
        "a registration's branding naming a member twice, or not an object, is 400 and registers no client",
        arguments: [
            (#"{"theme": "dark", "theme": "light"}"#, "theme is given more than once"),
            (#""dark""#, "branding must be of type"),
        ])
    func registrationMalformedBranding(_ branding: String, _ description: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let refused = try await fixture.admin(
                .post, "/admin/clients", token: token, json: Self.registration(branding: branding))
            #expect(refused.status == .badRequest)
            #expect(refused["error_description"]?.hasPrefix(description) == true, "\(refused.text)")
            #expect(try await fixture.provider.store.client(id: "shop") == nil)
        }
    }

    @Test("an unknown client is 404, and the API needs the admin token")
    func unknownClientAndToken() async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let unknown = try await fixture.admin(.put, "/admin/clients/nobody/branding", token: token, json: "{}")
            #expect(unknown.status == .notFound)
            let anonymous = try await fixture.admin(.put, "/admin/clients/web/branding", token: nil, json: "{}")
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test("the pages show the display name, the logo, the theme and the accent, which the CSP allows and no more")
    func pagesApplyBranding() async throws {
        try await withSignIn { fixture in
            let unbranded = try await { () async throws -> Page in
                var browser = Browser()
                return try await browser.send(fixture.client, SignInFixture.authorizeURI(client: "web"))
            }()
            // The sign-in page carries the passkey script, for its autofill.
            #expect(unbranded.headers[.contentSecurityPolicy] == Pages.contentSecurityPolicy + PasskeyScript.directives)
            #expect(!unbranded.body.contains("<style>") && !unbranded.body.contains("<img"))

            let branding = ClientBranding(
                displayName: "Example Shop", logoURL: "https://cdn.example/logo.png?v=2", accentColor: "#0b6e4f",
                theme: .dark)
            #expect(try await fixture.provider.store.updateClientBranding(id: "web", branding: branding))
            var browser = Browser()
            let page = try await browser.send(fixture.client, SignInFixture.authorizeURI(client: "web"))
            #expect(page.body.contains(#"<html lang="en" class="theme-dark">"#))
            #expect(
                page.body.contains(#"<img class="logo" src="https://cdn.example/logo.png?v=2" alt="Example Shop">"#))
            #expect(page.body.contains("to continue to <strong>Example Shop</strong>"))
            let style = try #require(AccentStyle.css(accent: "#0b6e4f"))
            #expect(page.body.contains("<style>\(style)</style>"))
            let hash = Data(SHA256.hash(data: Data(style.utf8))).base64EncodedString()
            let policy = try #require(page.headers[.contentSecurityPolicy])
            #expect(policy.contains("style-src 'self' 'sha256-\(hash)';"))
            #expect(policy.contains("img-src 'self' https://cdn.example;"))
            #expect(policy.contains("default-src 'none'") && policy.contains("frame-ancestors 'none'"))

            let consent = try await browser.signIn(fixture.client, from: page)
            #expect(consent.body.contains("<strong>Example Shop</strong> would like to:"))
            #expect(consent.headers[.contentSecurityPolicy].map { $0 + PasskeyScript.directives } == policy)
        }
    }

    /// Hostile branding: a percent-encoded host that decodes to a policy directive, a wildcard host, and an accent in
    /// full-width digits; each with the member refused.
    static let hostileBranding = [
        (ClientBranding(logoURL: "https://a.example%3B%20script-src%20%2A/logo.png"), "logo_uri"),
        (ClientBranding(logoURL: "https://*/logo.png"), "logo_uri"),
        (ClientBranding(logoURL: "https://a.example_/logo.png"), "logo_uri"),
        (ClientBranding(accentColor: "#\u{FF11}\u{FF12}\u{FF13}\u{FF14}\u{FF15}\u{FF16}"), "accent_color"),
    ]

    @Test(
        "finding 9: a logo host that is not a DNS name or IP address, or a full-width accent, is refused at registration",
        arguments: hostileBranding)
    func hostileRegistration(_ branding: ClientBranding, _ member: String) async throws {
        try await TokenFixture.runAdmin { fixture, token in
            let json = String(decoding: try JSONEncoder().encode(branding), as: UTF8.self)
            let refused = try await fixture.admin(
                .post, "/admin/clients", token: token, json: Self.registration(branding: json))
            #expect(refused.status == .badRequest)
            #expect(refused["error_description"]?.hasPrefix("branding.\(member)") == true, "\(refused.text)")
            #expect(try await fixture.provider.store.client(id: "shop") == nil)
            #expect(throws: ClientBrandingError.self) { try branding.validated() }
        }
    }

    @Test(
        "finding 9: hostile branding stored anyway never reaches the page or its Content-Security-Policy",
        arguments: hostileBranding)
    func hostileStored(_ branding: ClientBranding, _ member: String) async throws {
        try await withSignIn { fixture in
            #expect(try await fixture.provider.store.updateClientBranding(id: "web", branding: branding))
            var browser = Browser()
            let page = try await browser.send(fixture.client, SignInFixture.authorizeURI(client: "web"))
            #expect(page.status == .ok)
            #expect(
                page.headers[.contentSecurityPolicy] == Pages.contentSecurityPolicy + PasskeyScript.directives,
                "\(member)")
            #expect(!page.body.contains("<img") && !page.body.contains("<style>"))
        }
    }

    @Test(
        "a logo's origin in the policy is its host as a DNS name or IP address, encoded as the URL writes it",
        arguments: [
            ("https://CDN.example/logo.png", "https://cdn.example"),
            ("https://cdn.example:8443/logo.png", "https://cdn.example:8443"),
            ("https://192.0.2.1/logo.png", "https://192.0.2.1"),
            ("https://[2001:db8::1]:8443/logo.png", "https://[2001:db8::1]:8443"),
            ("https://xn--bcher-kva.example/logo.png", "https://xn--bcher-kva.example"),
        ])
    func logoOrigin(_ url: String, _ origin: String) throws {
        #expect(ClientBranding.logoOrigin(of: url) == origin)
        #expect(try ClientBranding(logoURL: url).validated().logoURL == url)
    }

    @Test(
        "the accent keeps text readable: black or white on buttons, and links only where it contrasts 4.5:1",
        arguments: [
            ("#ffd23f", "#000000", "#2f5bd3", "#ffd23f"),
            ("#0b3d91", "#ffffff", "#0b3d91", "#8ab0ff"),
            ("#777777", "#000000", "#2f5bd3", "#8ab0ff"),
        ])
    func accentContrast(_ accent: String, _ onAccent: String, _ lightLink: String, _ darkLink: String) throws {
        let css = try #require(AccentStyle.css(accent: accent))
        #expect(css.hasPrefix(":root { --accent: \(accent); --on-accent: \(onAccent); --link: \(lightLink); }"))
        #expect(
            css.contains(":root.theme-dark { --accent: \(accent); --on-accent: \(onAccent); --link: \(darkLink); }"))
        // WCAG 2: black on white is 21:1.
        #expect(AccentStyle.contrast(try #require(AccentStyle.luminance("#000000")), 1) == 21)
        #expect(AccentStyle.css(accent: "red") == nil)
    }
}
