// Stand-in (see ../README.md). Not Apple's code: declarations only.
import Foundation

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession —
/// `class ASWebAuthenticationSession` (iOS 12, macOS 10.15, tvOS 16, visionOS 1, watchOS 6.2).
@available(iOS 12.0, macOS 10.15, tvOS 16.0, watchOS 6.2, *)
open class ASWebAuthenticationSession: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/completionhandler —
    /// `typealias CompletionHandler = (URL?, (any Error)?) -> Void`
    public typealias CompletionHandler = (URL?, (any Error)?) -> Void

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback —
    /// `class Callback` (iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4), made by its two class methods.
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *)
    public final class Callback: NSObject {
        private override init() {}

        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/customscheme(_:)
        /// — `class func customScheme(_ customScheme: String) -> Self`
        public static func customScheme(_ customScheme: String) -> Callback { Callback() }

        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/https(host:path:)
        /// — `class func https(host: String, path: String) -> Self`
        public static func https(host: String, path: String) -> Callback { Callback() }

        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/callback/matchesurl(_:)
        /// — `func matchesURL(_ url: URL) -> Bool`
        public func matchesURL(_ url: URL) -> Bool { false }
    }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callback:completionhandler:)-6nut7
    /// — `init(url URL: URL, callback: ASWebAuthenticationSession.Callback, completionHandler: @escaping
    /// ASWebAuthenticationSession.CompletionHandler)` (iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4)
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, visionOS 1.1, watchOS 10.4, *)
    public init(url URL: URL, callback: Callback, completionHandler: @escaping CompletionHandler) {}

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/init(url:callbackurlscheme:completionhandler:)-7fpox
    /// — `init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping
    /// ASWebAuthenticationSession.CompletionHandler)`
    public init(url URL: URL, callbackURLScheme: String?, completionHandler: @escaping CompletionHandler) {}

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/presentationcontextprovider
    /// — `weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?`
    /// (iOS 13, macOS 10.15, visionOS 1; not tvOS or watchOS)
    @available(iOS 13.0, macOS 10.15, *)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public weak var presentationContextProvider: (any ASWebAuthenticationPresentationContextProviding)?

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/prefersephemeralwebbrowsersession
    /// — `var prefersEphemeralWebBrowserSession: Bool`
    public var prefersEphemeralWebBrowserSession = false

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/start() —
    /// `func start() -> Bool`
    public func start() -> Bool { false }

    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsession/cancel() —
    /// `func cancel()`
    public func cancel() {}
}

#if LIMEN_STANDIN_NONISOLATED_PRESENTATION
    /// The shape before Xcode 16: not isolated.
    public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
    }
#else
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding
    /// — `@MainActor protocol ASWebAuthenticationPresentationContextProviding : NSObjectProtocol`
    /// (iOS 13, macOS 10.15, visionOS 1)
    @MainActor
    public protocol ASWebAuthenticationPresentationContextProviding: NSObjectProtocol {
        /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationpresentationcontextproviding/presentationanchor(for:)
        /// — `func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor`
        func presentationAnchor(for session: ASWebAuthenticationSession) -> ASPresentationAnchor
    }
#endif

/// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror — the error struct
/// of domain `ASWebAuthenticationSessionErrorDomain`, whose `code` is an `ASWebAuthenticationSessionError.Code`.
public struct ASWebAuthenticationSessionError: Error, Hashable, Sendable {
    /// https://developer.apple.com/documentation/authenticationservices/aswebauthenticationsessionerror/code —
    /// `enum Code : Int, @unchecked Sendable`
    public enum Code: Int, Sendable {
        /// `case canceledLogin = 1`
        case canceledLogin = 1
        /// `case presentationContextNotProvided = 2`
        case presentationContextNotProvided = 2
        /// `case presentationContextInvalid = 3`
        case presentationContextInvalid = 3
    }

    /// The error's code.
    public let code: Code
}
