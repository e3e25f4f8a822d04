import Foundation

/// Why a compact JWS / JWT could not even be taken apart.
public enum JWTDecodingError: Error, Sendable, Equatable {
    /// The token does not have exactly three dot-separated segments; the associated value is how many it has.
    case segmentCount(Int)
    /// A segment is not unpadded base64url.
    case invalidBase64URL(JWTSegment)
    /// The header (or, for a JWT, the payload) is not a JSON object.
    case invalidJSON(JWTSegment)

    /// A stable, machine-readable identifier for this failure.
    public var code: String {
        switch self {
        case .segmentCount: "jwt.segment_count"
        case .invalidBase64URL: "jwt.invalid_base64url"
        case .invalidJSON: "jwt.invalid_json"
        }
    }
}

/// One of the three segments of a compact JWS.
public enum JWTSegment: String, Sendable, Equatable {
    /// The protected header.
    case header
    /// The payload (the claims, for a JWT).
    case payload
    /// The signature.
    case signature
}

extension JWTDecodingError: LocalizedError {
    /// A human-readable description; never contains token material.
    public var errorDescription: String? {
        switch self {
        case .segmentCount(let count): "A compact JWT has 3 segments; this one has \(count)."
        case .invalidBase64URL(let segment): "The JWT \(segment.rawValue) is not valid base64url."
        case .invalidJSON(let segment): "The JWT \(segment.rawValue) is not a JSON object."
        }
    }
}
