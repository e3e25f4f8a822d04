import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire

/// The admin console's pages (``AdminConsoleRoutes``): no scripts (the pages' CSP allows none), `no-store` like every
/// page, and links relative to `root`, which leads from the page to the issuer's root.
extension Pages {
    /// The console's home page for the admin `email`.
    static func consoleHome(email: String, root: String) -> Response {
        console(
            ConsolePage(
                title: "Admin console", root: root, admin: email,
                message: "Manage this server: see what happened in the security events.", isError: false),
            status: .ok)
    }

    /// The console's events page for the admin `email`: `events` (newest first) matching `filter`, and the query of
    /// the next page.
    static func consoleEvents(
        email: String, root: String, events: [SecurityEventRecord], filter: ConsoleEventFilter, next: String?,
        error: String? = nil
    ) -> Response {
        var page = ConsolePage(title: "Security events", root: root, admin: email, message: error, isError: true)
        page.filter = filter
        page.events = events.map(ConsoleEvent.init)
        page.next = next
        return console(page, status: error == nil ? .ok : .badRequest)
    }

    /// The console's clients page for the admin `email`: `clients`, the registration form bound to `csrf`, and the
    /// client just registered with its secret (shown this once), or why a registration was refused.
    static func consoleClients(
        email: String, root: String, clients: [ClientRecord], csrf: String, created: (ClientRecord, String?)? = nil,
        error: String? = nil, status: HTTPResponse.Status = .ok
    ) -> Response {
        var page = ConsolePage(title: "Clients", root: root, admin: email, message: error, isError: true)
        page.clientsPage = ConsoleClients(
            clients: clients.map(ConsoleClient.init), csrf: csrf,
            created: created.map { ConsoleCreatedClient(id: $0.0.id, secret: $0.1) })
        return console(page, status: status)
    }

    /// The console's users page for the admin `email`: the search form holding `query`, and the user found with their
    /// `admin` role and disabled state, `identities` and latest `events`, whose forms are bound to `csrf`; and
    /// `message`.
    static func consoleUsers(
        email: String, root: String, query: String, found: ConsoleUserState?,
        identities: [IdentityRecord], events: [SecurityEventRecord], csrf: String, message: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        var page = ConsolePage(
            title: "Users", root: root, admin: email, message: message, isError: status != .ok)
        page.usersPage = ConsoleUsers(
            query: query,
            found: found.map {
                ConsoleUser($0, identities: identities, events: events.map(ConsoleEvent.init), csrf: csrf)
            })
        return console(page, status: status)
    }

    /// A console page without an admin signed in: `message`, then `links` (text, then the path from the root).
    static func consoleRefusal(
        title: String, message: String, links: [(String, String)], root: String, status: HTTPResponse.Status
    ) -> Response {
        var page = ConsolePage(title: title, root: root, admin: nil, message: message, isError: status != .ok)
        page.links = links.map { ConsoleLink(text: $0.0, href: root + $0.1) }
        return console(page, status: status)
    }

    /// The console page `page`, answered with `status`.
    static func console(_ page: ConsolePage, status: HTTPResponse.Status) -> Response {
        render(page, template: "console", title: page.title, status: status)
    }
}

