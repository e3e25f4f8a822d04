import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenServerWire
import LimenWire
import Logging

/// The hosted pages of a pending authorization request: each flow's nodes rendered as HTML (``FlowPageRenderer``)
/// and run by the one ``FlowEngine``, with the request's CSRF token. `GET /login`, `/signup`, `/password-reset`,
/// `/email-code` and `/phone-code` show the built-in flows (any other flow at `/login?flow=NAME`); a `POST` submits the node's form. When a
/// flow completes, a browser session starts (a new cookie, whatever the browser had) and the request continues: the
/// consent page when needed, else the redirect with a code. With sign-up turned off
/// (``ServerConfiguration/signUpEnabled``) a flow that creates accounts refuses and no page links to it.
enum FlowPageRoutes {
    /// The page of each built-in flow.
    static let paths = [
        "sign-in": "login", "sign-up": "signup", "password-reset": "password-reset", "email-code": "email-code",
        "phone-code": "phone-code",
    ]
    /// The routes whose POSTs check or set a password or send a code, limited per client address by
    /// ``ServerConfiguration/signInRateLimit``.
    static let passwordRoutes = paths.values.map { RouterPath($0) }

    /// Whether flow `name` has a page of its own (else it is `login?flow=NAME`).
    static func hasOwnPath(_ name: String) -> Bool {
        paths[name] != nil
    }

    /// The page a form of flow `name` posts to, relative like every link between the pages.
    static func path(of name: String) -> String {
        paths[name] ?? "login"
    }

    /// The link to flow `name`'s page for the pending request `requestID`.
    static func link(to name: String, requestID: String) -> String {
        let fields = (hasOwnPath(name) ? [] : [("flow", name)]) + [("request", requestID)]
        return path(of: name) + "?" + FormEncoding.encode(fields)
    }

    static func add(to router: Router<some RemoteAddressRequestContext>, responder: SignInResponder) {
        for (flow, path) in paths {
            router.get(RouterPath(path)) { request, context in
                await responder.query(for: request) { browser, query throws(StorageError) in
                    let name = path == "login" ? query["flow"] ?? flow : flow
                    switch try await responder.pending(id: query["request"], browser: browser, logger: context.logger) {
                    case .found(let pending):
                        return try await responder.flowPage(name, pending: pending, browser: browser)
                    case .refused(let page): return page
                    }
                }
            }
            router.post(RouterPath(path)) { request, context in
                let origin = RequestOrigin(
                    request, context: context, peer: context.remoteAddress, proxies: responder.trustedProxies)
                return await responder.form(for: request, allowingRepeats: true) { browser, form throws(StorageError) in
                    try await submit(
                        form, flow: path == "login" ? form["flow"] ?? flow : flow, browser: browser,
                        origin: origin, responder: responder, logger: context.logger)
                }
            }
        }
    }

    /// A node's form submitted: the pending request, the CSRF check, the engine's step; on completion a new session
    /// and the request's next step.
    private static func submit(
        _ form: FormFields,
        flow name: String,
        browser: BrowserState,
        origin: RequestOrigin,
        responder: SignInResponder,
        logger: Logger
    ) async throws(StorageError) -> Response {
        guard let flow = responder.flows.page(name) else { return Pages.pageNotFound() }
        // One form rule for every route: a repeated field is refused, except the choices of a multiple collector.
        if let repeated = form.names.filter(form.isRepeated).subtracting(FlowPageForm.multipleKeys(of: flow)).min() {
            let refusal = FormRefusal.repeated(repeated)
            return Pages.message(title: "Request refused", message: refusal.description, status: refusal.status)
        }
        let pending: PendingAuthorization
        switch try await responder.pending(id: form["request"], browser: browser, logger: logger) {
        case .found(let found): pending = found
        case .refused(let page): return page
        }
        let purpose = CSRFToken.signInPurpose(requestID: pending.id)
        guard browser.acceptsCSRFToken(form[CSRFToken.fieldName], for: purpose) else { return Pages.forbidden() }
        guard responder.signUpEnabled || !flow.createsAccounts else { return Pages.signUpOff() }
        let interaction = try await responder.engine.pageInteraction(
            for: pending, flow: flow, guest: try await responder.signedInGuest(browser))
        let current = flow.node(interaction.record.node)
        let node = form["node"] ?? interaction.record.node
        let action = form["action"] ?? current?.collectors.first { $0.type == .submitButton }?.key ?? ""
        let values = FlowPageForm.values(of: form, for: flow.node(node) ?? current)
        return try await run(
            FlowSubmission(node: node, action: action, values: values), on: interaction, flow: flow,
            pending: pending, browser: browser, origin: origin, responder: responder)
    }

