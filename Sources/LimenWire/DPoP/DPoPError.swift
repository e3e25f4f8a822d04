import Foundation

/// Why a DPoP proof (RFC 9449) could not be made.
///
/// Messages never contain the key or the access token.
public enum DPoPError: Error, Sendable, Equatable {
    /// The request's URL is not an absolute `http` or `https` URL with a host, so it cannot be a proof's `htu`.
    case invalidTargetURL
    /// The key did not sign the proof; the associated value is the signing library's description.
    case signingFailed(String)
    /// No key could be made or found (a Secure Enclave refusing to make one); the associated value says why.
    case keyUnavailable(String)

    /// A stable, machine-readable identifier: `dpop.` followed by the failure.
    public var code: String {
        switch self {
        case .invalidTargetURL: "dpop.invalid_target_url"
        case .signingFailed: "dpop.signing_failed"
        case .keyUnavailable: "dpop.key_unavailable"
        }
    }
}

extension DPoPError: LocalizedError {
    /// A human-readable description.
    public var errorDescription: String? {
        switch self {
        case .invalidTargetURL: "A DPoP proof needs an absolute http or https URL."
        case .signingFailed(let reason): "The DPoP key could not sign the proof: \(reason)"
        case .keyUnavailable(let reason): "No DPoP key could be made: \(reason)"
        }
    }
}
