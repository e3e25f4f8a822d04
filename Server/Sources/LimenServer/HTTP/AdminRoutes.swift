import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// The admin API under `/admin` (JSON in and out, behind ``AdminAuthenticationMiddleware``): clients and users,
/// listed, created, read, changed and deleted, a client's secret replaced. Secrets and hashes never leave it, except a
/// client's new secret, once.
/// Every change is logged through the request's logger, so with its request id (identifiers only, never a secret or an
/// email), and recorded as security events (`admin.*`, actor `admin_token`) in the same unit as the change.
enum AdminRoutes {
    /// Users per page when `limit` is absent.
    static let defaultPageSize = 50
    /// The largest `limit` of a page of users.
    static let maximumPageSize = 500

    /// The tables the admin API reads and writes: clients, users, and the administrators' tokens.
    typealias Storage = ClientStore & UserStore & AdministrationStore & SecurityEventStore

    /// Adds the routes, each behind the admin token: over `store`, forgetting a changed client in `clients`, making
    /// and changing users through `accounts`, deleting them through `removal`, disabling them through
    /// `disablement`, signing them out everywhere through `sessions`, profiles through `profiles`, and the signing
    /// keys through `keys`.
    static func add(
        to router: Router<some RemoteAddressRequestContext>,
        store: any Storage,
        clients: ClientCache,
        accounts: Accounts,
        removal: AccountRemoval,
        disablement: AdminUserDisablement,
        sessions: AdminUserSessions,
        profiles: ProfileService,
        keys: AdminKeys,
        events: SecurityEventRecorder,
        proxies: TrustedProxies,
        now: @escaping @Sendable () -> Date
    ) {
        let admin = router.group("admin").add(middleware: AdminAuthenticationMiddleware(store: store))
        /// The request's origin, acted by the admin token.
        @Sendable func origin(_ request: Request, _ context: some RemoteAddressRequestContext) -> RequestOrigin {
            RequestOrigin(request, context: context, peer: context.remoteAddress, proxies: proxies, actor: .adminToken)
        }

        let managed = AdminClients(store: store, cache: clients, events: events, now: now)
        admin.get("clients") { _, _ in
            let clients = try await AdminError.storage { () throws(StorageError) in try await managed.list() }
            return Responses.json(encoding: AdminClientList(clients: clients.map { AdminClientResource($0) }))
        }
        admin.post("clients") { request, context in
            let body = try await AdminJSON.decode(AdminClientRequest.self, from: request)
            let (client, secret) = try await managed.register(body, origin: origin(request, context))
            context.logger.notice("Admin API registered a client", metadata: ["client_id": "\(client.id)"])
            return Responses.json(
                encoding: AdminClientResource(client, secret: secret), status: .created, noStore: true)
        }
        admin.get("clients/:id") { _, context in
            let id = try Self.managedClientID(context)
            guard
                let client = try await AdminError.storage({ () throws(StorageError) in try await store.client(id: id) })
            else {
                throw AdminError.notFound("client")
            }
            return Responses.json(encoding: AdminClientResource(client), noStore: true)
        }
        admin.patch("clients/:id") { request, context in
            let id = try Self.managedClientID(context)
            let patch = try await AdminJSON.decode(AdminClientPatch.self, from: request)
            guard let client = try await managed.update(id: id, patch, origin: origin(request, context)) else {
                throw AdminError.notFound("client")
            }
            context.logger.notice("Admin API changed a client", metadata: ["client_id": "\(id)"])
            return Responses.json(encoding: AdminClientResource(client), noStore: true)
        }
        admin.put("clients/:id/branding") { request, context in
            let id = try Self.managedClientID(context)
            let branding = try await AdminJSON.decode(AdminClientBrandingRequest.self, from: request).branding()
            guard let client = try await managed.updateBranding(id: id, branding, origin: origin(request, context))
            else {
                throw AdminError.notFound("client")
            }
            context.logger.notice("Admin API changed a client's branding", metadata: ["client_id": "\(id)"])
            return Responses.json(encoding: AdminClientResource(client), noStore: true)
        }
        admin.post("clients/:id/rotate-secret") { request, context in
            let id = try Self.managedClientID(context)
            guard let secret = try await managed.rotateSecret(id: id, origin: origin(request, context)) else {
                throw AdminError.notFound("client")
            }
            context.logger.notice("Admin API rotated a client's secret", metadata: ["client_id": "\(id)"])
            return Responses.json(encoding: AdminClientSecret(clientID: id, clientSecret: secret), noStore: true)
        }
        admin.delete("clients/:id") { request, context in
            let id = try Self.managedClientID(context)
            let records = events.records(
                [SecurityEvent(.adminClientDeleted, client: id)], from: origin(request, context))
            guard
                try await AdminError.storage({ () throws(StorageError) in
                    try await clients.remove(id: id, from: store, recording: records)
                })
            else {
                throw AdminError.notFound("client")
            }
            context.logger.notice("Admin API removed a client", metadata: ["client_id": "\(id)"])
            return Response(status: .noContent)
        }
        addUserRoutes(to: admin, store: store, accounts: accounts, removal: removal, origin: origin)
        AdminProfileRoutes.add(to: admin, profiles: profiles)
        AdminEventRoutes.add(to: admin, store: store)
        AdminUserDisablementRoutes.add(to: admin, store: store, disablement: disablement, origin: origin)
        AdminUserSessionRoutes.add(to: admin, store: store, sessions: sessions, origin: origin)
        AdminKeyRoutes.add(to: admin, keys: keys, origin: origin)
    }

