import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenWire
import Logging

/// The signed-in user's passkeys, with an RFC 6750 bearer access token granting `openid`: `GET /v1/me/passkeys` lists
/// them; `PATCH /v1/me/passkeys/{id}` renames one (`{"name": …}`) and `DELETE /v1/me/passkeys/{id}` removes one, both
/// ``AccountChangeGate``'s to allow (a confidential client adds `client_secret`: to the JSON body of a rename, as a
/// form body of a removal). `{id}` is the credential ID in base64url. A passkey is registered through the
/// `passkey-register` flow.
enum PasskeyRoutes {
    /// The largest body of a rename.
    static let maximumBodySize = 4 * 1024

    static func add(
        to router: Router<some RemoteAddressRequestContext>, store: any PasskeyStore, service: TokenService,
        gate: AccountChangeGate
    ) {
        router.get("/v1/me/passkeys") { request, _ in
            try await MeRoutes.storageErrors { () throws(StorageError) in
                switch try await service.verifier.authorize(PresentedAccessToken(in: request), scope: "openid") {
                case .failure(let challenge): return challenge.response
                case .success(let claims):
                    let passkeys = try await store.passkeyCredentials(userID: claims.subject)
                    return Responses.json(.object(["passkeys": .array(passkeys.map(\.json))]), noStore: true)
                }
            }
        }
        router.patch("/v1/me/passkeys/:id") { request, context in
            let id = try context.parameters.path(PasskeyID.self)
            let body: JSONObjectBody
            let name: String
            do throws(JSONObjectBody.Refusal) {
                body = try await JSONObjectBody.read(from: request, maximumSize: maximumBodySize)
                name =
                    try body.string("name", maximumLength: 4 * PasskeyCeremonies.maximumNameLength, required: true)
                    ?? ""
                guard name.count <= PasskeyCeremonies.maximumNameLength else {
                    throw .invalid("name is longer than \(PasskeyCeremonies.maximumNameLength) characters")
                }
            } catch {
                return error.response
            }
            let secret = try? body.string("client_secret", maximumLength: 1024, required: false)
            return try await MeRoutes.changing(request, clientSecret: secret, gate: gate) {
                permit throws(StorageError) in
                guard let credential = id.credentialID,
                    let renamed = try await store.renamePasskeyCredential(
                        id: credential, userID: permit.user.id, name: name)
                else { return notFound }
                return Responses.json(renamed.json, noStore: true)
            }
        }
        router.delete("/v1/me/passkeys/:id") { request, context in
            let id = try context.parameters.path(PasskeyID.self)
            let origin = service.origin(of: request, context: context)
            return try await MeRoutes.changing(request, gate: gate) { permit throws(StorageError) in
                let removed = service.events.records(
                    [SecurityEvent(.passkeyRemoved, user: permit.user.id)], from: origin)
                guard let credential = id.credentialID,
                    try await store.deletePasskeyCredential(id: credential, userID: permit.user.id, recording: removed)
                else { return notFound }
                context.logger.notice("A user removed a passkey")
                return Response(status: .noContent, headers: [.cacheControl: "no-store"])
            }
        }
    }

    /// The answer for a passkey the user does not have.
    private static var notFound: Response {
        Responses.jsonError("not_found", description: "You have no such passkey.", status: .notFound)
    }
}

/// A passkey's credential ID in base64url (`/v1/me/passkeys/:id`).
struct PasskeyID: PathParameter {
    static let parameterName = "id"
    let rawValue: String

    /// The credential ID; `nil` when the segment is not base64url (then it names no passkey).
    var credentialID: Data? { Base64URL.decode(rawValue) }
}

extension PasskeyCredentialRecord {
    /// `{"id", "name", "created_at", "last_used_at", "backup_eligible", "backed_up"}` (times in seconds since 1970,
    /// `last_used_at` `null` before the first use).
    var json: JSONValue {
        .object([
            "id": .string(Base64URL.encode(credentialID)), "name": .string(name),
            "created_at": .number(createdAt.timeIntervalSince1970.rounded(.down)),
            "last_used_at": lastUsedAt.map { .number($0.timeIntervalSince1970.rounded(.down)) } ?? .null,
            "backup_eligible": .bool(isBackupEligible), "backed_up": .bool(isBackedUp),
        ])
    }
}