extension PageTemplates {
    /// A page of the admin console: the navigation and who is signed in (``ConsolePage/admin``), a message, links,
    /// and on the events page the filter form and the events.
    static let console = """
        {{<layout}}{{$content}}
        {{#admin}}<nav aria-label="Console"><a href="{{root}}admin/console">Console</a> \
        <a href="{{root}}admin/console/clients">Clients</a> <a href="{{root}}admin/console/users">Users</a> \
        <a href="{{root}}admin/console/events">Events</a> <a href="{{root}}admin/console/keys">Keys</a> \
        <a href="{{root}}admin/console/webhooks">Webhooks</a> <a href="{{root}}admin/console/flows">Flows</a> \
        <a href="{{root}}admin/console/schema">Profile schema</a></nav>
        <p class="account">Signed in as {{admin}}</p>
        {{/admin}}{{#message}}<p{{#isError}} class="error" role="alert"{{/isError}}>{{message}}</p>
        {{/message}}{{#links}}<p><a href="{{href}}">{{text}}</a></p>
        {{/links}}{{#filter}}<form method="get" action="{{root}}admin/console/events">
        <label for="filter-type">Type</label>
        <select id="filter-type" name="type"><option value="">Any</option>
        {{#types}}<option value="{{value}}"{{#chosen}} selected{{/chosen}}>{{value}}</option>
        {{/types}}</select>
        <label for="filter-user">User (subject)</label>
        <input id="filter-user" name="user" value="{{user}}" spellcheck="false">
        <label for="filter-client">Client</label>
        <input id="filter-client" name="client" value="{{client}}" spellcheck="false">
        <label for="filter-since">Since (RFC 3339, such as 2026-11-29T10:00:00Z)</label>
        <input id="filter-since" name="since" value="{{since}}" spellcheck="false">
        <label for="filter-until">Until (RFC 3339)</label>
        <input id="filter-until" name="until" value="{{until}}" spellcheck="false">
        <button type="submit">Show events</button>
        </form>
        {{/filter}}{{#filter}}<ol class="events">
        {{#events}}<li><strong>{{type}}</strong> <time datetime="{{time}}">{{time}}</time><br>
        user {{user}} · client {{client}} · actor {{actor}} · {{details}}</li>
        {{/events}}</ol>
        {{^events}}<p>No events match.</p>{{/events}}
        {{#next}}<p><a href="{{root}}admin/console/events?{{next}}">Older events</a></p>{{/next}}
        {{/filter}}{{#clientsPage}}{{#created}}<p class="saved" role="status" id="form-notice">Client {{id}} \
        registered.{{#secret}} Its secret, shown only this once: <code id="client-secret">{{secret}}</code>{{/secret}}</p>
        {{/created}}<ul class="events">
        {{#clients}}<li><strong><a href="{{root}}admin/console/client?id={{id}}">{{id}}</a></strong> {{name}} · \
        {{kind}}<br>{{redirectURIs}}</li>
        {{/clients}}</ul>
        {{^clients}}<p>No clients yet.</p>{{/clients}}
        <h2 id="new-client-heading">Register a client</h2>
        <form method="post" action="{{root}}admin/console/clients" aria-labelledby="new-client-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <label for="client-id">Client ID</label>
        <input id="client-id" name="client_id" required spellcheck="false">
        <label for="client-name">Name</label>
        <input id="client-name" name="client_name">
        <label for="client-kind">Kind</label>
        <select id="client-kind" name="kind"><option value="confidential">Confidential: a server, with a secret</option>
        <option value="public">Public: an app in a browser or on a device</option></select>
        <label for="client-redirects">Redirect URIs, one a line</label>
        <textarea id="client-redirects" name="redirect_uris" rows="3" required spellcheck="false"></textarea>
        <button type="submit">Register</button>
        </form>
        {{/clientsPage}}{{#usersPage}}<form method="get" action="{{root}}admin/console/users">
        <label for="user-query">Email or subject</label>
        <input id="user-query" name="q" value="{{query}}" required spellcheck="false">
        <button type="submit">Find</button>
        </form>
        {{#found}}<h2 id="user-heading">{{email}}</h2>
        <p>Subject <code>{{id}}</code> · created <time datetime="{{created}}">{{created}}</time>\
        {{#isAdmin}} · admin{{/isAdmin}} · <strong id="user-state">{{#isDisabled}}disabled{{/isDisabled}}\
        {{^isDisabled}}enabled{{/isDisabled}}</strong></p>
        <p>Identities: {{identities}}</p>
        <h2 id="user-events-heading">Latest events</h2>
        <ol class="events" aria-labelledby="user-events-heading">
        {{#events}}<li><strong>{{type}}</strong> <time datetime="{{time}}">{{time}}</time><br>\
        client {{client}} · actor {{actor}} · {{details}}</li>
        {{/events}}</ol>
        <h2 id="user-sessions-heading">Sessions</h2>
        {{#hasSessions}}<ul class="events" aria-labelledby="user-sessions-heading">{{/hasSessions}}
        {{#sessions}}<li><strong>{{what}}</strong> · signed in <time datetime="{{signedIn}}">{{signedIn}}</time> with \
        {{methods}} · until <time datetime="{{until}}">{{until}}</time></li>
        {{/sessions}}{{#hasSessions}}</ul>{{/hasSessions}}
        {{^hasSessions}}<p id="no-sessions">No live sessions.</p>{{/hasSessions}}
        <form method="post" action="{{root}}admin/console/users/revoke-sessions" \
        aria-label="Sign {{email}} out everywhere">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{id}}">
        <button type="submit">Sign out everywhere</button>
        </form>
        <form method="post" action="{{root}}admin/console/users/{{#isDisabled}}enable{{/isDisabled}}\
        {{^isDisabled}}disable{{/isDisabled}}" aria-label="Disable or enable {{email}}">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{id}}">
        <button type="submit">{{#isDisabled}}Enable this user{{/isDisabled}}\
        {{^isDisabled}}Disable this user{{/isDisabled}}</button>
        </form>
        <form method="post" action="{{root}}admin/console/users/delete" aria-labelledby="user-heading">
        <input type="hidden" name="csrf" value="{{csrf}}">
        <input type="hidden" name="id" value="{{id}}">
        <button type="submit" class="danger">Delete this user</button>
        </form>
        {{/found}}{{/usersPage}}{{#clientPage}}{{>console-client}}{{/clientPage}}\
        {{#keysPage}}{{>console-keys}}{{/keysPage}}{{#webhooksPage}}{{>console-webhooks}}{{/webhooksPage}}\
        {{#webhookPage}}{{>console-webhook}}{{/webhookPage}}{{#flowsPage}}{{>console-flows}}{{/flowsPage}}\
        {{#schemaPage}}{{>console-schema}}{{/schemaPage}}
        {{/content}}{{/layout}}
        """
}