    /// The `:id` of a client route, as a client the admin API manages: Limen Server's own are not found.
    private static func managedClientID(_ context: some RequestContext) throws -> String {
        let id = try context.parameters.path(ClientID.self).rawValue
        guard !SeedClients.isInternal(id) else { throw AdminError.notFound("client") }
        return id
    }

    private static func addUserRoutes<Context: RemoteAddressRequestContext>(
        to admin: RouterGroup<Context>, store: any Storage, accounts: Accounts, removal: AccountRemoval,
        origin: @escaping @Sendable (Request, Context) -> RequestOrigin
    ) {
        admin.get("users") { request, _ in
            let query = try FormFields.query(of: request).mapError { AdminError.invalidRequest($0.description) }.get()
            let limit = try pageSize(query.value(sent: "limit"))
            let after = query["after"]
            // One more than asked: whether it exists tells whether there is a next page.
            let users = try await AdminError.storage { () throws(StorageError) in
                try await store.users(after: after, limit: limit + 1)
            }
            let page = users.prefix(limit)
            return Responses.json(
                encoding: AdminUserPage(
                    users: page.map(AdminUserResource.init), nextAfter: users.count > limit ? page.last?.id : nil),
                noStore: true)
        }
        admin.post("users") { request, context in
            let body = try await AdminJSON.decode(AdminUserRequest.self, from: request)
            let user: UserRecord
            do throws(AccountError) {
                user = try await accounts.signUp(
                    email: body.email, password: body.password, name: body.name,
                    emailVerified: body.emailVerified ?? false, origin: origin(request, context))
            } catch {
                throw AdminError.account(error)
            }
            context.logger.notice("Admin API created a user", metadata: ["sub": "\(user.id)"])
            return Responses.json(encoding: AdminUserResource(user), status: .created, noStore: true)
        }
        admin.get("users/:id") { _, context in
            let id = try context.parameters.path(UserID.self).rawValue
            guard let user = try await AdminError.storage({ () throws(StorageError) in try await store.user(id: id) })
            else {
                throw AdminError.notFound("user")
            }
            return Responses.json(encoding: AdminUserResource(user), noStore: true)
        }
        admin.patch("users/:id") { request, context in
            let id = try context.parameters.path(UserID.self).rawValue
            let patch = try await AdminJSON.decode(AdminUserPatch.self, from: request)
            let updated: UserRecord?
            do throws(AccountError) {
                updated = try await accounts.update(id: id, patch.changes, origin: origin(request, context))
            } catch {
                throw AdminError.account(error)
            }
            guard let user = updated else { throw AdminError.notFound("user") }
            context.logger.notice(
                "Admin API changed a user",
                metadata: ["sub": "\(user.id)", "password_replaced": "\(patch.changes.password != nil)"])
            return Responses.json(encoding: AdminUserResource(user), noStore: true)
        }
        admin.delete("users/:id") { request, context in
            let id = try context.parameters.path(UserID.self).rawValue
            let requestOrigin = origin(request, context)
            guard
                try await AdminError.storage({ () throws(StorageError) in
                    try await removal.deleteAccount(userID: id, logger: context.logger, origin: requestOrigin)
                })
            else {
                throw AdminError.notFound("user")
            }
            context.logger.notice("Admin API removed a user", metadata: ["sub": "\(id)"])
            return Response(status: .noContent)
        }
    }

    /// The `limit` query parameter: 1…``maximumPageSize``, ``defaultPageSize`` when absent.
    static func pageSize(_ value: String?) throws(AdminError) -> Int {
        guard let value else { return defaultPageSize }
        guard let limit = Int(value), (1...maximumPageSize).contains(limit) else {
            throw AdminError.invalidRequest("limit must be a whole number from 1 to \(maximumPageSize)")
        }
        return limit
    }
}
