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

    /// Creates branding; ``validated()`` checks it.
    public init(displayName: String? = nil, logoURL: String? = nil, accentColor: String? = nil, theme: Theme = .auto) {
        (self.displayName, self.logoURL, self.accentColor, self.theme) = (displayName, logoURL, accentColor, theme)
    }

    /// This branding if every field is acceptable: a display name of 1–100 characters without control characters, an
    /// absolute `https` logo URL without credentials or fragment, an accent colour `#RRGGBB`.
    public func validated() throws(ClientBrandingError) -> ClientBranding {
        if let displayName {
            guard (1...Self.maximumDisplayNameLength).contains(displayName.count),
                !displayName.unicodeScalars.contains(where: { CharacterSet.controlCharacters.contains($0) })
            else { throw .invalid(field: "display_name", "use 1 to 100 characters, no control characters") }
        }
        if let logoURL {
            guard logoURL.utf8.count <= Self.maximumLogoURLLength, let url = URLComponents(string: logoURL),
                url.scheme?.lowercased() == "https", url.host?.isEmpty == false, url.user == nil, url.password == nil,
                url.fragment == nil, !logoURL.contains(where: { $0.isWhitespace || "'\";,<>\\".contains($0) })
            else { throw .invalid(field: "logo_uri", "use an absolute https URL without credentials or fragment") }
        }
        if let accentColor {
            guard accentColor.count == 7, accentColor.first == "#", accentColor.dropFirst().allSatisfy(\.isHexDigit)
            else { throw .invalid(field: "accent_color", "use a colour of the form #RRGGBB") }
        }
        return self
    }

    /// The branding as the `clients.branding` column keeps it: JSON.
    static func encoded(_ branding: ClientBranding) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return (try? encoder.encode(branding)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// The branding in the `clients.branding` column.
    static func decoded(_ text: String) throws(StorageError) -> ClientBranding {
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

/// Why client branding was refused.
public enum ClientBrandingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field (as named on the wire) and what it must be.
    case invalid(field: String, String)

    /// The field at fault, as named on the wire.
    public var field: String {
        switch self {
        case .invalid(let field, _): field
        }
    }

    public var description: String {
        switch self {
        case .invalid(let field, let rule): "\(field): \(rule)"
        }
    }
}
