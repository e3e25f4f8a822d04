#if canImport(UIKit) && !os(watchOS)
    import Foundation
    import Limen
    import UIKit

    /// Opens a URL only as a universal link, through `UIApplication.open(_:options:)` with `universalLinksOnly`: the
    /// opener of `AppToAppUserAgent` on iOS, tvOS and visionOS. When no installed app claims the URL, UIKit opens
    /// nothing (no browser) and the user agent falls back to its web session.
    ///
    /// ```swift
    /// let agent = AppToAppUserAgent(client: client, opener: UIApplicationUniversalLinkOpener(), fallback: webSession)
    /// ```
    public struct UIApplicationUniversalLinkOpener: UniversalLinkOpener {
        /// Creates an opener.
        public init() {}

        /// Opens `url` in the app that claims it; `false` when none does.
        @MainActor
        public func openUniversalLink(_ url: URL) async -> Bool {
            await UIApplication.shared.open(url, options: [.universalLinksOnly: true])
        }
    }
#endif