/// The values of a console page.
struct ConsolePage {
    /// The page's language.
    var lang = PageLanguage.tag(uiLocales: nil)
    /// The class of `main`: the console's pages are wider.
    var mainClass = "console"
    /// The heading and title.
    var title: String
    /// Leads from the page to the issuer's root.
    var root: String
    /// The signed-in admin's address; `nil` on a refusal, which shows no navigation.
    var admin: String?
    /// The page's one message.
    var message: String?
    /// Whether the message is an alert.
    var isError: Bool
    /// Links after the message.
    fileprivate var links: [ConsoleLink] = []
    /// The events page's filter form; `nil` on other pages.
    var filter: ConsoleEventFilter?
    /// The events shown.
    fileprivate var events: [ConsoleEvent] = []
    /// The query of the next page of events.
    var next: String?
    /// The clients page's list and form; `nil` on other pages.
    fileprivate var clientsPage: ConsoleClients?
    /// The users page's search and the user found; `nil` on other pages.
    fileprivate var usersPage: ConsoleUsers?
    /// A client's page: its settings, branding and secret (``ConsoleClientPage``); `nil` on other pages.
    var clientPage: ConsoleClientPage?
    /// The keys page (``ConsoleKeysPage``); `nil` on other pages.
    var keysPage: ConsoleKeysPage?
    /// The webhooks page (``ConsoleWebhooksPage``); `nil` on other pages.
    var webhooksPage: ConsoleWebhooksPage?
    /// A webhook's page (``ConsoleWebhookPage``); `nil` on other pages.
    var webhookPage: ConsoleWebhookPage?
    /// The flows page (``ConsoleFlowsPage``); `nil` on other pages.
    var flowsPage: ConsoleFlowsPage?
    /// The profile schema page (``ConsoleSchemaPage``); `nil` on other pages.
    var schemaPage: ConsoleSchemaPage?

    /// A page with no links, filter or events.
    init(title: String, root: String, admin: String?, message: String?, isError: Bool) {
        (self.title, self.root, self.admin, self.message, self.isError) = (title, root, admin, message, isError)
    }
}

/// A link on a console page.
private struct ConsoleLink {
    /// What the link says.
    var text: String
    /// Where it leads.
    var href: String
}

/// The events page's filter form as the admin filled it in.
struct ConsoleEventFilter {
    /// Every event type, the chosen one marked.
    var types: [ConsoleEventType]
    /// The user filter's text.
    var user: String
    /// The client filter's text.
    var client: String
    /// The earliest time's text.
    var since: String
    /// The latest time's text.
    var until: String

    /// The form showing the filter `fields` (empty values for those not given).
    init(_ fields: FormFields) {
        let type = fields["type"]
        types = SecurityEventType.all.map { ConsoleEventType(value: $0.rawValue, chosen: $0.rawValue == type) }
        (user, client) = (fields["user"] ?? "", fields["client"] ?? "")
        (since, until) = (fields["since"] ?? "", fields["until"] ?? "")
    }
}

/// An option of the type filter.
struct ConsoleEventType {
    /// The type.
    var value: String
    /// Whether it is the one filtered by.
    var chosen: Bool
}

