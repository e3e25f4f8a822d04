#if canImport(WidgetKit)
    import Limen
    import WidgetKit

    /// Reloads the app's widgets when the shared session changes, for ``Configuration/onSessionChange``:
    ///
    /// ```swift
    /// try configuration.appGroup("group.com.example", onSessionChange: WidgetTimelines.reloadAll)
    /// ```
    public enum WidgetTimelines {
        /// Asks WidgetKit to reload every widget's timeline (`WidgetCenter.shared.reloadAllTimelines()`).
        public static let reloadAll: @Sendable () -> Void = {
            if #available(iOS 14, macOS 11, watchOS 9, visionOS 26, *) {
                WidgetCenter.shared.reloadAllTimelines()
            }
        }
    }
#endif
