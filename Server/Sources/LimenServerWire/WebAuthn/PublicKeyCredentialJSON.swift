import Foundation
import LimenWire

/// What a browser's `PublicKeyCredential.toJSON()` (and an app's mapping of Apple's credential types) sends back from
/// a registration: WebAuthn Level 3's `RegistrationResponseJSON`, its binary members in base64url.
public struct RegistrationResponseJSON: Sendable {
    /// The credential ID (`rawId`, equal to `id`).
    public let credentialID: [UInt8]
    /// `response.clientDataJSON`.
    public let clientDataJSON: [UInt8]
    /// `response.attestationObject`.
    public let attestationObject: [UInt8]

    /// Reads the members WebAuthn requires; others (`transports`, `publicKey`, `clientExtensionResults`, …) are
    /// ignored, as browsers add more over time.
    public init(_ json: [String: JSONValue]) throws(WebAuthnError) {
        let credential = try PublicKeyCredentialJSON(json)
        credentialID = credential.rawID
        clientDataJSON = try credential.bytes("clientDataJSON")
        attestationObject = try credential.bytes("attestationObject")
    }
}

/// What a browser's `PublicKeyCredential.toJSON()` sends back from a sign-in: WebAuthn Level 3's
/// `AuthenticationResponseJSON`, its binary members in base64url.
public struct AuthenticationResponseJSON: Sendable {
    /// The credential ID (`rawId`, equal to `id`).
    public let credentialID: [UInt8]
    /// `response.clientDataJSON`.
    public let clientDataJSON: [UInt8]
    /// `response.authenticatorData`.
    public let authenticatorData: [UInt8]
    /// `response.signature`.
    public let signature: [UInt8]
    /// `response.userHandle`: the user handle a discoverable credential holds; `nil` when the authenticator gave none.
    public let userHandle: [UInt8]?

    /// Reads the members WebAuthn requires; others are ignored.
    public init(_ json: [String: JSONValue]) throws(WebAuthnError) {
        let credential = try PublicKeyCredentialJSON(json)
        credentialID = credential.rawID
        clientDataJSON = try credential.bytes("clientDataJSON")
        authenticatorData = try credential.bytes("authenticatorData")
        signature = try credential.bytes("signature")
        userHandle = try credential.optionalBytes("userHandle")
    }
}

/// The members both responses share: `id` and `rawId` (the same base64url credential ID; a missing `rawId` is taken
/// to be `id`, as some clients leave it out), `type` `public-key`, and the `response` object whose members each
/// ceremony reads.
private struct PublicKeyCredentialJSON {
    /// The credential ID.
    let rawID: [UInt8]
    /// The `response` object.
    let response: [String: JSONValue]

    init(_ json: [String: JSONValue]) throws(WebAuthnError) {
        guard json["type"]?.stringValue == "public-key", let id = json["id"]?.stringValue,
            (json["rawId"] ?? .string(id)).stringValue == id, let rawID = Base64URL.decode(id), !rawID.isEmpty,
            let response = json["response"]?.objectValue
        else { throw .responseMalformed }
        guard rawID.count <= AuthenticatorData.maximumCredentialIDLength else { throw .credentialIDTooLong }
        self.rawID = Array(rawID)
        self.response = response
    }

    /// The base64url member `name` of `response`, decoded.
    func bytes(_ name: String) throws(WebAuthnError) -> [UInt8] {
        guard let bytes = try optionalBytes(name) else { throw .responseMalformed }
        return bytes
    }

    /// The base64url member `name` of `response`, decoded; `nil` when missing or `null`.
    func optionalBytes(_ name: String) throws(WebAuthnError) -> [UInt8]? {
        switch response[name] {
        case nil, .null?: return nil
        case .string(let text)?:
            guard let bytes = Base64URL.decode(text) else { throw .responseMalformed }
            return Array(bytes)
        default: throw .responseMalformed
        }
    }
}
