import Foundation
import LimenWire

/// A submitted value: text, a list of choices, a ticked box, or a passkey's credential.
package enum FlowValue: Sendable, Equatable {
    /// A text, password or single choice.
    case text(String)
    /// The choices of a `COMBOBOX` or a `CHECKBOX` with options.
    case choices([String])
    /// A `CHECKBOX` without options.
    case flag(Bool)
    /// A JSON object: a `PASSKEY`'s credential (`RegistrationResponseJSON` or `AuthenticationResponseJSON`).
    case object([String: JSONValue])

    /// Whether nothing was given: empty text, no choice, an unticked box.
    package var isEmpty: Bool {
        switch self {
        case .text(let text): text.isEmpty
        case .choices(let choices): choices.isEmpty
        case .flag(let flag): !flag
        case .object(let members): members.isEmpty
        }
    }
}

/// `POST /flows/interactions/{id}`'s body: `{"node": NODE_ID, "action": BUTTON_KEY, "values": {KEY: VALUE}}`, and
/// optionally the `client_id` the interaction must belong to.
package struct FlowSubmission: Sendable, Equatable {
    /// The node the submission was made on.
    package var node: String
    /// The pressed button's key.
    package var action: String
    /// The values by collector key.
    package var values: [String: FlowValue]
    /// The client the caller is, if it says.
    package var clientID: String?

    /// Makes it of its parts.
    package init(node: String, action: String, values: [String: FlowValue], clientID: String? = nil) {
        self.node = node
        self.action = action
        self.values = values
        self.clientID = clientID
    }

    /// The most values a submission carries, and the longest text of one, in bytes.
    package static let limits = (values: 64, textBytes: 8192)

    /// Reads a JSON body strictly: an object with exactly these members, each value text, a list of texts, a boolean
    /// or an object (a passkey's credential, whose size the body's limit bounds); the error says what is wrong.
    package static func parse(_ json: Data) -> Result<FlowSubmission, FlowRequestError> {
        guard case .object(let members)? = try? JSONValue(parsing: json) else {
            return .failure(.init("the body is not a JSON object (or names a member twice)"))
        }
        if let unknown = Set(members.keys).subtracting(["node", "action", "values", "client_id"]).min() {
            return .failure(.init("\(unknown) is not a member of a submission"))
        }
        guard case .string(let node)? = members["node"], case .string(let action)? = members["action"] else {
            return .failure(.init("node and action are required strings"))
        }
        var clientID: String?
        switch members["client_id"] {
        case nil: break
        case .string(let value)?: clientID = value
        default: return .failure(.init("client_id must be a string"))
        }
        var values: [String: FlowValue] = [:]
        switch members["values"] {
        case nil: break
        case .object(let given)? where given.count <= limits.values:
            for (key, value) in given {
                guard let parsed = Self.value(value) else {
                    return .failure(
                        .init("values.\(key) must be text, a list of texts, a boolean or an object, not too long"))
                }
                values[key] = parsed
            }
        default: return .failure(.init("values must be an object of at most \(limits.values) members"))
        }
        return .success(FlowSubmission(node: node, action: action, values: values, clientID: clientID))
    }

    private static func value(_ json: JSONValue) -> FlowValue? {
        switch json {
        case .string(let text) where text.utf8.count <= limits.textBytes: return .text(text)
        case .bool(let flag): return .flag(flag)
        case .object(let members): return .object(members)
        case .array(let items) where items.count <= limits.values:
            let texts = items.compactMap { item -> String? in
                guard case .string(let text) = item, text.utf8.count <= limits.textBytes else { return nil }
                return text
            }
            return texts.count == items.count ? .choices(texts) : nil
        default: return nil
        }
    }
}

/// Why a flow request's body was refused (`400`, never a `500`).
package struct FlowRequestError: Error, Sendable, Equatable {
    /// What is wrong.
    package let description: String

    package init(_ description: String) {
        self.description = description
    }
}

extension FlowValue {
    /// The JSON object of a `PASSKEY`'s value: sent as an object, or as its JSON text (a hosted page's form field).
    package static func credential(_ value: FlowValue?) -> [String: JSONValue]? {
        switch value {
        case .object(let members)?: members
        case .text(let text)?: (try? JSONValue(parsing: Array(text.utf8)))?.objectValue
        default: nil
        }
    }
}
