import Foundation

/// Opens a URL only in the app that claims it as a universal link, never in a browser: the seam of
/// ``AppToAppUserAgent``. LimenApple's `UIApplicationUniversalLinkOpener` asks UIKit
/// (`UIApplication.open(_:options:)` with `universalLinksOnly`); tests play the other app.
public protocol UniversalLinkOpener: Sendable {
    /// Opens `url` in the installed app that claims it.
    /// - Returns: Whether an app opened it; `false` when none is installed (or the system declined), and then nothing
    ///   was shown.
    func openUniversalLink(_ url: URL) async -> Bool
}
