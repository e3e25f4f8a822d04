/// `PUT /admin/clients/{id}/branding`, and the `branding` member of a registration (``AdminClientRequest``): how the
/// hosted pages present the client; a member left out is unset.
///
/// ```json
/// {"display_name": "Example", "logo_uri": "https://cdn.example/logo.png", "accent_color": "#0b6e4f", "theme": "auto"}
/// ```
package struct AdminClientBrandingRequest: AdminRequestBody, Sendable {
    /// The members ``AdminJSON`` accepts.
    package typealias Members = CodingKeys

    /// `display_name`: the name the pages show instead of `client_name`.
    package var displayName: String?
    /// `logo_uri`: an `https` URL of the logo.
    package var logoURI: String?
    /// `accent_color`: `#RRGGBB`.
    package var accentColor: String?
    /// `theme`: `light`, `dark` or `auto` (the default).
    package var theme: String?

    /// The members, as named on the wire.
    package enum CodingKeys: String, CodingKey, CaseIterable {
        case displayName = "display_name"
        case logoURI = "logo_uri"
        case accentColor = "accent_color"
        case theme
    }

    /// A branding of the members given (the admin console's form); each `nil` is left out.
    package init(displayName: String?, logoURI: String?, accentColor: String?, theme: String?) {
        (self.displayName, self.logoURI, self.accentColor, self.theme) = (displayName, logoURI, accentColor, theme)
    }
}
