import Foundation
import Limen
import SwiftASN1
import X509

extension NIOHTTPTransport {
    /// Reads the certificates of a PEM file (one or more `-----BEGIN CERTIFICATE-----` blocks), in DER, for
    /// ``init(timeout:additionalTrustRoots:maximumResponseBytes:)``.
    /// - Throws: `ConfigurationError/unreadableFile(_:)` when the file cannot be read, or
    ///   `ConfigurationError/invalidValue(key:reason:)` (key `trust roots`) when it holds no certificate or a block
    ///   that is not one.
    public static func trustRoots(pemFile: URL) throws(ConfigurationError) -> [Data] {
        guard let text = try? String(contentsOf: pemFile, encoding: .utf8) else {
            throw .unreadableFile(pemFile.path)
        }
        let certificates: [Certificate]
        do {
            certificates = try PEMDocument.parseMultiple(pemString: text).map(Certificate.init(pemDocument:))
        } catch {
            throw .invalidValue(key: "trust roots", reason: "\(pemFile.path) holds a block that is not a certificate")
        }
        guard !certificates.isEmpty else {
            throw .invalidValue(key: "trust roots", reason: "\(pemFile.path) holds no PEM certificate")
        }
        return certificates.map(\.derData)
    }
}
