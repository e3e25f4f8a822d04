// Stand-in for the parts of WidgetKit that Limen uses (see ../README.md). Not Apple's code: declarations only.
import Foundation

/// https://developer.apple.com/documentation/widgetkit/widgetcenter — `class WidgetCenter`
/// (iOS 14, macOS 11, watchOS 9, visionOS 26).
@available(iOS 14.0, macOS 11.0, watchOS 9.0, *)
public final class WidgetCenter {
    /// https://developer.apple.com/documentation/widgetkit/widgetcenter/shared — `static let shared: WidgetCenter`
    public static let shared = WidgetCenter()

    private init() {}

    /// https://developer.apple.com/documentation/widgetkit/widgetcenter/reloadalltimelines() —
    /// `func reloadAllTimelines()`
    public func reloadAllTimelines() {}

    /// https://developer.apple.com/documentation/widgetkit/widgetcenter/reloadtimelines(ofkind:) —
    /// `func reloadTimelines(ofKind kind: String)`
    public func reloadTimelines(ofKind kind: String) {}
}
