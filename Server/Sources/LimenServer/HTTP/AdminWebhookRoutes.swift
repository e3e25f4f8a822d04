import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import Logging

/// The event webhooks under `/admin/webhooks` (behind the admin token): registered, listed, read, changed, deleted,
/// their secrets rotated (a secret is shown only in the answer that made it), their deliveries listed a page at a time
/// and sent again. Every change is an `admin.webhook_*` event with the admin token as actor.
enum AdminWebhookRoutes {
    /// The collection's path.
    static let path = "/admin/webhooks"

    /// Adds the routes behind the admin token (checked against `store`): over `webhooks`, retrying on `schedule`.
    static func add(
        to router: Router<some RemoteAddressRequestContext>,
        store: any AdministrationStore,
        webhooks: Webhooks,
        schedule: WebhookRetrySchedule,
        proxies: TrustedProxies
    ) {
        let admin = router.group("admin/webhooks").add(middleware: AdminAuthenticationMiddleware(store: store))
        /// The request's origin, acted by the admin token.
        @Sendable func origin(_ request: Request, _ context: some RemoteAddressRequestContext) -> RequestOrigin {
            RequestOrigin(request, context: context, peer: context.remoteAddress, proxies: proxies, actor: .adminToken)
        }

        admin.post { request, context in
            let body = try await AdminJSON.decode(AdminWebhookRequest.self, from: request)
            let (webhook, secret) = try await refusing {
                () throws(WebhookError) in
                try await webhooks.create(
                    url: body.url, events: body.events, description: body.description, origin: origin(request, context))
            }
            context.logger.notice("Admin API registered a webhook", metadata: ["webhook": "\(webhook.id)"])
            return Responses.json(
                encoding: AdminWebhookResource(webhook, secret: secret), status: .created, noStore: true)
        }
        admin.get { _, _ in
            let all = try await refusing { () throws(WebhookError) in try await webhooks.all() }
            return Responses.json(
                encoding: AdminWebhookList(webhooks: all.map { AdminWebhookResource($0) }), noStore: true)
        }
        admin.get(":id") { _, context in
            let id = try context.parameters.path(WebhookID.self).rawValue
            let webhook = try await refusing { () throws(WebhookError) in try await webhooks.webhook(id: id) }
            guard let webhook else { throw AdminError.notFound("webhook") }
            return Responses.json(encoding: AdminWebhookResource(webhook), noStore: true)
        }
        admin.patch(":id") { request, context in
            let id = try context.parameters.path(WebhookID.self).rawValue
            let patch = try await AdminJSON.decode(AdminWebhookPatch.self, from: request)
            let updated = try await refusing { () throws(WebhookError) in
                try await webhooks.update(
                    id: id, url: patch.url, events: patch.events, description: patch.description,
                    origin: origin(request, context))
            }
            guard let updated else { throw AdminError.notFound("webhook") }
            context.logger.notice("Admin API changed a webhook", metadata: ["webhook": "\(id)"])
            return Responses.json(encoding: AdminWebhookResource(updated), noStore: true)
        }
        admin.delete(":id") { request, context in
            let id = try context.parameters.path(WebhookID.self).rawValue
            let deleted = try await refusing { () throws(WebhookError) in
                try await webhooks.delete(id: id, origin: origin(request, context))
            }
            guard deleted else { throw AdminError.notFound("webhook") }
            context.logger.notice("Admin API removed a webhook", metadata: ["webhook": "\(id)"])
            return Response(status: .noContent)
        }
        admin.post(":id/rotate-secret") { request, context in
            let id = try context.parameters.path(WebhookID.self).rawValue
            let secret = try await refusing { () throws(WebhookError) in
                try await webhooks.rotateSecret(id: id, origin: origin(request, context))
            }
            guard let secret else { throw AdminError.notFound("webhook") }
            context.logger.notice("Admin API rotated a webhook's secret", metadata: ["webhook": "\(id)"])
            return Responses.json(encoding: AdminWebhookSecret(secret: secret), noStore: true)
        }
        addDeliveryRoutes(to: admin, webhooks: webhooks, schedule: schedule, origin: origin)
    }

    private static func addDeliveryRoutes<Context: RemoteAddressRequestContext>(
        to admin: RouterGroup<Context>, webhooks: Webhooks, schedule: WebhookRetrySchedule,
        origin: @escaping @Sendable (Request, Context) -> RequestOrigin
    ) {
        admin.get(":id/deliveries") { request, context in
            let id = try context.parameters.path(WebhookID.self).rawValue
            let query = try FormFields.query(of: request).mapError { AdminError.invalidRequest($0.description) }.get()
            let limit = try AdminRoutes.pageSize(query.value(sent: "limit"))
            let before = query["before"]
            // One more than asked: whether it exists tells whether there is a next page.
            let page = try await refusing { () throws(WebhookError) in
                try await webhooks.deliveries(of: id, before: before, limit: limit + 1)
            }
            guard let page else { throw AdminError.notFound("webhook") }
            let shown = page.prefix(limit)
            let next =
                page.count > limit
                ? shown.last.map { "\(path)/\(id)/deliveries?limit=\(limit)&before=\($0.id)" } : nil
            return Responses.json(
                encoding: AdminWebhookDeliveryPage(
                    deliveries: shown.map(AdminWebhookDeliveryResource.init), next: next),
                noStore: true)
        }
        admin.post(":id/deliveries/:delivery/retry") { request, context in
            let id = try context.parameters.path(WebhookID.self).rawValue
            let delivery = try context.parameters.path(WebhookDeliveryID.self).rawValue
            let retry = try await refusing { () throws(WebhookError) in
                try await webhooks.retryDelivery(
                    id: delivery, webhook: id, schedule: schedule, origin: origin(request, context))
            }
            let retried: WebhookDeliveryRecord
            switch retry {
            case .retried(let record): retried = record
            case .inFlight:
                throw AdminError.conflict("the delivery is being sent right now; retry once it has an answer")
            case .notFound: throw AdminError.notFound("delivery")
            }
            context.logger.notice(
                "Admin API sent a webhook delivery again", metadata: ["webhook": "\(id)", "delivery": "\(delivery)"])
            return Responses.json(encoding: AdminWebhookDeliveryResource(retried), status: .accepted, noStore: true)
        }
    }

    /// Runs a webhook call; a refusal is the request's (`400`), a store failure the server's.
    private static func refusing<Value>(_ call: () async throws(WebhookError) -> Value) async throws(AdminError)
        -> Value
    {
        do {
            return try await call()
        } catch .storage(let error) {
            throw AdminError(error)
        } catch {
            throw AdminError.invalidRequest(error.message)
        }
    }
}
