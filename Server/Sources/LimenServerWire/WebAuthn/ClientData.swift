import Crypto
import Foundation
import LimenWire

/// The client data a browser or platform passes to the authenticator (WebAuthn §5.8.1, `clientDataJSON`), read with
/// LimenWire's strict JSON parser.
///
/// ```swift
/// let clientData = try ClientData(json: clientDataJSON)
/// try clientData.check(type: .get, challenge: issuedChallenge, allowedOrigins: ["https://example.com"])
/// ```
public struct ClientData: Sendable {
    /// The bytes as received: their SHA-256 (``hash``) is what the authenticator signs.
    public let bytes: [UInt8]
    /// The `type` member (`webauthn.create`, `webauthn.get`).
    public let type: String
    /// The challenge, decoded from base64url.
    public let challenge: [UInt8]
    /// The origin of the page or app that ran the ceremony.
    public let origin: String
    /// Whether the ceremony ran in a cross-origin iframe (`false` when the member is missing).
    public let crossOrigin: Bool
    /// The top-level origin, when the ceremony ran in a cross-origin iframe.
    public let topOrigin: String?

    /// Reads `clientDataJSON`: a JSON object with string `type`, base64url `challenge` and string `origin`, an optional
    /// boolean `crossOrigin` and an optional string `topOrigin`; other members are ignored, as WebAuthn asks.
    public init(json: [UInt8]) throws(WebAuthnError) {
        guard let object = (try? JSONValue(parsing: json))?.objectValue,
            let type = object["type"]?.stringValue,
            let challengeText = object["challenge"]?.stringValue,
            let challenge = Base64URL.decode(challengeText),
            let origin = object["origin"]?.stringValue
        else { throw .clientDataMalformed }
        let crossOrigin = object["crossOrigin"]
        let topOrigin = object["topOrigin"]
        guard crossOrigin == nil || crossOrigin?.boolValue != nil, topOrigin == nil || topOrigin?.stringValue != nil
        else { throw .clientDataMalformed }
        bytes = json
        self.type = type
        self.challenge = Array(challenge)
        self.origin = origin
        self.crossOrigin = crossOrigin?.boolValue ?? false
        self.topOrigin = topOrigin?.stringValue
    }

    /// SHA-256 of ``bytes``, the `clientDataHash` that attestation and assertion signatures cover.
    public var hash: [UInt8] {
        Array(SHA256.hash(data: bytes))
    }

    /// Checks the client data against the ceremony the server started (WebAuthn §7.1 steps 7–10, §7.2 steps 10–13).
    ///
    /// - Parameters:
    ///   - type: the ceremony expected.
    ///   - challenge: the challenge the server issued; compared in constant time.
    ///   - allowedOrigins: the origins the server accepts, exactly as browsers write them (`https://example.com`).
    ///   - allowsCrossOrigin: whether a ceremony in a cross-origin iframe is accepted.
    public func check(
        type: CeremonyType, challenge: [UInt8], allowedOrigins: Set<String>, allowsCrossOrigin: Bool = false
    ) throws(WebAuthnError) {
        guard self.type == type.rawValue else { throw .clientDataTypeMismatch }
        // Both sides as canonical base64url: equal exactly when the bytes are, compared without an early exit.
        guard ConstantTime.equals(Base64URL.encode(self.challenge), Base64URL.encode(challenge)) else {
            throw .challengeMismatch
        }
        guard allowedOrigins.contains(origin) else { throw .originNotAllowed }
        guard allowsCrossOrigin || !crossOrigin else { throw .crossOriginNotAllowed }
    }
}
