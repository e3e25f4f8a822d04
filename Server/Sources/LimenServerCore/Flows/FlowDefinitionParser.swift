import Foundation
import LimenWire
import Yams

/// Reads a ``FlowDefinition`` from YAML or JSON, refusing anything it does not know: an unknown key, collector type
/// or action, a missing label, a bad regular expression, options where none belong. References between nodes and
/// flows are checked by ``FlowCatalog`` once every flow is read.
///
/// ```yaml
/// id: sign-in
/// start: credentials
/// nodes:
///   - id: credentials
///     name: Sign in
///     description: Sign in with your email address and password.
///     collectors:
///       - {type: TEXT, key: email, label: Email address, required: true}
///       - {type: PASSWORD, key: password, label: Password, required: true}
///       - {type: SUBMIT_BUTTON, key: submit, label: Sign in, actions: [check_password, complete]}
///       - {type: FLOW_LINK, key: create-account, label: Create an account, flow: sign-up}
///       - {type: IDP, key: partner, label: Continue with Partner ID, provider: partner}
/// ```
///
/// An `IDP` collector names a configured upstream provider (``IdentityProvider/id``), checked at start-up
/// (``FlowCatalog/checkProviders(_:)``).
struct FlowDefinitionParser {
    /// Where the text came from, for error messages.
    package let source: String

    /// The flow in `text`.
    package func parse(_ text: String) throws(FlowDefinitionError) -> FlowDefinition {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch {
            throw FlowDefinitionError(source: source, path: "", reason: "not valid YAML or JSON: \(error)")
        }
        let flow = try mapping(root, at: "", keys: ["id", "start", "nodes"])
        let nodeList = try sequence(flow["nodes"], at: "nodes")
        guard !nodeList.isEmpty else { throw error(at: "nodes", "a flow needs at least one node") }
        var nodes: [FlowNodeDefinition] = []
        for (index, node) in nodeList.enumerated() {
            let parsed = try self.node(node, at: "nodes[\(index)]")
            guard !nodes.contains(where: { $0.id == parsed.id }) else {
                throw error(at: "nodes[\(index)].id", "node \(parsed.id) is defined twice")
            }
            nodes.append(parsed)
        }
        let id = try identifier(flow["id"], at: "id")
        guard id != "interactions" else { throw error(at: "id", "interactions is the path of continuations") }
        return FlowDefinition(
            id: id, start: try identifier(flow["start"], at: "start"), nodes: nodes)
    }

    private func node(_ node: Node, at path: String) throws(FlowDefinitionError) -> FlowNodeDefinition {
        let fields = try mapping(node, at: path, keys: ["id", "name", "description", "collectors"])
        var collectors: [CollectorDefinition] = []
        for (index, collector) in try sequence(fields["collectors"], at: path + ".collectors").enumerated() {
            let itemPath = "\(path).collectors[\(index)]"
            let parsed = try self.collector(collector, at: itemPath)
            guard !collectors.contains(where: { $0.key == parsed.key }) else {
                throw error(at: itemPath + ".key", "collector \(parsed.key) is defined twice in this node")
            }
            collectors.append(parsed)
        }
        if collectors.contains(where: { $0.type == .passwordVerify }),
            !collectors.contains(where: { $0.type == .password })
        {
            throw error(at: path + ".collectors", "a PASSWORD_VERIFY needs a PASSWORD in the same node")
        }
        if collectors.filter({ $0.type == .passkey }).count > 1 {
            throw error(at: path + ".collectors", "a node has at most one PASSKEY")
        }
        return FlowNodeDefinition(
            id: try identifier(fields["id"], at: path + ".id"),
            name: try text(fields["name"], at: path + ".name"),
            description: try optionalText(fields["description"], at: path + ".description") ?? "",
            collectors: collectors
        )
    }

