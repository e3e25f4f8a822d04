/// An email address and password the person typed, kept in memory by the SDK when a sign-in needs a decision
/// (``AccountError/migrationRequired(_:)``), so that the app answers with ``AuthClient/login(with:allowMigration:)``
/// and nobody types them again (RxFireAuth's `LoginCredentials`). Never stored, never logged: its description shows
/// the address only.
///
/// ```swift
/// } catch .account(.migrationRequired(let credentials)) {
///     let keep = await askWhetherToKeepGuestData()
///     let descriptor = try await client.login(with: credentials, allowMigration: keep)
/// }
/// ```
public struct LoginCredentials: Sendable, Equatable {
    /// The email address.
    public let email: String
    /// The password; read only by the SDK.
    let password: String

    /// Credentials for an email and password sign-in.
    public init(email: String, password: String) {
        self.email = email
        self.password = password
    }
}

extension LoginCredentials: CustomStringConvertible, CustomDebugStringConvertible {
    /// The address and a redacted password.
    public var description: String { "LoginCredentials(email: \(email), password: <redacted>)" }
    /// The same as ``description``: the password never shows.
    public var debugDescription: String { description }
}
