import Foundation
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import Logging

extension AdminConsoleRoutes {
    /// Adds a client's page (`GET /admin/console/client?id=`: its settings, branding and secret, each with a form) and
    /// its forms, each naming the client (`id`) and changing it through `clients` as the admin API does, by the admin:
    /// `POST /admin/console/client/settings` (name, redirect URIs one a line, post-logout redirect URIs, token
    /// lifetimes, an empty one the server's), `/client/branding` and `/client/rotate-secret` (the new secret shown
    /// once). Each answers with the client's page, saying what changed or why it was refused.
    static func addClientPages(
        to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder, gate: AdminConsoleGate,
        clients: AdminClients
    ) {
        router.get(RouterPath(path + "/client")) { request, _ in
            await responder.query(for: request) { browser, fields throws(StorageError) in
                try await answer(browser, responder: responder, gate: gate, root: "../../") {
                    admin throws(StorageError) in
                    let id = fields["id"] ?? ""
                    return Pages.consoleClient(
                        ConsoleClientView(admin: admin, root: "../../", csrf: csrf(browser)),
                        client: try await clients.client(id: id))
                }
            }
        }
        addForm("/client/settings", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            let id = submitted.form["id"] ?? ""
            return try await changeClient(submitted, id: id, clients: clients, saying: "The settings are saved.") {
                () throws(AdminError) in
                try await clients.update(id: id, try settings(submitted.form, id: id), origin: submitted.origin)
            }
        }
        addForm("/client/branding", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            let id = submitted.form["id"] ?? ""
            return try await changeClient(submitted, id: id, clients: clients, saying: "The branding is saved.") {
                () throws(AdminError) in
                let form = submitted.form
                let branding = try AdminClientBrandingRequest(
                    displayName: form["display_name"], logoURI: form["logo_uri"], accentColor: form["accent_color"],
                    theme: form["theme"]
                ).branding()
                return try await clients.updateBranding(id: id, branding, origin: submitted.origin)
            }
        }
        addForm("/client/rotate-secret", root: "../../../", to: router, responder: responder, gate: gate) {
            submitted throws(StorageError) in
            let id = submitted.form["id"] ?? ""
            let view = ConsoleClientView(submitted)
            return try await outcome { () throws(AdminError) in
                try await clients.rotateSecret(id: id, origin: submitted.origin)
            } page: { result throws(StorageError) in
                let client = try await clients.client(id: id)
                switch result {
                case .success(let secret?):
                    submitted.logger.notice(
                        "An admin rotated a client's secret in the console", metadata: ["client_id": "\(id)"])
                    return Pages.consoleClient(view, client: client, secret: secret)
                case .success(nil): return Pages.consoleClient(view, client: nil)
                case .failure(let error):
                    return Pages.consoleClient(view, client: client, refusal: error)
                }
            }
        }
    }

    /// The client page answering a form that changes client `id` through `change` (the client as changed, `nil` when
    /// there is none): saying `saved`, or why the change was refused.
    private static func changeClient(
        _ submitted: ConsoleFormSubmission, id: String, clients: AdminClients, saying saved: String,
        _ change: () async throws(AdminError) -> ClientRecord?
    ) async throws(StorageError) -> Response {
        let view = ConsoleClientView(submitted)
        return try await outcome(change) { result throws(StorageError) in
            switch result {
            case .success(let client?):
                submitted.logger.notice("An admin changed a client in the console", metadata: ["client_id": "\(id)"])
                return Pages.consoleClient(view, client: client, message: saved)
            case .success(nil): return Pages.consoleClient(view, client: nil)
            case .failure(let error):
                return Pages.consoleClient(view, client: try await clients.client(id: id), refusal: error)
            }
        }
    }

    /// The console page for what `change` did: `page` of its outcome, except for a failure of the store, which is the
    /// server's error page (or the one saying to try again shortly).
    static func outcome<Value>(
        _ change: () async throws(AdminError) -> Value,
        page: (Result<Value, AdminError>) async throws(StorageError) -> Response
    ) async throws(StorageError) -> Response {
        let result: Result<Value, AdminError>
        do throws(AdminError) {
            result = .success(try await change())
        } catch {
            result = .failure(error)
        }
        switch result {
        case .failure(.serverError): return Pages.serverError()
        case .failure(.unavailable): return StorageError.unavailableResponse(html: true)
        default: return try await page(result)
        }
    }

    /// The settings form's fields as a patch of every setting it shows: an empty name is the client's ID, an empty
    /// lifetime the server's.
    private static func settings(_ form: FormFields, id: String) throws(AdminError) -> AdminClientPatch {
        AdminClientPatch(
            clientName: form["client_name"] ?? id, redirectURIs: lines(form["redirect_uris"]),
            postLogoutRedirectURIs: lines(form["post_logout_redirect_uris"]),
            accessTokenTTL: .some(try seconds(form, "access_token_ttl")),
            refreshTokenTTL: .some(try seconds(form, "refresh_token_ttl")))
    }

    /// The lines of a text area that are not blank, trimmed: one redirect URI a line.
    static func lines(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    /// The whole number of seconds in the form's field `name`; `nil` when it is empty.
    private static func seconds(_ form: FormFields, _ name: String) throws(AdminError) -> Int? {
        guard let text = form[name]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else { return nil }
        guard let seconds = Int(text) else { throw .invalidRequest("\(name) must be a whole number of seconds") }
        return seconds
    }
}

/// What every client page shows whatever the client: the admin, the way to the issuer's root, and the forms' CSRF
/// token.
struct ConsoleClientView: Sendable {
    /// The signed-in admin's address (their subject when they have none).
    var email: String
    /// Leads from the page to the issuer's root.
    var root: String
    /// The CSRF token of the console's forms.
    var csrf: String

    /// The view of `admin`'s page at `root`.
    init(admin: UserRecord, root: String, csrf: String) {
        (email, self.root, self.csrf) = (admin.email ?? admin.id, root, csrf)
    }

    /// The view answering `submitted`, a form posted one level below the client page.
    init(_ submitted: ConsoleFormSubmission) {
        self.init(admin: submitted.admin, root: "../../../", csrf: submitted.csrf)
    }
}
