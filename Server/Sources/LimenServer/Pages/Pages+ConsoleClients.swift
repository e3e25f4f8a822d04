import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage

extension Pages {
    /// The console's page of `client` (``AdminConsoleRoutes/addClientPages(to:responder:gate:clients:)``) for the
    /// admin of `view`: its settings, branding and secret, each with its form, and `secret` when it was just replaced
    /// (shown this once); `message` saying what was saved, or why a change was `refusal`. No client: `404`, saying so.
    static func consoleClient(
        _ view: ConsoleClientView, client: ClientRecord?, secret: String? = nil, message: String? = nil,
        refusal: AdminError? = nil
    ) -> Response {
        guard let client else {
            return console(
                ConsolePage(
                    title: "Client", root: view.root, admin: view.email, message: "No client with this ID.",
                    isError: true),
                status: .notFound)
        }
        var page = ConsolePage(
            title: "Client \(client.id)", root: view.root, admin: view.email,
            message: refusal.map { $0.errorDescription ?? $0.code } ?? message, isError: refusal != nil)
        page.clientPage = ConsoleClientPage(client, csrf: view.csrf, secret: secret)
        return console(page, status: refusal?.status ?? .ok)
    }
}

extension PageTemplates {
    /// The part of a console page (``console``) showing a client: what it is, then the settings form (redirect URIs one
    /// a line), the branding form and, for a confidential client, the form replacing its secret.
    static let consoleClient = """
        {{#secret}}<p class="saved" role="status" id="form-notice">A new secret, shown only this once: \
        <code id="client-secret">{{secret}}</code></p>
        {{/secret}}<p><code>{{id}}</code> · {{kind}} · created <time datetime="{{created}}">{{created}}</time></p>
        <h2 id="settings-heading">Settings</h2>
        <form method="post" action="{{root}}admin/console/client/settings" aria-labelledby="settings-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{id}}">
        <label for="client-name">Name</label>
        <input id="client-name" name="client_name" value="{{name}}">
        <label for="client-redirects">Redirect URIs, one a line</label>
        <textarea id="client-redirects" name="redirect_uris" rows="3" required spellcheck="false">{{redirectURIs}}\
        </textarea>
        <label for="client-logout-redirects">Post-logout redirect URIs, one a line</label>
        <textarea id="client-logout-redirects" name="post_logout_redirect_uris" rows="2" spellcheck="false">\
        {{postLogoutRedirectURIs}}</textarea>
        <label for="client-access-ttl">Access token lifetime in seconds (empty: the server's)</label>
        <input id="client-access-ttl" name="access_token_ttl" inputmode="numeric" value="{{accessTokenTTL}}">
        <label for="client-refresh-ttl">Refresh token lifetime in seconds (empty: the server's)</label>
        <input id="client-refresh-ttl" name="refresh_token_ttl" inputmode="numeric" value="{{refreshTokenTTL}}">
        <button type="submit">Save settings</button>
        </form>
        <h2 id="branding-heading">Branding</h2>
        <form method="post" action="{{root}}admin/console/client/branding" aria-labelledby="branding-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{id}}">
        <label for="brand-name">Display name</label>
        <input id="brand-name" name="display_name" value="{{displayName}}">
        <label for="brand-logo">Logo URL (https)</label>
        <input id="brand-logo" name="logo_uri" value="{{logoURI}}" spellcheck="false">
        <label for="brand-accent">Accent colour (#RRGGBB)</label>
        <input id="brand-accent" name="accent_color" value="{{accentColor}}" spellcheck="false">
        <label for="brand-theme">Theme</label>
        <select id="brand-theme" name="theme">{{#themes}}<option value="{{value}}"{{#chosen}} selected{{/chosen}}>\
        {{value}}</option>{{/themes}}</select>
        <button type="submit">Save branding</button>
        </form>
        {{#confidential}}<h2 id="secret-heading">Secret</h2>
        <p>A new secret replaces the old one at once: the client must be given the new one.</p>
        <form method="post" action="{{root}}admin/console/client/rotate-secret" aria-labelledby="secret-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{id}}">
        <button type="submit" class="danger">Rotate secret</button>
        </form>
        {{/confidential}}<p><a href="{{root}}admin/console/clients">All clients</a></p>
        """
}

/// A client as its console page shows it: what it is, what its forms hold, and a secret just made.
struct ConsoleClientPage {
    /// Its ID.
    var id: String
    /// `confidential` or `public`, and `native` for an app on a device.
    var kind: String
    /// When it was registered, in RFC 3339.
    var created: String
    /// Its name.
    var name: String
    /// Its redirect URIs, one a line.
    var redirectURIs: String
    /// Its post-logout redirect URIs, one a line.
    var postLogoutRedirectURIs: String
    /// Its own access token lifetime in seconds; empty: the server's.
    var accessTokenTTL: String
    /// Its own refresh token lifetime in seconds; empty: the server's.
    var refreshTokenTTL: String
    /// Its branding's display name.
    var displayName: String
    /// Its branding's logo URL.
    var logoURI: String
    /// Its branding's accent colour.
    var accentColor: String
    /// Every theme, its branding's chosen.
    var themes: [ConsoleThemeOption]
    /// Whether it has a secret to rotate.
    var confidential: Bool
    /// The forms' CSRF token.
    var csrf: String
    /// Its new secret, shown this once.
    var secret: String?

    /// The page of `client`, whose forms carry `csrf`, with its new `secret` when it was just made.
    init(_ client: ClientRecord, csrf: String, secret: String?) {
        (id, name, created) = (client.id, client.name, client.createdAt.formatted(.iso8601))
        kind = client.kind.rawValue + (client.isNative ? ", native" : "")
        redirectURIs = client.redirectURIs.joined(separator: "\n")
        postLogoutRedirectURIs = client.postLogoutRedirectURIs.joined(separator: "\n")
        accessTokenTTL = client.accessTokenLifetime.map { String(Int($0)) } ?? ""
        refreshTokenTTL = client.refreshTokenLifetime.map { String(Int($0)) } ?? ""
        let branding = client.branding ?? ClientBranding()
        (displayName, logoURI) = (branding.displayName ?? "", branding.logoURL ?? "")
        accentColor = branding.accentColor ?? ""
        themes = ClientBranding.Theme.allCases.map {
            ConsoleThemeOption(value: $0.rawValue, chosen: $0 == branding.theme)
        }
        (confidential, self.csrf, self.secret) = (client.kind == .confidential, csrf, secret)
    }
}

/// An option of the branding form's theme.
struct ConsoleThemeOption {
    /// The theme.
    var value: String
    /// Whether it is the client's.
    var chosen: Bool
}
