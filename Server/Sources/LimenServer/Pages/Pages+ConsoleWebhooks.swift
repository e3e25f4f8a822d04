import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage

extension Pages {
    /// The console's webhooks page for the admin of `view`: `webhooks` (oldest first), the registration form, and the
    /// webhook just registered with its secret (shown this once), or `message` (an alert unless `status` is `200`).
    static func consoleWebhooks(
        _ view: ConsoleClientView, webhooks: [WebhookRecord], created: (WebhookRecord, WebhookSecret)? = nil,
        message: String? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        var page = ConsolePage(
            title: "Webhooks", root: view.root, admin: view.email, message: message, isError: status != .ok)
        page.webhooksPage = ConsoleWebhooksPage(
            webhooks: webhooks.map(ConsoleWebhook.init), csrf: view.csrf,
            created: created.map { ConsoleCreatedWebhook(id: $0.0.id, secret: $0.1.rawValue) })
        return console(page, status: status)
    }

    /// The console's page of `webhook` for the admin of `view`: its settings, its latest `deliveries` (a failed one
    /// with a form sending it again), the forms rotating its secret and deleting it, and `secret` when it was just
    /// replaced (shown this once); `message` (an alert unless `status` is `200`). No webhook: `404`, saying so.
    static func consoleWebhook(
        _ view: ConsoleClientView, webhook: WebhookRecord?, deliveries: [WebhookDeliveryRecord],
        secret: WebhookSecret? = nil, message: String? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        guard let webhook else {
            return console(
                ConsolePage(
                    title: "Webhook", root: view.root, admin: view.email, message: "No webhook with this ID.",
                    isError: true),
                status: .notFound)
        }
        var page = ConsolePage(
            title: "Webhook", root: view.root, admin: view.email, message: message,
            isError: status != .ok)
        page.webhookPage = ConsoleWebhookPage(
            webhook: ConsoleWebhook(webhook), deliveries: deliveries.map(ConsoleDelivery.init),
            hasDeliveries: !deliveries.isEmpty, csrf: view.csrf, secret: secret?.rawValue)
        return console(page, status: status)
    }
}

extension PageTemplates {
    /// The part of a console page (``console``) listing the webhooks, then the form registering one.
    static let consoleWebhooks = """
        {{#created}}<p class="saved" role="status" id="form-notice">Webhook {{id}} registered. Its signing secret, \
        shown only this once: <code id="webhook-secret">{{secret}}</code></p>
        {{/created}}<ul class="events" aria-label="Webhooks">
        {{#webhooks}}<li><strong><a href="{{root}}admin/console/webhook?id={{id}}">{{url}}</a></strong><br>\
        {{events}}{{#description}} · {{description}}{{/description}} · created \
        <time datetime="{{created}}">{{created}}</time></li>
        {{/webhooks}}</ul>
        {{^webhooks}}<p>No webhooks yet.</p>{{/webhooks}}
        <h2 id="new-webhook-heading">Register a webhook</h2>
        <form method="post" action="{{root}}admin/console/webhooks" aria-labelledby="new-webhook-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="webhook-url">URL (https)</label>
        <input id="webhook-url" name="url" required spellcheck="false">
        <label for="webhook-events">Event types, one a line or separated by commas (such as user.* or *)</label>
        <textarea id="webhook-events" name="events" rows="3" required spellcheck="false"></textarea>
        <label for="webhook-description">Description</label>
        <input id="webhook-description" name="description">
        <button type="submit">Register</button>
        </form>
        """

