import Crypto
import Foundation
import LimenServerCore
import LimenServerStorage

/// A client's branding as a page applies it: the name shown, the logo, the colour scheme's class on `<html>`, and an
/// inline style for the accent colour, allowed by the page's Content Security Policy through its SHA-256 (the style
/// is the server's own text; only a validated `#RRGGBB` enters it) and the logo's origin. Branding stored before it was
/// checked as it is now is applied only where it passes today's checks: a logo whose host is not a DNS name or an IP
/// address is not shown, and its host never enters the policy.
struct PageBrand {
    /// The name the page shows for the client.
    var name: String
    /// The logo's URL.
    var logoURL: String?
    /// The origin the policy allows the logo from (``ClientBranding/logoOrigin(of:)``).
    var logoOrigin: String?
    /// `theme-light` or `theme-dark`; `nil` follows the system.
    var themeClass: String?
    /// The accent's CSS, when the client has an accent colour.
    var style: String?

    /// The page brand of `client`: its branding, or its name alone.
    init(client: ClientRecord) {
        let branding = client.branding ?? ClientBranding()
        name = branding.displayName ?? client.name
        logoOrigin = branding.logoURL.flatMap(ClientBranding.logoOrigin(of:))
        logoURL = logoOrigin == nil ? nil : branding.logoURL
        themeClass = branding.theme == .auto ? nil : "theme-\(branding.theme.rawValue)"
        style = branding.accentColor.flatMap(AccentStyle.css(accent:))
    }

    /// The page's Content Security Policy: ``Pages/contentSecurityPolicy`` with the logo's origin and the style's hash.
    var contentSecurityPolicy: String {
        var images = "img-src 'self'"
        if let logoOrigin { images += " \(logoOrigin)" }
        var styles = "style-src 'self'"
        if let style {
            styles += " 'sha256-\(Data(SHA256.hash(data: Data(style.utf8))).base64EncodedString())'"
        }
        return "default-src 'none'; \(styles); \(images); base-uri 'none'; frame-ancestors 'none'"
    }
}

/// The CSS of an accent colour: on buttons with black or white text, whichever contrasts more (at least 4.58:1 for
/// any colour), and on links only in a scheme where it contrasts at least 4.5:1 with the page (WCAG 2 AA), so a
/// pale accent never makes a link unreadable.
enum AccentStyle {
    /// The card colours of the light and dark schemes, and the links' colours there when the accent will not do.
    static let (lightCard, darkCard) = ("#ffffff", "#1b1e24")
    static let (lightLink, darkLink) = ("#2f5bd3", "#8ab0ff")

    /// The CSS for `accent` (`#RRGGBB`), or `nil` when it is not such a colour.
    static func css(accent: String) -> String? {
        guard let colour = luminance(accent), let light = luminance(lightCard), let dark = luminance(darkCard) else {
            return nil
        }
        let text = contrast(colour, 0) >= contrast(colour, 1) ? "#000000" : "#ffffff"
        let lightLink = contrast(colour, light) >= 4.5 ? accent : Self.lightLink
        let darkLink = contrast(colour, dark) >= 4.5 ? accent : Self.darkLink
        let darkVariables = "--accent: \(accent); --on-accent: \(text); --link: \(darkLink);"
        return ":root { --accent: \(accent); --on-accent: \(text); --link: \(lightLink); } "
            + "@media (prefers-color-scheme: dark) { :root:not(.theme-light) { \(darkVariables) } } "
            + ":root.theme-dark { \(darkVariables) }"
    }

    /// The contrast ratio of two relative luminances (WCAG 2).
    static func contrast(_ first: Double, _ second: Double) -> Double {
        (max(first, second) + 0.05) / (min(first, second) + 0.05)
    }

    /// The relative luminance of `#RRGGBB` (WCAG 2), or `nil` for another text.
    static func luminance(_ hex: String) -> Double? {
        guard ClientBranding.isAccentColor(hex), let value = UInt32(hex.dropFirst(), radix: 16) else { return nil }
        let channels = [(value >> 16) & 0xFF, (value >> 8) & 0xFF, value & 0xFF].map { channel -> Double in
            let srgb = Double(channel) / 255
            return srgb <= 0.04045 ? srgb / 12.92 : pow((srgb + 0.055) / 1.055, 2.4)
        }
        return 0.2126 * channels[0] + 0.7152 * channels[1] + 0.0722 * channels[2]
    }
}