/// An event as the console lists it: `–` for what it does not name.
private struct ConsoleEvent {
    /// The event's type.
    var type: String
    /// When, in RFC 3339.
    var time: String
    /// The user it concerns.
    var user: String
    /// The client it concerns.
    var client: String
    /// Who acted: `admin_token`, `command_line` or an admin's subject.
    var actor: String
    /// Its details as stored (JSON of fixed-vocabulary strings).
    var details: String

    /// The event `record` shows.
    init(_ record: SecurityEventRecord) {
        type = record.type
        time = record.time.formatted(.iso8601)
        (user, client, actor) = (record.user ?? "–", record.client ?? "–", record.actor ?? "–")
        details = record.details
    }
}

/// The clients page's values.
private struct ConsoleClients {
    /// The managed clients.
    var clients: [ConsoleClient]
    /// The registration form's CSRF token.
    var csrf: String
    /// The client just registered.
    var created: ConsoleCreatedClient?
}

/// A client as the console lists it.
private struct ConsoleClient {
    /// Its ID.
    var id: String
    /// Its name.
    var name: String
    /// `confidential` or `public`, and `native` for an app on a device.
    var kind: String
    /// Its redirect URIs, separated by spaces.
    var redirectURIs: String

    /// The client `record` shows.
    init(_ record: ClientRecord) {
        (id, name) = (record.id, record.name)
        kind = record.kind.rawValue + (record.isNative ? ", native" : "")
        redirectURIs = record.redirectURIs.joined(separator: " ")
    }
}

/// A client just registered: its ID and, for a confidential one, its secret, shown this once.
private struct ConsoleCreatedClient {
    /// Its ID.
    var id: String
    /// Its secret.
    var secret: String?
}

/// The users page's values.
private struct ConsoleUsers {
    /// What was searched for.
    var query: String
    /// The user found.
    var found: ConsoleUser?
}

/// A user as the console shows them.
private struct ConsoleUser {
    /// Their subject.
    var id: String
    /// Their address, or "a guest account".
    var email: String
    /// When the account was created, in RFC 3339.
    var created: String
    /// Whether they hold the admin role.
    var isAdmin: Bool
    /// Whether an admin disabled them.
    var isDisabled: Bool
    /// The kinds of their identities, or "none".
    var identities: String
    /// Their latest events.
    var events: [ConsoleEvent]
    /// Their live sessions: the grants, then the browser sessions.
    var sessions: [ConsoleSession]
    /// Whether they have any (stored: the templates read stored properties only).
    var hasSessions: Bool
    /// The forms' CSRF token.
    var csrf: String

    /// The found user of `state` with what the page shows of them.
    init(_ state: ConsoleUserState, identities: [IdentityRecord], events: [ConsoleEvent], csrf: String) {
        let user = state.user
        (id, email, isAdmin, isDisabled) = (user.id, user.email ?? "a guest account", state.isAdmin, state.isDisabled)
        created = user.createdAt.formatted(.iso8601)
        self.identities = identities.isEmpty ? "none" : identities.map(\.kind).joined(separator: ", ")
        sessions =
            state.sessions.grants.map { grant in
                ConsoleSession(
                    what: "app \(grant.clientID)", signedIn: grant.authTime, methods: grant.methods,
                    until: grant.expiresAt)
            }
            + state.sessions.browserSessions.map { session in
                ConsoleSession(
                    what: "browser", signedIn: session.authTime, methods: session.methods, until: session.expiresAt)
            }
        hasSessions = !sessions.isEmpty
        (self.events, self.csrf) = (events, csrf)
    }
}

/// A live session as the users page lists it: an app's grant or a browser's session.
private struct ConsoleSession {
    /// `app <client ID>` or `browser`.
    var what: String
    /// When its sign-in happened, in RFC 3339.
    var signedIn: String
    /// How that sign-in authenticated (`amr`), or `–`.
    var methods: String
    /// When it ends unless refreshed, in RFC 3339.
    var until: String

    /// The session `what`, signed in at `signedIn` with `methods`, lasting until `until`.
    init(what: String, signedIn: Date, methods: AuthenticationMethods, until: Date) {
        self.what = what
        self.signedIn = signedIn.formatted(.iso8601)
        self.methods = methods.values.isEmpty ? "–" : methods.values.joined(separator: ", ")
        self.until = until.formatted(.iso8601)
    }
}