    private func collector(_ node: Node, at path: String) throws(FlowDefinitionError) -> CollectorDefinition {
        let fields = try mapping(
            node, at: path,
            keys: [
                "type", "key", "label", "required", "validation", "options", "policy", "actions", "next", "flow",
                "provider", "mode", "mediation",
            ])
        let typeName = try text(fields["type"], at: path + ".type")
        guard let type = CollectorType(rawValue: typeName) else {
            throw error(
                at: path + ".type",
                "unknown collector type \(typeName); known: \(CollectorType.allCases.map(\.rawValue).joined(separator: ", "))"
            )
        }
        var collector = CollectorDefinition(
            type: type,
            key: try identifier(fields["key"], at: path + ".key"),
            label: try text(fields["label"], at: path + ".label"),
            isRequired: try bool(fields["required"], at: path + ".required") ?? false
        )
        try refuse(fields, ["required", "validation"], unless: type.collectsValue, at: path)
        try refuse(fields, ["options"], unless: type.choosesAmongOptions || type == .checkbox, at: path)
        try refuse(fields, ["policy"], unless: type == .password, at: path)
        try refuse(fields, ["actions", "next", "flow"], unless: type.isButton && type != .idp, at: path)
        try refuse(fields, ["provider"], unless: type == .idp, at: path)
        try refuse(fields, ["mode", "mediation"], unless: type == .passkey, at: path)
        if type == .passkey {
            let mode = try text(fields["mode"], at: path + ".mode")
            guard let passkeyMode = PasskeyMode(rawValue: mode) else {
                throw error(at: path + ".mode", "expected register or authenticate, not \(mode)")
            }
            collector.passkeyMode = passkeyMode
            if fields["mediation"] != nil {
                let mediation = try text(fields["mediation"], at: path + ".mediation")
                guard mediation == "conditional" else {
                    throw error(at: path + ".mediation", "expected conditional, not \(mediation)")
                }
                guard passkeyMode == .authenticate else {
                    throw error(at: path + ".mediation", "conditional mediation signs in: it needs mode authenticate")
                }
                collector.isConditional = true
            }
        }
        if let validation = fields["validation"] { collector.validation = try self.validation(validation, at: path) }
        if let options = fields["options"] { collector.options = try self.options(options, at: path + ".options") }
        if type.choosesAmongOptions, collector.options.isEmpty {
            throw error(at: path + ".options", "a \(type.rawValue) needs options")
        }
        if let policy = fields["policy"] { collector.policy = try self.policy(policy, at: path + ".policy") }
        if type == .idp {
            collector.behaviour = .federate(provider: try identifier(fields["provider"], at: path + ".provider"))
        } else if type.isButton {
            collector.behaviour = try behaviour(fields, at: path)
        }
        return collector
    }

