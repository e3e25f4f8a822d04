import LimenWire

/// A node as the wire shows it (`{"type": "continue" | "error" | "failure" | "success" | "redirect", …}`).
package enum FlowNode: Sendable, Equatable {
    /// A step to render and submit.
    case `continue`(FlowNodeDefinition, policy: PasswordPolicy?, prefill: [String: String])
    /// The same step again, with what was wrong: a message and per-field details.
    case error(
        FlowNodeDefinition, policy: PasswordPolicy?, prefill: [String: String], message: String,
        details: [FlowErrorDetail])
    /// The interaction is over without a code.
    case failure(code: String, message: String)
    /// The interaction is over with an authorization code for the client to redeem with its PKCE verifier;
    /// `newUser` says whether the interaction created the account (`new_user`).
    case success(code: String, state: String?, issuer: String, newUser: Bool)
    /// The person signs in at upstream provider `provider` first: the app opens `url` in the platform's web session,
    /// which comes back to its redirect URI with a code that continues the interaction (``FlowFederationStep``).
    case redirect(url: String, provider: String)
    /// The interaction is over, having registered a passkey for the signed-in user: `{"type": "success",
    /// "registered": true}`, with no code (the app's session goes on as it was).
    case registered

    /// The node's JSON.
    package var json: JSONValue {
        switch self {
        case .continue(let node, let policy, let prefill):
            .object(
                Self.members(of: node, policy: policy, prefill: prefill).merging(["type": .string("continue")]) { $1 })
        case .error(let node, let policy, let prefill, let message, let details):
            .object(
                Self.members(of: node, policy: policy, prefill: prefill).merging([
                    "type": .string("error"), "message": .string(message), "details": .array(details.map(\.json)),
                ]) { $1 })
        case .failure(let code, let message):
            .object(["type": .string("failure"), "code": .string(code), "message": .string(message)])
        case .success(let code, let state, let issuer, let newUser):
            .object(
                [
                    "type": .string("success"), "code": .string(code), "iss": .string(issuer),
                    "new_user": .bool(newUser),
                ].merging(
                    state.map { ["state": .string($0)] } ?? [:]
                ) { $1 })
        case .redirect(let url, let provider):
            .object(["type": .string("redirect"), "url": .string(url), "provider": .string(provider)])
        case .registered:
            .object(["type": .string("success"), "registered": .bool(true)])
        }
    }

    private static func members(
        of node: FlowNodeDefinition,
        policy: PasswordPolicy?,
        prefill: [String: String]
    ) -> [String: JSONValue] {
        [
            "id": .string(node.id), "name": .string(node.name), "description": .string(node.description),
            "collectors": .array(node.collectors.map { $0.json(policy: policy, value: prefill[$0.key]) }),
        ]
    }
}

/// The server writes ``FlowErrorDetail`` (LimenWire's, which the SDK reads) into its flow answers.
extension FlowErrorDetail {
    /// The detail's JSON.
    package var json: JSONValue {
        .object(["key": .string(key), "code": .string(code), "message": .string(message)])
    }
}

extension CollectorDefinition {
    /// The collector's JSON: `type`, `key`, `label`, `required`, and where they apply `format` (`e164` for a `PHONE`),
    /// `validation`, `options`, the
    /// password `policy` (when the node sets a password), a `value` filled in (the email already entered, or what a
    /// `LABEL` shows) and an
    /// `IDP`'s `provider`, a `FLOW_BUTTON`'s or `FLOW_LINK`'s `flow` when it moves to another flow, a `PASSKEY`'s
    /// `mode` and `options` (and `mediation: conditional` for one offered as
    /// autofill).
    package func json(policy: PasswordPolicy?, value: String?) -> JSONValue {
        var members: [String: JSONValue] = [
            "type": .string(type.rawValue), "key": .string(key), "label": .string(label), "required": .bool(isRequired),
        ]
        if let validation {
            members["validation"] = .object([
                "regex": .string(validation.regex), "message": .string(validation.message),
            ])
        }
        if !options.isEmpty {
            members["options"] = .array(
                options.map { .object(["label": .string($0.label), "value": .string($0.value)]) })
        }
        if type.isPassword, let policy { members["policy"] = policy.json }
        if let value, type == .text || type == .phone || type == .label { members["value"] = .string(value) }
        if type == .phone { members["format"] = .string("e164") }
        if case .federate(let provider) = behaviour { members["provider"] = .string(provider) }
        if case .switchFlow(let target) = behaviour { members["flow"] = .string(target) }
        if let passkeyMode {
            members["mode"] = .string(passkeyMode.rawValue)
            if isConditional { members["mediation"] = .string("conditional") }
            // A PASSKEY's value filled in is its ceremony's options (``FlowEngine/prefill(_:)``).
            members["options"] = value.flatMap { try? JSONValue(parsing: Array($0.utf8)) } ?? .null
        }
        return .object(members)
    }
}

extension PasswordPolicy {
    /// The policy's JSON, as a `PASSWORD` collector carries it.
    package var json: JSONValue {
        .object([
            "length": .object([
                "min": .number(Double(length.lowerBound)), "max": .number(Double(length.upperBound)),
            ]),
            "min_unique_characters": .number(Double(minimumUniqueCharacters)),
            "max_repeated_characters": .number(Double(maximumRepeatedCharacters)),
            "min_characters": .object([
                "lowercase": .number(Double(minimumCharacters.lowercase)),
                "uppercase": .number(Double(minimumCharacters.uppercase)),
                "digits": .number(Double(minimumCharacters.digits)),
                "special": .number(Double(minimumCharacters.special)),
            ]),
        ])
    }
}
