import Foundation
import LimenOIDC
import LimenServerStorage

/// What an `IDP` collector's sign-in brought back, kept with the interaction until the app continues it with the code
/// its redirect URI received (only that code's SHA-256 is kept).
package struct FlowFederationResult: Sendable, Equatable, Codable {
    /// The upstream provider (``IdentityProvider/id``).
    package var provider: String
    /// The key of the `IDP` collector that was pressed.
    package var action: String
    /// The SHA-256 of the code sent to the app's redirect URI.
    package var codeHash: Data
    /// Who the person proved to be at the provider.
    package var identity: ExternalIdentity

    /// Makes it of its parts.
    package init(provider: String, action: String, codeHash: Data, identity: ExternalIdentity) {
        self.provider = provider
        self.action = action
        self.codeHash = codeHash
        self.identity = identity
    }

    private enum CodingKeys: String, CodingKey {
        case provider, action
        case codeHash = "code_hash"
        case identity
    }
}

/// Where the upstream callback of a native interaction's sign-in sends the browser.
package enum FlowFederationReturn: Sendable, Equatable {
    /// Back to the app's redirect URI: with a code that continues the interaction, or with an OAuth `error` (and the
    /// upstream failure behind it, for the log).
    case back(location: String, failure: UpstreamSignInError?)
    /// Nowhere: the interaction is over, expired or unknown (the page says to start again).
    case lost
}