    /// Runs `submission` on `interaction`, the hosted pages' interaction of `pending` in `flow`, and answers as a page
    /// does: the next node, or the same one with what was wrong (refilled with what was typed there, never a
    /// password); on completion a new browser session and the request's next step. Shared by the pages' forms and
    /// the link of an email opened in the browser that started the request (``EmailLinkRoutes``).
    static func run(
        _ submission: FlowSubmission,
        on interaction: FlowInteraction,
        flow: FlowDefinition,
        pending: PendingAuthorization,
        browser: BrowserState,
        origin: RequestOrigin,
        responder: SignInResponder
    ) async throws(StorageError) -> Response {
        let engine = responder.engine
        let renderer = responder.flowRenderer(pending: pending, browser: browser)
        switch try await engine.advance(interaction, submission: submission, origin: origin) {
        case .answer(let answer):
            let typedHere = submission.node == interaction.record.node
            return renderer.render(
                answer, entered: submission.values.filter { typedHere && !isSecret($0.key, in: flow) })
        case .completed(let interaction, let context):
            guard let subject = context.subject,
                try await engine.finishPage(interaction, context: context, origin: origin)
            else {
                return Pages.requestGone(uiLocales: pending.record.uiLocales)
            }
            if pending.isReauthentication {
                return try await AccountReauthentication.finish(
                    subject: subject, methods: context.methods, pending: pending, browser: browser,
                    responder: responder)
            }
            return try await responder.signedIn(
                subject: subject, methods: context.methods, pending: pending, browser: browser)
        }
    }

    /// Whether the field `key` of `flow` holds a password or a passkey's answer (never shown again).
    private static func isSecret(_ key: String, in flow: FlowDefinition) -> Bool {
        flow.nodes.contains { [.password, .passwordVerify, .passkey].contains($0.collector(key)?.type) }
    }
}

/// A node's form as the engine's values.
enum FlowPageForm {
    /// The fields of `flow` that may repeat: the keys of its `COMBOBOX`es and of its `CHECKBOX`es with options.
    static func multipleKeys(of flow: FlowDefinition) -> Set<String> {
        Set(
            flow.nodes.flatMap(\.collectors).filter {
                $0.type == .combobox || ($0.type == .checkbox && !$0.options.isEmpty)
            }.map(\.key))
    }

    /// The values of `node`'s collectors in `form`: text for fields, menus and radios, the choices of a multiple menu or
    /// of check boxes with options, `true` for a ticked box. Other fields (the request, the token) are not values.
    static func values(of form: FormFields, for node: FlowNodeDefinition?) -> [String: FlowValue] {
        var values: [String: FlowValue] = [:]
        for collector in node?.collectors ?? [] where collector.type.collectsValue {
            let key = collector.key
            switch collector.type {
            case .combobox,
                .checkbox where !collector.options.isEmpty:
                values[key] = .choices(form.values(key))
            case .checkbox:
                if let value = form[key] { values[key] = value == "true" ? .flag(true) : .text(value) }
            default:
                if let value = form.value(sent: key) { values[key] = .text(value) }
            }
        }
        return values
    }
}
