import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import Logging

extension AdminConsoleRoutes {
    /// How many deliveries a webhook's page lists, newest first.
    static let consoleDeliveries = 20

    /// Adds the webhooks pages and their forms, each changing a webhook through `webhooks` as the admin API does (so
    /// recorded as its `admin.webhook_*` events), by the admin; retries on `schedule`:
    /// `GET /admin/console/webhooks` (the webhooks and a form registering one, `POST`, whose secret is shown once),
    /// `GET /admin/console/webhook?id=` (its settings and latest deliveries), and its forms
    /// `POST /admin/console/webhook/rotate-secret` (the new secret shown once), `/webhook/delete` and `/webhook/retry`
    /// (a failed delivery sent again; `409` while a worker is sending it).
    static func addWebhookPages(
        to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder, gate: AdminConsoleGate,
        webhooks: Webhooks, schedule: WebhookRetrySchedule
    ) {
        router.get(RouterPath(path + "/webhooks")) { request, _ in
            await responder.page(for: request) { browser throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    Pages.consoleWebhooks(
                        ConsoleClientView(admin: admin, root: "../../", csrf: csrf(browser)),
                        webhooks: try await stored(webhooks.all))
                }
            }
        }
        addForm("/webhooks", root: "../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            try await registerWebhook(submitted, webhooks: webhooks)
        }
        router.get(RouterPath(path + "/webhook")) { request, _ in
            await responder.query(for: request) { browser, fields throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    try await webhookPage(
                        fields["id"] ?? "", view: ConsoleClientView(admin: admin, root: "../../", csrf: csrf(browser)),
                        webhooks: webhooks)
                }
            }
        }
        addForm("/webhook/rotate-secret", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            let id = submitted.form["id"] ?? ""
            let secret = try await stored { () throws(WebhookError) in
                try await webhooks.rotateSecret(id: id, origin: submitted.origin)
            }
            if secret != nil {
                submitted.logger.notice(
                    "An admin rotated a webhook's secret in the console", metadata: ["webhook": "\(id)"])
            }
            return try await webhookPage(id, view: ConsoleClientView(submitted), webhooks: webhooks, secret: secret)
        }
        addForm("/webhook/delete", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            let id = submitted.form["id"] ?? ""
            let deleted = try await stored { () throws(WebhookError) in
                try await webhooks.delete(id: id, origin: submitted.origin)
            }
            if deleted {
                submitted.logger.notice("An admin removed a webhook in the console", metadata: ["webhook": "\(id)"])
            }
            return Pages.consoleWebhooks(
                ConsoleClientView(submitted), webhooks: try await stored(webhooks.all),
                message: deleted ? "The webhook is deleted." : "No webhook with this ID.",
                status: deleted ? .ok : .notFound)
        }
        addForm("/webhook/retry", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            try await retry(submitted, webhooks: webhooks, schedule: schedule)
        }
    }

    /// Registers the webhook the submitted form asks for (its event types one a line or separated by commas): the
    /// webhooks page with its secret shown once, or with why it was refused (`400`).
    private static func registerWebhook(
        _ submitted: ConsoleFormSubmission, webhooks: Webhooks
    ) async throws(StorageError) -> Response {
        let form = submitted.form
        let patterns = lines(form["events"]).flatMap { $0.split(separator: ",") }
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let view = ConsoleClientView(admin: submitted.admin, root: "../../", csrf: submitted.csrf)
        let created: (WebhookRecord, WebhookSecret)
        do throws(WebhookError) {
            created = try await webhooks.create(
                url: (form["url"] ?? "").trimmingCharacters(in: .whitespaces), events: patterns,
                description: form["description"], origin: submitted.origin)
        } catch .storage(let error) {
            throw error
        } catch {
            return Pages.consoleWebhooks(
                view, webhooks: try await stored(webhooks.all), message: error.message, status: .badRequest)
        }
        submitted.logger.notice(
            "An admin registered a webhook in the console", metadata: ["webhook": "\(created.0.id)"])
        return Pages.consoleWebhooks(view, webhooks: try await stored(webhooks.all), created: created)
    }

    /// Sends again the delivery the submitted form names (`delivery`, of webhook `id`): the webhook's page saying so,
    /// or that a worker is sending it (`409`), or that there is no such delivery (`404`).
    private static func retry(
        _ submitted: ConsoleFormSubmission, webhooks: Webhooks, schedule: WebhookRetrySchedule
    ) async throws(StorageError) -> Response {
        let (id, delivery) = (submitted.form["id"] ?? "", submitted.form["delivery"] ?? "")
        let outcome = try await stored { () throws(WebhookError) in
            try await webhooks.retryDelivery(id: delivery, webhook: id, schedule: schedule, origin: submitted.origin)
        }
        let view = ConsoleClientView(submitted)
        switch outcome {
        case .retried:
            submitted.logger.notice(
                "An admin sent a webhook delivery again in the console",
                metadata: ["webhook": "\(id)", "delivery": "\(delivery)"])
            return try await webhookPage(id, view: view, webhooks: webhooks, message: "The delivery is sent again.")
        case .inFlight:
            return try await webhookPage(
                id, view: view, webhooks: webhooks,
                message: "The delivery is being sent right now; retry once it has an answer.", status: .conflict)
        case .notFound:
            return try await webhookPage(
                id, view: view, webhooks: webhooks, message: "No such delivery.", status: .notFound)
        }
    }

    /// The page of webhook `id` for the admin of `view`, with its latest deliveries.
    private static func webhookPage(
        _ id: String, view: ConsoleClientView, webhooks: Webhooks, secret: WebhookSecret? = nil,
        message: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws(StorageError) -> Response {
        let webhook = try await stored { () throws(WebhookError) in try await webhooks.webhook(id: id) }
        let deliveries = try await stored { () throws(WebhookError) in
            try await webhooks.deliveries(of: id, before: nil, limit: consoleDeliveries)
        }
        return Pages.consoleWebhook(
            view, webhook: webhook, deliveries: deliveries ?? [], secret: secret, message: message, status: status)
    }

    /// What `call` returns; only a store's failure is thrown by the calls the console makes without checking input.
    private static func stored<Value>(_ call: () async throws(WebhookError) -> Value) async throws(StorageError)
        -> Value
    {
        do {
            return try await call()
        } catch .storage(let error) {
            throw error
        } catch {
            throw .queryFailed(error.message)
        }
    }
}
