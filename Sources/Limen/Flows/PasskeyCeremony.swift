import Foundation
import LimenOIDC

/// A WebAuthn ceremony in the parts a platform passkey API takes, read from WebAuthn's JSON options, and the JSON a
/// platform's credential becomes: the cross-platform half of a ``PasskeyAuthenticator`` adapter (`LimenApple`'s
/// `PlatformPasskeyAuthenticator` keeps only the framework calls).
///
/// ```swift
/// let ceremony = try PasskeyCeremony(requestOptions: options)
/// let request = provider(ceremony.relyingPartyID).createCredentialAssertionRequest(challenge: ceremony.challenge)
/// // … the platform answers …
/// return PasskeyCeremony.assertionJSON(credentialID: id, clientDataJSON: data, authenticatorData: auth,
///                                      signature: signature, userHandle: user)
/// ```
public struct PasskeyCeremony: Sendable, Equatable {
    /// The relying party's ID (`rp.id`, `rpId`).
    public var relyingPartyID: String
    /// The server's one-use challenge.
    public var challenge: Data
    /// The credentials the request allows (`allowCredentials`; empty: any discoverable one) or a registration
    /// excludes (`excludeCredentials`).
    public var credentialIDs: [Data]
    /// Whether the server requires user verification (`userVerification: "required"`).
    public var requiresUserVerification: Bool
    /// A registration's user: its opaque handle (`user.id`) and the name the passkey is listed under (`user.name`);
    /// `nil` for a sign-in.
    public var user: (id: Data, name: String)?

    /// The parts of `PublicKeyCredentialCreationOptionsJSON`.
    /// - Throws: ``PasskeyError/failed(_:)`` naming the member that is missing or not base64url.
    public init(creationOptions options: JSONValue) throws(PasskeyError) {
        let members = options.objectValue ?? [:]
        let user = members["user"]?.objectValue ?? [:]
        self.init(
            relyingPartyID: try Self.text(members["rp"]?.objectValue?["id"], "rp.id"),
            challenge: try Self.bytes(members["challenge"], "challenge"),
            credentialIDs: try Self.descriptors(members["excludeCredentials"], "excludeCredentials"),
            requiresUserVerification: members["authenticatorSelection"]?.objectValue?["userVerification"]?
                .stringValue == "required",
            user: (try Self.bytes(user["id"], "user.id"), try Self.text(user["name"], "user.name")))
    }

    /// The parts of `PublicKeyCredentialRequestOptionsJSON`.
    /// - Throws: ``PasskeyError/failed(_:)`` naming the member that is missing or not base64url.
    public init(requestOptions options: JSONValue) throws(PasskeyError) {
        let members = options.objectValue ?? [:]
        self.init(
            relyingPartyID: try Self.text(members["rpId"], "rpId"),
            challenge: try Self.bytes(members["challenge"], "challenge"),
            credentialIDs: try Self.descriptors(members["allowCredentials"], "allowCredentials"),
            requiresUserVerification: members["userVerification"]?.stringValue == "required", user: nil)
    }

    private init(
        relyingPartyID: String, challenge: Data, credentialIDs: [Data], requiresUserVerification: Bool,
        user: (id: Data, name: String)?
    ) {
        (self.relyingPartyID, self.challenge, self.credentialIDs) = (relyingPartyID, challenge, credentialIDs)
        (self.requiresUserVerification, self.user) = (requiresUserVerification, user)
    }

    public static func == (lhs: PasskeyCeremony, rhs: PasskeyCeremony) -> Bool {
        lhs.relyingPartyID == rhs.relyingPartyID && lhs.challenge == rhs.challenge
            && lhs.credentialIDs == rhs.credentialIDs && lhs.requiresUserVerification == rhs.requiresUserVerification
            && lhs.user?.id == rhs.user?.id && lhs.user?.name == rhs.user?.name
    }

    // MARK: Answers

    /// A new credential as `RegistrationResponseJSON`.
    public static func registrationJSON(credentialID: Data, clientDataJSON: Data, attestationObject: Data) -> JSONValue
    {
        credentialJSON(
            id: credentialID,
            response: [
                "clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
                "attestationObject": .string(Base64URL.encode(attestationObject)),
            ])
    }

    /// An assertion as `AuthenticationResponseJSON`.
    public static func assertionJSON(
        credentialID: Data, clientDataJSON: Data, authenticatorData: Data, signature: Data, userHandle: Data?
    ) -> JSONValue {
        var response: [String: JSONValue] = [
            "clientDataJSON": .string(Base64URL.encode(clientDataJSON)),
            "authenticatorData": .string(Base64URL.encode(authenticatorData)),
            "signature": .string(Base64URL.encode(signature)),
        ]
        if let userHandle { response["userHandle"] = .string(Base64URL.encode(userHandle)) }
        return credentialJSON(id: credentialID, response: response)
    }

    // MARK: Parts

    private static func credentialJSON(id: Data, response: [String: JSONValue]) -> JSONValue {
        .object([
            "id": .string(Base64URL.encode(id)), "rawId": .string(Base64URL.encode(id)), "type": .string("public-key"),
            "response": .object(response), "clientExtensionResults": .object([:]),
            "authenticatorAttachment": .string("platform"),
        ])
    }

    private static func text(_ value: JSONValue?, _ name: String) throws(PasskeyError) -> String {
        guard let text = value?.stringValue, !text.isEmpty else { throw .failed("the options have no \(name)") }
        return text
    }

    private static func bytes(_ value: JSONValue?, _ name: String) throws(PasskeyError) -> Data {
        guard let bytes = Base64URL.decode(try text(value, name)) else { throw .failed("\(name) is not base64url") }
        return bytes
    }

    private static func descriptors(_ value: JSONValue?, _ name: String) throws(PasskeyError) -> [Data] {
        guard case .array(let items)? = value else { return [] }
        var ids: [Data] = []
        for item in items {
            ids.append(try bytes(item.objectValue?["id"], "\(name)[].id"))
        }
        return ids
    }
}
