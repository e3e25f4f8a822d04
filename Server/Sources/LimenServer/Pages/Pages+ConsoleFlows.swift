import Foundation
import HTTPTypes
import Hummingbird
import LimenServerCore

extension Pages {
    /// The console's flows page for the admin `email`: every flow of `flows` by name, each node in order with what
    /// its fields are and collect.
    static func consoleFlows(email: String, root: String, flows: FlowCatalog) -> Response {
        var page = ConsolePage(title: "Flows", root: root, admin: email, message: nil, isError: false)
        page.flowsPage = ConsoleFlowsPage(
            flows: flows.flows.values.sorted { $0.id < $1.id }.map(ConsoleFlow.init))
        return console(page, status: .ok)
    }

    /// The console's profile schema page for the admin `email`: the fields of `schema` by name.
    static func consoleSchema(email: String, root: String, schema: ProfileSchema) -> Response {
        var page = ConsolePage(title: "Profile schema", root: root, admin: email, message: nil, isError: false)
        let fields = schema.fields.sorted { $0.key < $1.key }.map { ConsoleSchemaField(name: $0.key, field: $0.value) }
        page.schemaPage = ConsoleSchemaPage(fields: fields, hasFields: !fields.isEmpty)
        return console(page, status: .ok)
    }
}

extension PageTemplates {
    /// The part of a console page (``console``) listing the flows, each with its nodes and their fields.
    static let consoleFlows = """
        {{#flows}}<h2 id="flow-{{id}}">{{id}}</h2>
        <p>Starts at <code>{{start}}</code></p>
        <ol class="events" aria-labelledby="flow-{{id}}">
        {{#nodes}}<li><strong><code>{{id}}</code></strong> {{name}}<ul>
        {{#collectors}}<li>{{type}} <code>{{key}}</code> {{label}}{{#isRequired}} · required{{/isRequired}}\
        {{#does}} · {{does}}{{/does}}</li>
        {{/collectors}}</ul></li>
        {{/nodes}}</ol>
        {{/flows}}
        """

    /// The part of a console page (``console``) listing the profile schema's fields.
    static let consoleSchema = """
        {{#hasFields}}<ul class="events" aria-label="Profile fields">
        {{#fields}}<li><strong><code>{{name}}</code></strong> {{displayName}}{{#isRequired}} (required){{/isRequired}}<br>\
        {{type}} · edited by {{editors}} · encrypted: {{encrypted}} · validation: {{validation}}</li>
        {{/fields}}</ul>{{/hasFields}}
        {{^hasFields}}<p>No profile fields are configured.</p>{{/hasFields}}
        """
}

/// The flows page's values.
struct ConsoleFlowsPage {
    /// Every flow, by name.
    var flows: [ConsoleFlow]
}

/// A flow as the console shows it.
struct ConsoleFlow {
    /// Its name.
    var id: String
    /// The node it starts on.
    var start: String
    /// Its nodes, in order.
    var nodes: [ConsoleFlowNode]

    /// The flow `definition` shows.
    init(_ definition: FlowDefinition) {
        (id, start) = (definition.id, definition.start)
        nodes = definition.nodes.map { node in
            ConsoleFlowNode(id: node.id, name: node.name, collectors: node.collectors.map(ConsoleCollector.init))
        }
    }
}

/// A node of a flow as the console shows it.
struct ConsoleFlowNode {
    /// Its ID in its flow.
    var id: String
    /// Its title.
    var name: String
    /// What it shows and collects, in order.
    var collectors: [ConsoleCollector]
}

/// A field, text or button of a node as the console shows it.
struct ConsoleCollector {
    /// Its type (`TEXT`, `PASSWORD`, `SUBMIT_BUTTON`…).
    var type: String
    /// Its name in a submission.
    var key: String
    /// What the person reads.
    var label: String
    /// Whether a value must be given.
    var isRequired: Bool
    /// What pressing it does, for a button: its actions then the next node, the flow it moves to, or the provider.
    var does: String?

    /// The collector `definition` shows.
    init(_ definition: CollectorDefinition) {
        (type, key, label) = (definition.type.rawValue, definition.key, definition.label)
        isRequired = definition.isRequired
        does =
            switch definition.behaviour {
            case .run(let actions, let next)?:
                (actions.map(\.rawValue) + (next.map { ["→ \($0)"] } ?? [])).joined(separator: ", ")
            case .switchFlow(let flow)?: "→ flow \(flow)"
            case .federate(let provider)?: "signs in with \(provider)"
            case nil: nil
            }
    }
}

/// The profile schema page's values.
struct ConsoleSchemaPage {
    /// The fields, by name.
    var fields: [ConsoleSchemaField]
    /// Whether there are any (stored: the templates read stored properties only).
    var hasFields: Bool
}

/// A profile field as the console shows it.
struct ConsoleSchemaField {
    /// Its name.
    var name: String
    /// Its label for people.
    var displayName: String
    /// What it holds.
    var type: String
    /// Whether a profile must have it.
    var isRequired: Bool
    /// Who may change it: the user and admins, or admins only.
    var editors: String
    /// `yes` when its value is encrypted on the user's device, else `no`.
    var encrypted: String
    /// Its checks (`regex`, `min`, `max`), or `–`.
    var validation: String

    /// The field `name` of the schema, `field`.
    init(name: String, field: ProfileField) {
        (self.name, displayName, type) = (name, field.displayName, field.type.rawValue)
        isRequired = field.isRequired
        editors = field.isUserEditable ? "user and admins" : "admins only"
        encrypted = field.isEncrypted ? "yes" : "no"
        let checks = field.validation
        let parts =
            (checks.pattern.map { ["regex \($0.source)"] } ?? [])
            + (checks.minimum.map { ["min \($0.formatted(.number.grouping(.never)))"] } ?? [])
            + (checks.maximum.map { ["max \($0.formatted(.number.grouping(.never)))"] } ?? [])
        validation = parts.isEmpty ? "–" : parts.joined(separator: " · ")
    }
}
