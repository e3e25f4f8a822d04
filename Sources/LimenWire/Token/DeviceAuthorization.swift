import Foundation

/// The device authorization endpoint's answer (RFC 8628 §3.2): what to show the user, and what to poll with.
public struct DeviceAuthorization: Sendable, Equatable, Decodable {
    /// The code the client polls the token endpoint with. Secret: never show or log it.
    public var deviceCode: String
    /// The short code the user types on the verification page.
    public var userCode: String
    /// The page where the user enters ``userCode``.
    public var verificationURI: URL
    /// The page with the user code already filled in, when offered (for a QR code).
    public var verificationURIComplete: URL?
    /// Seconds until the device code expires.
    public var expiresIn: TimeInterval
    /// Seconds to wait between polls (default 5, RFC 8628 §3.2).
    public var interval: TimeInterval

    /// Creates a value.
    public init(
        deviceCode: String,
        userCode: String,
        verificationURI: URL,
        verificationURIComplete: URL? = nil,
        expiresIn: TimeInterval,
        interval: TimeInterval = 5
    ) {
        self.deviceCode = deviceCode
        self.userCode = userCode
        self.verificationURI = verificationURI
        self.verificationURIComplete = verificationURIComplete
        self.expiresIn = expiresIn
        self.interval = interval
    }

    enum CodingKeys: String, CodingKey {
        case deviceCode = "device_code"
        case userCode = "user_code"
        case verificationURI = "verification_uri"
        case verificationURIComplete = "verification_uri_complete"
        case expiresIn = "expires_in"
        case interval
    }

    /// Decodes the answer; `interval` defaults to 5 seconds.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        deviceCode = try container.decode(String.self, forKey: .deviceCode)
        userCode = try container.decode(String.self, forKey: .userCode)
        verificationURI = try container.decode(URL.self, forKey: .verificationURI)
        verificationURIComplete = try container.decodeIfPresent(URL.self, forKey: .verificationURIComplete)
        expiresIn = try container.decode(TimeInterval.self, forKey: .expiresIn)
        interval = try container.decodeIfPresent(TimeInterval.self, forKey: .interval) ?? 5
    }
}
