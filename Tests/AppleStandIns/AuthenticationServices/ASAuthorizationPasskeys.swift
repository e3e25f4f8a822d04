// Stand-in (see ../README.md). Not Apple's code: declarations only.
import Foundation

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationpublickeycredentialuserverificationpreference
/// — `struct ASAuthorizationPublicKeyCredentialUserVerificationPreference : Hashable, Equatable, RawRepresentable,
/// @unchecked Sendable` (iOS 15, macOS 12, tvOS 16)
public struct ASAuthorizationPublicKeyCredentialUserVerificationPreference: RawRepresentable, Hashable, Sendable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    /// `static let required`
    public static let required = Self(rawValue: "required")
    /// `static let preferred`
    public static let preferred = Self(rawValue: "preferred")
    /// `static let discouraged`
    public static let discouraged = Self(rawValue: "discouraged")
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialdescriptor
/// — `class ASAuthorizationPlatformPublicKeyCredentialDescriptor` (iOS 15, macOS 12, tvOS 16)
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialDescriptor: NSObject {
    /// `init(credentialID: Data)`
    public init(credentialID: Data) {}
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialregistrationrequest
/// — `class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest` (iOS 15, macOS 12, tvOS 16)
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest: ASAuthorizationRequest {
    /// `var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference`
    public var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference = .preferred
    /// `var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]` (iOS 17.4, macOS 14.4)
    @available(iOS 17.4, macOS 14.4, tvOS 17.4, *)
    public var excludedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] {
        get { [] }
        set {}
    }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialassertionrequest
/// — `class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest` (iOS 15, macOS 12, tvOS 16)
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertionRequest: ASAuthorizationRequest {
    /// `var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor]`
    public var allowedCredentials: [ASAuthorizationPlatformPublicKeyCredentialDescriptor] = []
    /// `var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference`
    public var userVerificationPreference: ASAuthorizationPublicKeyCredentialUserVerificationPreference = .preferred
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialprovider
/// — `class ASAuthorizationPlatformPublicKeyCredentialProvider` (iOS 15, macOS 12, tvOS 16)
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialProvider: NSObject {
    /// `init(relyingPartyIdentifier: String)`
    public init(relyingPartyIdentifier: String) {}

    /// `func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
    /// -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest`
    public func createCredentialRegistrationRequest(challenge: Data, name: String, userID: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest
    { ASAuthorizationPlatformPublicKeyCredentialRegistrationRequest() }

    /// `func createCredentialAssertionRequest(challenge: Data)
    /// -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest`
    public func createCredentialAssertionRequest(challenge: Data)
        -> ASAuthorizationPlatformPublicKeyCredentialAssertionRequest
    { ASAuthorizationPlatformPublicKeyCredentialAssertionRequest() }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialregistration
/// — `class ASAuthorizationPlatformPublicKeyCredentialRegistration` (iOS 15, macOS 12, tvOS 16)
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialRegistration: NSObject, ASAuthorizationCredential {
    /// `var credentialID: Data { get }`
    public var credentialID: Data { Data() }
    /// `var rawClientDataJSON: Data { get }`
    public var rawClientDataJSON: Data { Data() }
    /// `var rawAttestationObject: Data? { get }`
    public var rawAttestationObject: Data? { nil }
}

/// https://developer.apple.com/documentation/authenticationservices/asauthorizationplatformpublickeycredentialassertion
/// — `class ASAuthorizationPlatformPublicKeyCredentialAssertion` (iOS 15, macOS 12, tvOS 16)
@available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
@available(watchOS, unavailable)
open class ASAuthorizationPlatformPublicKeyCredentialAssertion: NSObject, ASAuthorizationCredential {
    /// `var credentialID: Data { get }`
    public var credentialID: Data { Data() }
    /// `var rawClientDataJSON: Data { get }`
    public var rawClientDataJSON: Data { Data() }
    /// `var rawAuthenticatorData: Data! { get }`
    public var rawAuthenticatorData: Data! { Data() }
    /// `var signature: Data! { get }`
    public var signature: Data! { Data() }
    /// `var userID: Data! { get }`
    public var userID: Data! { Data() }
}

extension ASAuthorizationController {
    /// https://developer.apple.com/documentation/authenticationservices/asauthorizationcontroller/performautofillassistedrequests()
    /// — `func performAutoFillAssistedRequests()` (iOS 16, visionOS 1; not macOS, tvOS, watchOS)
    @available(iOS 16.0, *)
    @available(macOS, unavailable)
    @available(tvOS, unavailable)
    @available(watchOS, unavailable)
    public func performAutoFillAssistedRequests() {}
}
