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

    /// https://developer.apple.com/documentation/uikit/uiapplication/shared —
    /// `@MainActor class var shared: UIApplication { get }`
    open class var shared: UIApplication { UIApplication() }

    /// https://developer.apple.com/documentation/uikit/uiapplication/openexternalurloptionskey —
    /// `struct OpenExternalURLOptionsKey : Hashable, Equatable, RawRepresentable, @unchecked Sendable`
    public struct OpenExternalURLOptionsKey: Hashable, RawRepresentable, @unchecked Sendable {
        public var rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// https://developer.apple.com/documentation/uikit/uiapplication/openexternalurloptionskey/universallinksonly
        public static let universalLinksOnly = OpenExternalURLOptionsKey(
            rawValue: "UIApplicationOpenURLOptionUniversalLinksOnly")
    }

    /// https://developer.apple.com/documentation/uikit/uiapplication/open(_:options:completionhandler:) —
    /// `func open(_ url: URL, options: [UIApplication.OpenExternalURLOptionsKey : Any] = [:],
    /// completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil)`
    open func open(
        _ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:],
        completionHandler completion: (@MainActor @Sendable (Bool) -> Void)? = nil
    ) {}

    /// The same method as Swift imports it for `async` callers (its completion handler's `Bool`):
    /// `func open(_ url: URL, options: [UIApplication.OpenExternalURLOptionsKey : Any] = [:]) async -> Bool`
    open func open(_ url: URL, options: [OpenExternalURLOptionsKey: Any] = [:]) async -> Bool { false }
}

/// https://developer.apple.com/documentation/uikit/uikeyboardtype — `enum UIKeyboardType : Int, @unchecked Sendable`
public enum UIKeyboardType: Int, @unchecked Sendable {
    case `default` = 0
    case asciiCapable = 1
    case numbersAndPunctuation = 2
    case numberPad = 4
    case phonePad = 5
    case namePhonePad = 6
    case emailAddress = 7
    case decimalPad = 8
}

/// https://developer.apple.com/documentation/uikit/uitextcontenttype —
/// `struct UITextContentType : Hashable, Equatable, RawRepresentable, @unchecked Sendable`
public struct UITextContentType: Hashable, RawRepresentable, @unchecked Sendable {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/telephonenumber
    public static let telephoneNumber = UITextContentType(rawValue: "tel")
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/onetimecode
    public static let oneTimeCode = UITextContentType(rawValue: "one-time-code")
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/username
    public static let username = UITextContentType(rawValue: "username")
    /// https://developer.apple.com/documentation/uikit/uitextcontenttype/emailaddress
    public static let emailAddress = UITextContentType(rawValue: "email")
}
