import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore
import LimenServerStorage
import LimenWire

/// Renders a flow's node as a hosted page: the node's name as the heading, its description, an error summary bound to
/// the fields (`role="alert"`, `aria-describedby`), and each collector as an accessible HTML control
/// (``FlowPageControl``); `FLOW_LINK`s to other flows are links to their pages. The form posts to the page of the
/// node's flow with the pending request, the CSRF token and the node. Each `IDP` collector (the sign-in flow's first
/// node has one per upstream provider) is a "Continue with …" button below, a form of its own posting the request and
/// the token to `federation/{id}/start`.
struct FlowPageRenderer {
    /// The authorization request the pages are for.
    let pending: PendingAuthorization
    /// The token of the page's form.
    let csrf: String
    /// The flows, for the pages links lead to.
    let catalog: FlowCatalog
    /// Whether links to flows that create accounts are shown.
    let signUpEnabled: Bool

    /// The page for `answer`: `200` for a step, the refusal's status for an error (`400` unless it says `429` or
    /// `503`, with `Retry-After`), a message page for a failure. `entered` refills what was typed (never a password).
    func render(_ answer: FlowAnswer, entered: [String: FlowValue] = [:]) -> Response {
        let uiLocales = pending.record.uiLocales
        let (node, policy, prefill, message, details):
            (FlowNodeDefinition, PasswordPolicy?, [String: String], String?, [FlowErrorDetail])
        switch answer.node {
        case .continue(let shown, let shownPolicy, let shownPrefill):
            (node, policy, prefill, message, details) = (shown, shownPolicy, shownPrefill, nil, [])
        case .error(let shown, let shownPolicy, let shownPrefill, let shownMessage, let shownDetails):
            (node, policy, prefill, message, details) = (shown, shownPolicy, shownPrefill, shownMessage, shownDetails)
        case .failure(_, let failure):
            return Pages.message(
                title: "This sign-in cannot continue", message: failure, status: answer.status.http,
                uiLocales: uiLocales)
        case .success, .redirect, .registered:
            return Pages.serverError()
        }
        let flow = answer.flow ?? FlowCatalog.signInFlow
        var values = prefill.mapValues(FlowValue.text)
        values.merge(entered) { $1 }
        let controls = FlowPageControl.controls(
            of: node, policy: policy, values: values, details: details, hasSummary: message != nil,
            link: { link(to: $0) })
        let page = FlowPage(
            lang: PageLanguage.tag(uiLocales: uiLocales),
            title: node.name,
            description: node.description.isEmpty ? nil : node.description,
            brand: PageBrand(client: pending.client),
            requestID: pending.id,
            csrf: csrf,
            action: FlowPageRoutes.path(of: flow),
            flowField: FlowPageRoutes.hasOwnPath(flow) ? nil : flow,
            nodeID: node.id,
            error: message,
            controls: controls,
            federation: FederationChoices(node),
            script: controls.contains { $0.passkey != nil } ? PasskeyScript.text : nil
        )
        let status: HTTPResponse.Status =
            message == nil ? .ok : (answer.status == .ok ? .badRequest : answer.status.http)
        let securityPolicy = page.brand.contentSecurityPolicy
        var response = Pages.render(
            page, template: "flow", title: node.name, status: status,
            contentSecurityPolicy: page.script == nil
                ? securityPolicy : securityPolicy + PasskeyScript.directives)
        if let seconds = answer.retryAfter { response.headers[.retryAfter] = "\(seconds)" }
        return response
    }

    /// The page of flow `name` for this request, or `nil` when it is not offered here (sign-up is off).
    private func link(to name: String) -> String? {
        guard let flow = catalog.page(name), signUpEnabled || !flow.createsAccounts else { return nil }
        return FlowPageRoutes.link(to: name, requestID: pending.id)
    }
}

/// The values of a flow page.
private struct FlowPage {
    var lang: String
    var title: String
    var description: String?
    var brand: PageBrand
    var requestID: String
    var csrf: String
    var action: String
    var flowField: String?
    var nodeID: String
    var error: String?
    var controls: [FlowPageControl]
    var federation: FederationChoices?
    /// The page's one script, when a control needs it (``PasskeyScript``).
    var script: String?
}

/// The "Continue with …" buttons of a flow page.
private struct FederationChoices {
    /// One provider's button.
    struct Choice {
        var action: String
        var label: String
    }

    var providers: [Choice]

    /// The buttons of `node`'s `IDP` collectors; `nil` when it has none.
    init?(_ node: FlowNodeDefinition) {
        providers = node.collectors.compactMap { collector in
            guard case .federate(let provider) = collector.behaviour else { return nil }
            return Choice(action: "federation/\(provider)/start", label: collector.label)
        }
        if providers.isEmpty { return nil }
    }
}
