import Limen
import LimenOIDC
import LimenTestSupport

/// ``SoftwareAuthenticator`` as the SDK's `PasskeyAuthenticator`: what it cannot answer is `PasskeyError.failed`.
public struct SoftwarePasskeys: PasskeyAuthenticator {
    /// The authenticator that holds the passkeys.
    public let authenticator: SoftwareAuthenticator

    /// Answers with `authenticator`.
    public init(_ authenticator: SoftwareAuthenticator) {
        self.authenticator = authenticator
    }

    public func register(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
        try answer { try authenticator.register(options) }
    }

    public func authenticate(_ options: JSONValue) async throws(PasskeyError) -> JSONValue {
        guard !authenticator.credentials.isEmpty else { throw .noCredential }
        return try answer { try authenticator.authenticate(options) }
    }

    private func answer(_ ceremony: () throws -> JSONValue) throws(PasskeyError) -> JSONValue {
        do {
            return try ceremony()
        } catch {
            throw .failed("\(error)")
        }
    }
}
