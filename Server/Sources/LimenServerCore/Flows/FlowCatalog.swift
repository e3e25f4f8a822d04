import Foundation

/// Every flow the server runs: the built-in ones and the operator's, checked together at start-up so that a reference
/// to an unknown node or flow is refused with a message naming it, before any request.
package struct FlowCatalog: Sendable {
    /// The flows by name.
    package let flows: [String: FlowDefinition]

    /// The built-in flows alone (their definitions are checked by the tests; an empty catalog if one were broken).
    package static let builtIn = (try? load(files: [])) ?? FlowCatalog(flows: [:])

    /// The built-in flows replaced or joined by the definitions in `files` (YAML or JSON, one flow each).
    package static func load(files: [String]) throws(FlowDefinitionError) -> FlowCatalog {
        var flows: [String: FlowDefinition] = [:]
        for (name, yaml) in BuiltInFlows.definitions {
            let flow = try FlowDefinitionParser(source: "built-in \(name)").parse(yaml)
            flows[flow.id] = flow
        }
        var operatorFlows: Set<String> = []
        for file in files {
            guard let data = FileManager.default.contents(atPath: file), let text = String(data: data, encoding: .utf8)
            else { throw FlowDefinitionError(source: file, path: "", reason: "cannot read the file") }
            let flow = try FlowDefinitionParser(source: file).parse(text)
            guard operatorFlows.insert(flow.id).inserted else {
                throw FlowDefinitionError(source: file, path: "id", reason: "another file defines flow \(flow.id) too")
            }
            flows[flow.id] = flow
        }
        let catalog = FlowCatalog(flows: try withSecondStep(flows))
        try catalog.checkReferences()
        return catalog
    }

    /// `flows` with the built-in second-step node (``SecondStep``) added to each that may complete and has no node of
    /// that ID, so no flow signs in a user whose two-step sign-in is on with their first step alone.
    private static func withSecondStep(_ flows: [String: FlowDefinition]) throws(FlowDefinitionError)
        -> [String: FlowDefinition]
    {
        let secondStep = try FlowDefinitionParser(source: "built-in second step").parse(BuiltInFlows.secondStep)
        guard let node = secondStep.node(SecondStep.nodeID) else {
            throw FlowDefinitionError(source: "built-in second step", path: "nodes", reason: "no node mfa")
        }
        return flows.mapValues { flow in
            guard flow.completes, flow.node(SecondStep.nodeID) == nil else { return flow }
            var flow = flow
            flow.nodes.append(node)
            return flow
        }
    }

    /// The flows a server with `configuration` offers: a flow some button of which signs in with Apple only with the
    /// `apple` setting (without it, starting one answers `unknown_flow` as for any flow there is not); and the sign-in
    /// flow's first node with an `IDP` collector for each upstream provider it does not offer yet
    /// (``withUpstreamProviders(_:)``).
    package func offered(under configuration: ServerConfiguration) -> FlowCatalog {
        let catalog = withUpstreamProviders(configuration.identityProviders)
        guard configuration.apple == nil else { return catalog }
        return FlowCatalog(flows: catalog.flows.filter { !$0.value.runs(.signInWithApple) })
    }

    /// The built-in flow that signs in: the one `/login` shows unless asked for another, and the one that offers the
    /// upstream providers.
    package static let signInFlow = "sign-in"

    /// The built-in usernameless passkey sign-in, which the sign-in page also offers as the username's autofill.
    package static let passkeyFlow = "passkey"

    /// The key of the `IDP` collector the sign-in flow gets for provider `id`.
    static func upstreamKey(providerID id: String) -> String { "idp-\(id)" }

    /// The catalog with the sign-in flow's first node offering each of `providers` ("Continue with …", key
    /// ``upstreamKey(providerID:)``) that no collector of that node offers yet, in the configuration's order.
    func withUpstreamProviders(_ providers: [IdentityProvider]) -> FlowCatalog {
        guard var flow = flows[Self.signInFlow],
            let index = flow.nodes.firstIndex(where: { $0.id == flow.start })
        else { return self }
        var node = flow.nodes[index]
        for provider in providers where !node.offers(provider: provider.id) {
            let key = Self.upstreamKey(providerID: provider.id)
            guard node.collector(key) == nil else { continue }
            node.collectors.append(
                CollectorDefinition(
                    type: .idp, key: key, label: "Continue with \(provider.displayName)",
                    behaviour: .federate(provider: provider.id)))
        }
        flow.nodes[index] = node
        var flows = flows
        flows[flow.id] = flow
        return FlowCatalog(flows: flows)
    }

    /// Refuses an `IDP` collector whose provider is not among `providers` (the `identity_providers` setting).
    package func checkProviders(_ providers: [IdentityProvider]) throws(FlowDefinitionError) {
        let configured = Set(providers.map(\.id))
        for flow in flows.values.sorted(by: { $0.id < $1.id }) {
            for (nodeIndex, node) in flow.nodes.enumerated() {
                for (index, collector) in node.collectors.enumerated() {
                    guard case .federate(let provider) = collector.behaviour, !configured.contains(provider) else {
                        continue
                    }
                    throw FlowDefinitionError(
                        source: "flow \(flow.id)", path: "nodes[\(nodeIndex)].collectors[\(index)].provider",
                        reason: "\(provider) is not an id of the identity_providers setting")
                }
            }
        }
    }

    /// Flow `name` as the hosted pages offer it: `nil` for a flow only native apps run — one whose button signs in with
    /// Apple takes an identity token that only an app gets from Apple, and a page would fill a refused one back in;
    /// and one that registers a passkey or sets up two-step sign-in, which needs the signed-in user's access token.
    package func page(_ name: String) -> FlowDefinition? {
        guard let flow = flows[name], !flow.runs(.signInWithApple),
            !flow.nodes.contains(where: { $0.registersPasskey || $0.setsUpSecondFactor })
        else { return nil }
        return flow
    }

    /// Checks that every start node, `next` node and flow a button names exists, and that each action finds the
    /// collectors it reads in its node (a passkey action, a `PASSKEY` of its mode).
    private func checkReferences() throws(FlowDefinitionError) {
        for flow in flows.values.sorted(by: { $0.id < $1.id }) {
            func refuse(_ path: String, _ reason: String) -> FlowDefinitionError {
                FlowDefinitionError(source: "flow \(flow.id)", path: path, reason: reason)
            }
            guard flow.node(flow.start) != nil else { throw refuse("start", "unknown node \(flow.start)") }
            for (nodeIndex, node) in flow.nodes.enumerated() {
                for (index, collector) in node.collectors.enumerated() {
                    let path = "nodes[\(nodeIndex)].collectors[\(index)]"
                    if case .run(let actions, _) = collector.behaviour {
                        for (position, action) in actions.enumerated() {
                            if let missing = action.inputs(after: actions.prefix(position)).first(where: {
                                node.collector($0)?.type.collectsValue != true
                            }) {
                                throw refuse(path + ".actions", "\(action.rawValue) needs a collector \(missing)")
                            }
                            if let reason = action.passkeyMisuse(in: node, position: position, of: actions) {
                                throw refuse(path + ".actions", reason)
                            }
                        }
                    }
                    switch collector.behaviour {
                    case .run(_, let next?) where flow.node(next) == nil:
                        throw refuse(path + ".next", "unknown node \(next)")
                    case .switchFlow(let target) where flows[target] == nil:
                        throw refuse(path + ".flow", "unknown flow \(target)")
                    default: break
                    }
                }
            }
        }
    }
}
