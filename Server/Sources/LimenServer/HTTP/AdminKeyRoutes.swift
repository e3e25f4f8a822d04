import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import Logging

/// The signing keys in the admin API (behind the admin token): `GET /admin/keys` lists them (kid, algorithm, state and
/// times; never private material), `POST /admin/keys/rotate` adds new ES256 and RS256 keys, published at once in
/// `/jwks` and signing an hour later, each recorded as `key.rotated` with the admin token as actor. Both answer the
/// list.
enum AdminKeyRoutes {
    /// Adds the routes to `admin`: the keys of `keys`, rotated from `origin`.
    static func add<Context: RemoteAddressRequestContext>(
        to admin: RouterGroup<Context>, keys: AdminKeys,
        origin: @escaping @Sendable (Request, Context) -> RequestOrigin
    ) {
        admin.get("keys") { _, _ in
            Responses.json(encoding: AdminKeyList(keys.list()), noStore: true)
        }
        admin.post("keys/rotate") { request, context in
            try await keys.rotate(origin: origin(request, context))
            context.logger.notice("Admin API rotated the signing keys")
            return Responses.json(encoding: AdminKeyList(keys.list()), noStore: true)
        }
    }
}
