// Stand-ins for AuthenticationServices' SwiftUI overlay, the cross-import module `_AuthenticationServices_SwiftUI`
// that Apple loads when a file imports both AuthenticationServices and SwiftUI (Apple's pages list these symbols under
// both modules). Shaped as https://developer.apple.com/documentation/authenticationservices gives them.
// Declarations only: never linked, never run. Like every cross-import overlay it re-exports its declaring module,
// which it shadows once loaded.
@_exported import AuthenticationServices
import SwiftUI

/// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession
@available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
@MainActor public struct WebAuthenticationSession {
    /// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession/browsersession
    public struct BrowserSession: Hashable, Sendable {
        public static let ephemeral = BrowserSession()
    }

    /// https://developer.apple.com/documentation/authenticationservices/webauthenticationsession/authenticate(using:callback:preferredbrowsersession:additionalheaderfields:)
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, watchOS 10.4, visionOS 1.1, *)
    @MainActor public func authenticate(
        using url: URL, callback: ASWebAuthenticationSession.Callback,
        preferredBrowserSession: WebAuthenticationSession.BrowserSession? = nil,
        additionalHeaderFields: [String: String]
    ) async throws -> URL { url }
}

/// https://developer.apple.com/documentation/authenticationservices/authorizationcontroller
@available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
@MainActor public struct AuthorizationController {
    /// https://developer.apple.com/documentation/authenticationservices/authorizationcontroller/performrequest(_:)
    @MainActor public func performRequest(_ request: ASAuthorizationRequest) async throws -> ASAuthorizationResult {
        fatalError()
    }

    /// https://developer.apple.com/documentation/authenticationservices/authorizationcontroller/performrequests(_:options:)
    @MainActor public func performRequests(
        _ requests: [ASAuthorizationRequest], options: ASAuthorizationController.RequestOptions = []
    ) async throws -> ASAuthorizationResult {
        fatalError()
    }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationresult — its other cases
/// (`password`, `securityKeyAssertion`, `customMethod`, …) carry types LimenUI never names, and LimenUI matches only
/// `appleID` and the passkeys' with a fallback for the rest.
@available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
public enum ASAuthorizationResult {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationresult/appleid(_:)
    case appleID(ASAuthorizationAppleIDCredential)
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationresult/passkeyassertion(_:)
    @available(watchOS, unavailable)
    case passkeyAssertion(ASAuthorizationPlatformPublicKeyCredentialAssertion)
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationresult/passkeyregistration(_:)
    @available(watchOS, unavailable)
    case passkeyRegistration(ASAuthorizationPlatformPublicKeyCredentialRegistration)
}

@available(iOS 16.4, macOS 13.3, tvOS 16.4, watchOS 9.4, visionOS 1.0, *)
extension EnvironmentValues {
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/webauthenticationsession
    public var webAuthenticationSession: WebAuthenticationSession { fatalError() }
    /// https://developer.apple.com/documentation/swiftui/environmentvalues/authorizationcontroller
    public var authorizationController: AuthorizationController { fatalError() }
}

/// https://developer.apple.com/documentation/authenticationservices/signinwithapplebutton
@available(iOS 14.0, macOS 11.0, tvOS 14.0, watchOS 7.0, visionOS 1.0, *)
@MainActor @preconcurrency public struct SignInWithAppleButton: View {
    /// https://developer.apple.com/documentation/authenticationservices/signinwithapplebutton/label
    public struct Label: Sendable {
        public static let signIn = Label()
        public static let signUp = Label()
        public static let `continue` = Label()
    }

    /// https://developer.apple.com/documentation/authenticationservices/signinwithapplebutton/init(_:onrequest:oncompletion:)
    nonisolated public init(
        _ label: SignInWithAppleButton.Label = .signIn,
        onRequest: @escaping (ASAuthorizationAppleIDRequest) -> Void,
        onCompletion: @escaping (Result<ASAuthorization, any Error>) -> Void
    ) {}

    public typealias Body = Never
    public var body: Never { fatalError() }
}
