// Stand-in (see ../README.md). Not Apple's code: declarations only.
import Foundation

/// https://developer.apple.com/documentation/authenticationservices/asauthorization — `class ASAuthorization`
open class ASAuthorization: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorization/credential —
    /// `var credential: any ASAuthorizationCredential { get }`
    public var credential: any ASAuthorizationCredential { fatalError("stand-in") }

    /// https://developer.apple.com/documentation/authenticationservices/asauthorization/scope —
    /// `struct Scope` (`fullName`, `email`)
    public struct Scope: RawRepresentable, Hashable, Sendable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        /// `static let fullName: ASAuthorization.Scope`
        public static let fullName = Scope(rawValue: "full_name")
        /// `static let email: ASAuthorization.Scope`
        public static let email = Scope(rawValue: "email")
    }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcredential —
/// `protocol ASAuthorizationCredential : NSCopying, NSSecureCoding, NSObjectProtocol`
public protocol ASAuthorizationCredential: NSObjectProtocol {}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidcredential —
/// `class ASAuthorizationAppleIDCredential`
open class ASAuthorizationAppleIDCredential: NSObject, ASAuthorizationCredential {
    /// `var user: String { get }`
    public var user: String { "" }
    /// `var identityToken: Data? { get }`
    public var identityToken: Data? { nil }
    /// `var authorizationCode: Data? { get }`
    public var authorizationCode: Data? { nil }
    /// `var email: String? { get }`
    public var email: String? { nil }
    /// `var fullName: PersonNameComponents? { get }`
    public var fullName: PersonNameComponents? { nil }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationrequest — `class ASAuthorizationRequest`
open class ASAuthorizationRequest: NSObject {}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationopenidrequest —
/// `class ASAuthorizationOpenIDRequest`
open class ASAuthorizationOpenIDRequest: ASAuthorizationRequest {
    /// `var requestedScopes: [ASAuthorization.Scope]?`
    public var requestedScopes: [ASAuthorization.Scope]?
    /// `var nonce: String?`
    public var nonce: String?
    /// `var state: String?`
    public var state: String?
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidrequest —
/// `class ASAuthorizationAppleIDRequest`
open class ASAuthorizationAppleIDRequest: ASAuthorizationOpenIDRequest {}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider —
/// `class ASAuthorizationAppleIDProvider` (iOS 13, macOS 10.15, tvOS 13, visionOS 1, watchOS 6)
open class ASAuthorizationAppleIDProvider: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/credentialstate —
    /// `enum CredentialState : Int, @unchecked Sendable`
    public enum CredentialState: Int, Sendable {
        case revoked = 0
        case authorized = 1
        case notFound = 2
        case transferred = 3
    }

    public override init() {}

    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/createrequest() —
    /// `func createRequest() -> ASAuthorizationAppleIDRequest`
    public func createRequest() -> ASAuthorizationAppleIDRequest { ASAuthorizationAppleIDRequest() }

    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationappleidprovider/getcredentialstate(foruserid:completion:)
    /// — `func getCredentialState(forUserID userID: String, completion: @escaping @Sendable
    /// (ASAuthorizationAppleIDProvider.CredentialState, (any Error)?) -> Void)`
    public func getCredentialState(
        forUserID userID: String,
        completion: @escaping @Sendable (CredentialState, (any Error)?) -> Void
    ) {}
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller —
/// `class ASAuthorizationController` (iOS 13, macOS 10.15, tvOS 13, visionOS 1, watchOS 6)
open class ASAuthorizationController: NSObject {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/init(authorizationrequests:)
    /// — `init(authorizationRequests: [ASAuthorizationRequest])`
    public init(authorizationRequests: [ASAuthorizationRequest]) {}

    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/delegate —
    /// `weak var delegate: (any ASAuthorizationControllerDelegate)?`
    public weak var delegate: (any ASAuthorizationControllerDelegate)?

    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/presentationcontextprovider
    /// — `weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?`
    /// (not watchOS)
    @available(watchOS, unavailable)
    public weak var presentationContextProvider: (any ASAuthorizationControllerPresentationContextProviding)?

    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/performrequests() —
    /// `func performRequests()`
    public func performRequests() {}

    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/requestoptions —
    /// `struct RequestOptions : OptionSet, @unchecked Sendable` (iOS 16, macOS 13, tvOS 16, visionOS 1, watchOS 9)
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
    public struct RequestOptions: OptionSet, Sendable {
        public let rawValue: UInt
        public init(rawValue: UInt) { self.rawValue = rawValue }
        /// `static var preferImmediatelyAvailableCredentials: ASAuthorizationController.RequestOptions`
        public static let preferImmediatelyAvailableCredentials = RequestOptions(rawValue: 1)
    }

    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/cancel() —
    /// `func cancel()` (iOS 16, macOS 13, tvOS 16, visionOS 1, watchOS 9)
    @available(iOS 16.0, macOS 13.0, tvOS 16.0, watchOS 9.0, *)
    public func cancel() {}
}

#if LIMEN_STANDIN_NONISOLATED_PRESENTATION
    /// The shape before Xcode 16: not isolated.
    public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
        func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
    }

    /// The shape before Xcode 16: not isolated.
    public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
    }
#else
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate —
    /// `@MainActor protocol ASAuthorizationControllerDelegate : NSObjectProtocol`; both methods are `optional` in
    /// Objective-C, written here as requirements (Linux has no `@objc optional`).
    @MainActor
    public protocol ASAuthorizationControllerDelegate: NSObjectProtocol {
        /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate/authorizationcontroller(controller:didcompletewithauthorization:)
        func authorizationController(
            controller: ASAuthorizationController, didCompleteWithAuthorization authorization: ASAuthorization)
        /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerdelegate/authorizationcontroller(controller:didcompletewitherror:)
        func authorizationController(controller: ASAuthorizationController, didCompleteWithError error: any Error)
    }

    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding
    /// — `@MainActor protocol ASAuthorizationControllerPresentationContextProviding : NSObjectProtocol` (not watchOS)
    @MainActor
    public protocol ASAuthorizationControllerPresentationContextProviding: NSObjectProtocol {
        /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontrollerpresentationcontextproviding/presentationanchor(for:)
        func presentationAnchor(for controller: ASAuthorizationController) -> ASPresentationAnchor
    }
#endif

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationerror — the error struct of domain
/// `ASAuthorizationErrorDomain`, whose `code` is an `ASAuthorizationError.Code`.
public struct ASAuthorizationError: Error, Hashable, Sendable {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationerror/code —
    /// `enum Code : Int, @unchecked Sendable`
    public enum Code: Int, Sendable {
        case unknown = 1000
        case canceled = 1001
        case invalidResponse = 1002
        case notHandled = 1003
        case failed = 1004
        case notInteractive = 1005
        case matchedExcludedCredential = 1006
        case credentialImport = 1007
        case credentialExport = 1008
    }

    /// The error's code.
    public let code: Code
}
