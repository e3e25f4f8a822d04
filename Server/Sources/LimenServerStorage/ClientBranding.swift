import Foundation

/// How the hosted pages present a client: the name they show, its logo, an accent colour and a colour scheme. Set
/// through the admin API (`PUT /admin/clients/{id}/branding`, or `branding` in the registration) and kept with the
/// client.
public struct ClientBranding: Sendable, Equatable, Codable {
    /// The pages' colour scheme.
    public enum Theme: String, Sendable, Equatable, Codable, CaseIterable {
        /// Always light.
        case light
        /// Always dark.
        case dark
        /// The person's system setting (the default).
        case auto
    }

    /// The name the pages show instead of the client's registered name.
    public var displayName: String?
    /// An `https` URL of the logo shown above the page's title.
    public var logoURL: String?
    /// The accent colour of buttons and links, `#RRGGBB`.
    public var accentColor: String?
    /// Light, dark or the system's.
    public var theme: Theme

    /// The longest display name, in characters.
    public static let maximumDisplayNameLength = 100
    /// The longest logo URL, in bytes.
    public static let maximumLogoURLLength = 2048

    /// Creates branding; the admin API checks it before it is stored.
    public init(displayName: String? = nil, logoURL: String? = nil, accentColor: String? = nil, theme: Theme = .auto) {
        (self.displayName, self.logoURL, self.accentColor, self.theme) = (displayName, logoURL, accentColor, theme)
    }

    /// The branding as the `clients.branding` column keeps it: JSON.
    package static func encoded(_ branding: ClientBranding) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(branding)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The branding in the `clients.branding` column.
    package static func decoded(_ text: String) throws(StorageError) -> ClientBranding {
        guard let branding = try? JSONDecoder().decode(ClientBranding.self, from: Data(text.utf8)) else {
            throw .corruptRow("clients.branding is not the expected JSON")
        }
        return branding
    }

    enum CodingKeys: String, CodingKey {
        case displayName = "display_name"
        case logoURL = "logo_uri"
        case accentColor = "accent_color"
        case theme
    }
}