    private func behaviour(_ fields: [String: Node], at path: String) throws(FlowDefinitionError) -> ButtonBehaviour {
        if let flow = fields["flow"] {
            guard fields["actions"] == nil, fields["next"] == nil else {
                throw error(at: path + ".flow", "a button that moves to another flow runs no actions and has no next")
            }
            return .switchFlow(try identifier(flow, at: path + ".flow"))
        }
        var actions: [FlowAction] = []
        for (index, node) in try sequence(fields["actions"] ?? Node.sequence([]), at: path + ".actions").enumerated() {
            let name = try text(node, at: "\(path).actions[\(index)]")
            guard let action = FlowAction(rawValue: name) else {
                throw error(
                    at: "\(path).actions[\(index)]",
                    "unknown action \(name); known: \(FlowAction.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            actions.append(action)
        }
        if let index = actions.firstIndex(of: .complete), index != actions.count - 1 || fields["next"] != nil {
            throw error(at: "\(path).actions[\(index)]", "complete ends the interaction: it comes last, with no next")
        }
        let next = try fields["next"].map { node throws(FlowDefinitionError) in try identifier(node, at: path + ".next")
        }
        guard !actions.isEmpty || next != nil else {
            throw error(at: path, "a button needs actions, a next node or a flow")
        }
        return .run(actions: actions, next: next)
    }

    private func validation(_ node: Node, at path: String) throws(FlowDefinitionError) -> CollectorDefinition.Validation
    {
        let fields = try mapping(node, at: path + ".validation", keys: ["regex", "message"])
        let regex = try text(fields["regex"], at: path + ".validation.regex")
        guard regex.utf8.count <= 512, (try? NSRegularExpression(pattern: regex)) != nil else {
            throw error(at: path + ".validation.regex", "not a regular expression of at most 512 bytes: \(regex)")
        }
        return .init(regex: regex, message: try text(fields["message"], at: path + ".validation.message"))
    }

    private func options(_ node: Node, at path: String) throws(FlowDefinitionError) -> [CollectorDefinition.Option] {
        var options: [CollectorDefinition.Option] = []
        for (index, item) in try sequence(node, at: path).enumerated() {
            let fields = try mapping(item, at: "\(path)[\(index)]", keys: ["label", "value"])
            let option = CollectorDefinition.Option(
                label: try text(fields["label"], at: "\(path)[\(index)].label"),
                value: try text(fields["value"], at: "\(path)[\(index)].value"))
            guard !options.contains(where: { $0.value == option.value }) else {
                throw error(at: "\(path)[\(index)].value", "option \(option.value) is listed twice")
            }
            options.append(option)
        }
        return options
    }

    private func policy(_ node: Node, at path: String) throws(FlowDefinitionError) -> PasswordPolicy {
        let fields = try mapping(
            node, at: path, keys: ["length", "min_unique_characters", "max_repeated_characters", "min_characters"])
        var policy = PasswordPolicy.standard
        if let length = fields["length"] {
            let bounds = try mapping(length, at: path + ".length", keys: ["min", "max"])
            let minimum = try count(bounds["min"], at: path + ".length.min") ?? policy.length.lowerBound
            let maximum = try count(bounds["max"], at: path + ".length.max") ?? policy.length.upperBound
            guard minimum <= maximum else { throw error(at: path + ".length", "min is larger than max") }
            policy.length = minimum...maximum
        }
        policy.minimumUniqueCharacters = try count(fields["min_unique_characters"], at: path) ?? 0
        policy.maximumRepeatedCharacters = try count(fields["max_repeated_characters"], at: path) ?? 0
        if let minimums = fields["min_characters"] {
            let classes = try mapping(
                minimums, at: path + ".min_characters", keys: ["lowercase", "uppercase", "digits", "special"])
            let at = path + ".min_characters"
            policy.minimumCharacters = .init(
                lowercase: try count(classes["lowercase"], at: at) ?? 0,
                uppercase: try count(classes["uppercase"], at: at) ?? 0,
                digits: try count(classes["digits"], at: at) ?? 0,
                special: try count(classes["special"], at: at) ?? 0)
        }
        return policy
    }

    // MARK: Reading nodes

    private func refuse(
        _ fields: [String: Node],
        _ keys: [String],
        unless allowed: Bool,
        at path: String
    ) throws(FlowDefinitionError) {
        guard !allowed, let key = keys.first(where: { fields[$0] != nil }) else { return }
        throw error(at: "\(path).\(key)", "\(key) does not apply to this collector type")
    }

    private func mapping(_ node: Node?, at path: String, keys: Set<String>) throws(FlowDefinitionError)
        -> [String: Node]
    {
        guard let mapping = node?.mapping else { throw error(at: path, "expected a mapping") }
        var fields: [String: Node] = [:]
        for (keyNode, value) in mapping {
            let key = keyNode.string ?? "\(keyNode)"
            guard keys.contains(key) else {
                throw error(at: path, "unknown key \(key); known: \(keys.sorted().joined(separator: ", "))")
            }
            fields[key] = value
        }
        return fields
    }

    private func sequence(_ node: Node?, at path: String) throws(FlowDefinitionError) -> [Node] {
        guard let sequence = node?.sequence else { throw error(at: path, "expected a list") }
        return Array(sequence)
    }

    private func text(_ node: Node?, at path: String) throws(FlowDefinitionError) -> String {
        guard let text = try optionalText(node, at: path), !text.isEmpty else { throw error(at: path, "is missing") }
        return text
    }

    private func optionalText(_ node: Node?, at path: String) throws(FlowDefinitionError) -> String? {
        guard let node else { return nil }
        guard let scalar = node.scalar else { throw error(at: path, "expected text") }
        return scalar.string
    }

    /// A name used in URLs and submissions: letters, digits, `-` and `_`.
    private func identifier(_ node: Node?, at path: String) throws(FlowDefinitionError) -> String {
        let name = try text(node, at: path)
        guard name.count <= 64, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_".contains($0)) })
        else { throw error(at: path, "\(name) is not a name of at most 64 letters, digits, - and _") }
        return name
    }

    private func bool(_ node: Node?, at path: String) throws(FlowDefinitionError) -> Bool? {
        guard let node else { return nil }
        guard let bool = node.bool else { throw error(at: path, "expected true or false") }
        return bool
    }

    private func count(_ node: Node?, at path: String) throws(FlowDefinitionError) -> Int? {
        guard let node else { return nil }
        guard let count = node.int, (0...10_000).contains(count) else {
            throw error(at: path, "expected a whole number from 0 to 10000")
        }
        return count
    }

    private func error(at path: String, _ reason: String) -> FlowDefinitionError {
        FlowDefinitionError(source: source, path: path, reason: reason)
    }
}
