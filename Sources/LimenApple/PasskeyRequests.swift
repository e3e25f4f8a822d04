#if canImport(AuthenticationServices) && !os(watchOS)
    import AuthenticationServices
    import Foundation
    import Limen

    /// The platform's passkey requests for a ceremony the server's options describe, and its credentials as a
    /// ``PasskeyAnswer``: shared by ``PlatformPasskeyAuthenticator`` and LimenUI's SwiftUI adapter.
    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    extension PasskeyCeremony {
        /// A registration request for `user` (the options' user), excluding the passkeys the options name.
        package func registrationRequest(for user: (id: Data, name: String)) -> ASAuthorizationRequest {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyID)
            let request = provider.createCredentialRegistrationRequest(
                challenge: challenge, name: user.name, userID: user.id)
            request.userVerificationPreference = requiresUserVerification ? .required : .preferred
            if #available(iOS 17.4, macOS 14.4, tvOS 17.4, *) {
                request.excludedCredentials = credentialIDs.map {
                    ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
                }
            }
            return request
        }

        /// An assertion request for the passkeys the options allow (any of this RP's when they name none).
        package func assertionRequest() -> ASAuthorizationRequest {
            let provider = ASAuthorizationPlatformPublicKeyCredentialProvider(relyingPartyIdentifier: relyingPartyID)
            let request = provider.createCredentialAssertionRequest(challenge: challenge)
            request.allowedCredentials = credentialIDs.map {
                ASAuthorizationPlatformPublicKeyCredentialDescriptor(credentialID: $0)
            }
            request.userVerificationPreference = requiresUserVerification ? .required : .preferred
            return request
        }
    }

    @available(iOS 15.0, macOS 12.0, tvOS 16.0, *)
    extension PasskeyAnswer {
        /// The answer `credential` gives: a platform passkey's registration or assertion, or another credential.
        package init(_ credential: any ASAuthorizationCredential) {
            if let registration = credential as? ASAuthorizationPlatformPublicKeyCredentialRegistration {
                self = .registration(
                    credentialID: registration.credentialID, clientDataJSON: registration.rawClientDataJSON,
                    attestationObject: registration.rawAttestationObject)
            } else if let assertion = credential as? ASAuthorizationPlatformPublicKeyCredentialAssertion {
                self = .assertion(
                    credentialID: assertion.credentialID, clientDataJSON: assertion.rawClientDataJSON,
                    authenticatorData: assertion.rawAuthenticatorData, signature: assertion.signature,
                    userHandle: assertion.userID)
            } else {
                self = .otherCredential
            }
        }
    }
#endif
