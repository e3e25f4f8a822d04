// Stand-in for the parts of UIKit that Limen uses (see ../README.md). Not Apple's code: declarations only.
@_exported import Foundation

/// https://developer.apple.com/documentation/uikit/uiresponder — `@MainActor class UIResponder : NSObject`
@MainActor
open class UIResponder: NSObject {}

/// https://developer.apple.com/documentation/uikit/uiview — `@MainActor class UIView : UIResponder`
@MainActor
open class UIView: UIResponder {}

/// https://developer.apple.com/documentation/uikit/uiwindow — `@MainActor class UIWindow : UIView`
@MainActor
open class UIWindow: UIView {}

/// https://developer.apple.com/documentation/uikit/uiapplication — `@MainActor class UIApplication : UIResponder`
@MainActor
open class UIApplication: UIResponder {
    /// https://developer.apple.com/documentation/uikit/uiapplication/didbecomeactivenotification —
    /// `nonisolated class let didBecomeActiveNotification: NSNotification.Name`
    nonisolated public static let didBecomeActiveNotification = NSNotification.Name(
        "UIApplicationDidBecomeActiveNotification")
    /// https://developer.apple.com/documentation/uikit/uiapplication/protecteddatadidbecomeavailablenotification —
    /// `nonisolated class let protectedDataDidBecomeAvailableNotification: NSNotification.Name`
    nonisolated public static let protectedDataDidBecomeAvailableNotification = NSNotification.Name(
        "UIApplicationProtectedDataDidBecomeAvailable")
}