    /// The part of a console page (``console``) showing a webhook: its settings, its latest deliveries, then the forms
    /// rotating its secret and deleting it.
    static let consoleWebhook = """
        {{#secret}}<p class="saved" role="status" id="form-notice">A new signing secret, shown only this once: \
        <code id="webhook-secret">{{secret}}</code></p>
        {{/secret}}{{#webhook}}<p><code>{{id}}</code> · created <time datetime="{{created}}">{{created}}</time></p>
        <p>URL <code>{{url}}</code><br>Event types: {{events}}{{#description}}<br>{{description}}{{/description}}</p>
        {{/webhook}}<h2 id="deliveries-heading">Latest deliveries</h2>
        {{#hasDeliveries}}<ol class="events" aria-labelledby="deliveries-heading">{{/hasDeliveries}}
        {{#deliveries}}<li><strong>{{eventType}}</strong> <code>{{id}}</code><br>\
        <span class="delivery-status">{{status}}</span> · {{attempts}} attempts · last answer {{answer}}\
        {{#next}} · next attempt <time datetime="{{next}}">{{next}}</time>{{/next}}\
        {{#failed}}<form method="post" action="{{root}}admin/console/webhook/retry" aria-label="Retry {{id}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{webhookID}}">
        <input type="hidden" name="delivery" value="{{id}}">
        <button type="submit">Retry</button>
        </form>{{/failed}}</li>
        {{/deliveries}}{{#hasDeliveries}}</ol>{{/hasDeliveries}}
        {{^hasDeliveries}}<p>No deliveries yet.</p>{{/hasDeliveries}}
        {{#webhook}}<h2 id="secret-heading">Signing secret</h2>
        <p>A new secret replaces the old one at once: the receiver must be given the new one.</p>
        <form method="post" action="{{root}}admin/console/webhook/rotate-secret" aria-labelledby="secret-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{id}}">
        <button type="submit" class="danger">Rotate secret</button>
        </form>
        <h2 id="delete-heading">Delete</h2>
        <form method="post" action="{{root}}admin/console/webhook/delete" aria-labelledby="delete-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{id}}">
        <button type="submit" class="danger">Delete this webhook</button>
        </form>
        {{/webhook}}<p><a href="{{root}}admin/console/webhooks">All webhooks</a></p>
        """
}

/// The webhooks page's values.
struct ConsoleWebhooksPage {
    /// The webhooks, oldest first.
    var webhooks: [ConsoleWebhook]
    /// The registration form's CSRF token.
    var csrf: String
    /// The webhook just registered.
    var created: ConsoleCreatedWebhook?
}

/// A webhook just registered: its ID and its secret, shown this once.
struct ConsoleCreatedWebhook {
    /// Its ID.
    var id: String
    /// Its `whsec_` signing secret.
    var secret: String
}

/// A webhook as the console shows it.
struct ConsoleWebhook {
    /// Its ID.
    var id: String
    /// Where it posts.
    var url: String
    /// Its event type patterns, separated by commas.
    var events: String
    /// What the operator wrote about it.
    var description: String
    /// When it was registered, in RFC 3339.
    var created: String

    /// The webhook `record` shows.
    init(_ record: WebhookRecord) {
        (id, url, description) = (record.id, record.url, record.description)
        events = record.events.joined(separator: ", ")
        created = record.createdAt.formatted(.iso8601)
    }
}

/// A webhook's page: the webhook, its latest deliveries and the forms' CSRF token.
struct ConsoleWebhookPage {
    /// The webhook.
    var webhook: ConsoleWebhook
    /// Its latest deliveries, newest first.
    var deliveries: [ConsoleDelivery]
    /// Whether it has any (stored: the templates read stored properties only).
    var hasDeliveries: Bool
    /// The forms' CSRF token.
    var csrf: String
    /// Its new secret, shown this once.
    var secret: String?
}

/// A delivery as a webhook's page lists it.
struct ConsoleDelivery {
    /// Its ID (`msg_…`).
    var id: String
    /// The webhook it goes to.
    var webhookID: String
    /// The type of the event it carries.
    var eventType: String
    /// `pending`, `delivered` or `failed`.
    var status: String
    /// Attempts made so far.
    var attempts: Int
    /// The last answer's status code, why no answer came, or `–`.
    var answer: String
    /// When it is next attempted, in RFC 3339, while pending.
    var next: String?
    /// Whether it failed, so may be sent again.
    var failed: Bool

    /// The delivery `record` shows.
    init(_ record: WebhookDeliveryRecord) {
        (id, webhookID, eventType) = (record.id, record.webhookID, record.eventType)
        (status, attempts) = (record.status.rawValue, record.attempts)
        answer = record.lastStatusCode.map(String.init) ?? record.lastError ?? "–"
        next = record.status == .pending ? record.claimedUntil.formatted(.iso8601) : nil
        failed = record.status == .failed
    }
}
