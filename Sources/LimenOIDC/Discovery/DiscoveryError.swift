import Foundation
import LimenWire

/// Why a provider's metadata was refused.
public enum DiscoveryError: Error, Sendable, Equatable {
    /// The document's `issuer` is not exactly the configured issuer (OpenID Connect Discovery §4.3).
    case issuerMismatch(expected: String, actual: String)
    /// The document is not valid JSON metadata, or lacks a required field.
    case invalidDocument(String)
    /// The configured issuer is not an `https` URL (or `http` on a loopback host), or has a query or fragment.
    case invalidIssuer(String)

    /// A stable, machine-readable identifier.
    public var code: String {
        switch self {
        case .issuerMismatch: "discovery.issuer_mismatch"
        case .invalidDocument: "discovery.invalid_document"
        case .invalidIssuer: "discovery.invalid_issuer"
        }
    }
}

extension DiscoveryError: LocalizedError {
    /// A human-readable description.
    public var errorDescription: String? {
        switch self {
        case .issuerMismatch(let expected, let actual):
            "The provider's metadata names issuer \(actual), not the configured \(expected)."
        case .invalidDocument(let reason): "The provider's metadata is invalid: \(reason)."
        case .invalidIssuer(let issuer): "\(issuer) is not a valid issuer identifier."
        }
    }
}
