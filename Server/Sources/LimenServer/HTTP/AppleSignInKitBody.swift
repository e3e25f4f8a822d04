import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire

/// The JSON bodies of AppleSignInKit's backend contract, read strictly (no member twice, at most ``maximumSize``
/// bytes, each member of its type and within its length), and the JSON it reads back.
enum AppleSignInKitBody {
    /// The largest body read, in bytes.
    static let maximumSize = 16 * 1024

    /// `POST /auth/apple/native`'s body.
    struct NativeSignIn: Sendable, Equatable {
        /// The identity token Apple gave the app.
        var identityToken: String
        /// The raw nonce the app generated; the token carries its SHA-256.
        var nonce: String
        /// Apple's authorization code (kept for code redemption; not needed to sign in).
        var authorizationCode: String?
        /// The address the app passes; not used: the address comes from the identity token, where Apple vouches
        /// for it.
        var email: String?
        /// The name the app passes on the first sign-in.
        var fullName: String?
    }

    /// The body of `POST /auth/apple/native`.
    static func nativeSignIn(from request: Request) async throws(AppleSignInKitError) -> NativeSignIn {
        let members = try await object(from: request)
        return NativeSignIn(
            identityToken: try string(members, "identityToken", maximumLength: 16 * 1024, required: true) ?? "",
            nonce: try string(members, "nonce", maximumLength: 512, required: true) ?? "",
            authorizationCode: try string(members, "authorizationCode", maximumLength: 2048, required: false),
            email: try string(members, "email", maximumLength: 320, required: false),
            fullName: try displayName(
                try string(members, "fullName", maximumLength: 4 * Accounts.maximumNameLength, required: false)))
    }

    /// The name as every sign-up takes one (``Accounts/displayName(_:)``: trimmed, `nil` when blank, bounded).
    private static func displayName(_ name: String?) throws(AppleSignInKitError) -> String? {
        do {
            return try Accounts.displayName(name)
        } catch {
            throw .invalidRequest("fullName is too long")
        }
    }

    /// The refresh token of `POST /auth/refresh`'s body.
    static func refreshToken(from request: Request) async throws(AppleSignInKitError) -> String {
        try string(try await object(from: request), "refreshToken", maximumLength: 512, required: true) ?? ""
    }

    /// The signed notification of Apple's `POST /auth/apple/notifications` body (`{"payload": JWT}`).
    static func notificationPayload(from request: Request) async throws(AppleSignInKitError) -> String {
        try string(try await object(from: request), "payload", maximumLength: 16 * 1024, required: true) ?? ""
    }

    /// A user as AppleSignInKit's `AuthUser` reads it: `id`, `email`, `displayName` (`null` when absent, or when
    /// `scope` lacks `email` or `profile`, the scopes that show them at `/userinfo`) and `createdAt` (ISO 8601, whole
    /// seconds, UTC).
    static func user(_ user: UserRecord, scope: Scope) -> JSONValue {
        let email = scope.contains("email") ? user.email : nil
        let name = scope.contains("profile") ? user.name : nil
        return .object([
            "id": .string(user.id), "email": email.map(JSONValue.string) ?? .null,
            "displayName": name.map(JSONValue.string) ?? .null,
            "createdAt": .string(user.createdAt.formatted(.iso8601)),
        ])
    }

    /// The tokens of an OAuth token response (`access_token`, `refresh_token`, `expires_in`) under AppleSignInKit's
    /// names, with `extra` members.
    static func tokens(_ oauth: JSONValue, extra: [String: JSONValue] = [:]) throws(AppleSignInKitError) -> JSONValue {
        guard case .object(let body) = oauth, let accessToken = body["access_token"],
            let refreshToken = body["refresh_token"],
            let expiresIn = body["expires_in"]
        else { throw .serverError }
        return .object(
            extra.merging(["accessToken": accessToken, "refreshToken": refreshToken, "expiresIn": expiresIn]) { $1 })
    }

    /// The body as a JSON object (``JSONObjectBody``), its refusals as AppleSignInKit's errors.
    private static func object(from request: Request) async throws(AppleSignInKitError) -> JSONObjectBody {
        do {
            return try await JSONObjectBody.read(from: request, maximumSize: maximumSize)
        } catch {
            throw AppleSignInKitError(error)
        }
    }

    /// The string member `name` of `body` (``JSONObjectBody/string(_:maximumLength:required:)``).
    private static func string(
        _ body: JSONObjectBody,
        _ name: String,
        maximumLength: Int,
        required: Bool
    ) throws(AppleSignInKitError) -> String? {
        do {
            return try body.string(name, maximumLength: maximumLength, required: required)
        } catch {
            throw AppleSignInKitError(error)
        }
    }
}
