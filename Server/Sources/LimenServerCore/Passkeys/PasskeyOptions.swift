import Foundation
import LimenServerStorage
import LimenWire

/// The options of a passkey ceremony in WebAuthn Level 3's JSON forms, which browsers' `parseCreationOptionsFromJSON`
/// and `parseRequestOptionsFromJSON` (and an app's mapping to Apple's requests) take as they are.
enum PasskeyOptions {
    /// The algorithms offered, most preferred first: ES256, EdDSA, RS256.
    static let algorithms = [-7, -8, -257]

    /// `PublicKeyCredentialCreationOptionsJSON`: a discoverable credential for `user` (named by its opaque `handle`),
    /// none of `excluded` again.
    static func creation(
        relyingParty: WebAuthnRelyingParty, user: UserRecord, handle: Data, challenge: String,
        excluded: [PasskeyCredentialRecord], timeout: TimeInterval
    ) -> JSONValue {
        let accountName = user.email ?? user.phoneNumber ?? "Guest"
        return .object([
            "rp": .object(["id": .string(relyingParty.id), "name": .string(relyingParty.name)]),
            "user": .object([
                "id": .string(Base64URL.encode(handle)), "name": .string(accountName),
                "displayName": .string(user.name ?? accountName),
            ]),
            "challenge": .string(challenge),
            "pubKeyCredParams": .array(
                algorithms.map { .object(["type": .string("public-key"), "alg": .number(Double($0))]) }),
            "timeout": .number(timeout * 1000),
            "excludeCredentials": descriptors(excluded),
            "authenticatorSelection": .object([
                "residentKey": .string("required"), "requireResidentKey": .bool(true),
                "userVerification": .string("required"),
            ]),
            "attestation": .string("none"),
        ])
    }

    /// `PublicKeyCredentialRequestOptionsJSON`: any discoverable credential when `allowed` is empty (usernameless
    /// sign-in, autofill), else one of `allowed`.
    static func request(
        relyingParty: WebAuthnRelyingParty, challenge: String, allowed: [PasskeyCredentialRecord],
        userVerification: String, timeout: TimeInterval
    ) -> JSONValue {
        .object([
            "challenge": .string(challenge), "timeout": .number(timeout * 1000), "rpId": .string(relyingParty.id),
            "allowCredentials": descriptors(allowed), "userVerification": .string(userVerification),
        ])
    }

    /// `PublicKeyCredentialDescriptorJSON`s of `credentials`.
    private static func descriptors(_ credentials: [PasskeyCredentialRecord]) -> JSONValue {
        .array(
            credentials.map {
                .object(["type": .string("public-key"), "id": .string(Base64URL.encode($0.credentialID))])
            })
    }
}
