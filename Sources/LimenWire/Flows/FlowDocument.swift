import Foundation

/// A flow answer as the server sends it: `{"interaction": ID, "node": NODE}` from `POST /flows/{flow}` and
/// `POST /flows/interactions/{id}`. Members it does not know are ignored, so a newer server's additions never break
/// an older app; a node or collector `type` it does not know is kept as such (``FlowNodeDocument/unknown(type:)``,
/// ``FlowCollectorDocument/type``) for the caller to decide.
public struct FlowDocument: Sendable, Equatable {
    /// The interaction's opaque ID, when there is one.
    public var interaction: String?
    /// The node.
    public var node: FlowNodeDocument
    /// Seconds to wait before trying again (`retry_after`), on an error node the server answered because waiting helps
    /// (too many wrong codes, a spent budget of messages); `nil` otherwise.
    public var retryAfter: Int?

    /// Creates a document.
    public init(interaction: String?, node: FlowNodeDocument, retryAfter: Int? = nil) {
        self.interaction = interaction
        self.node = node
        self.retryAfter = retryAfter
    }

    /// Reads a response body.
    /// - Throws: ``FlowDocumentError`` naming what is missing or of the wrong kind.
    public init(parsing body: Data) throws(FlowDocumentError) {
        let document: JSONValue
        do {
            document = try JSONValue(parsing: body)
        } catch {
            throw .invalid("the body is not JSON")
        }
        guard case .object(let members) = document, case .object(let node)? = members["node"] else {
            throw .invalid("missing node")
        }
        self.init(
            interaction: members["interaction"]?.stringValue, node: try FlowNodeDocument(node),
            retryAfter: try MemberReader(members: members, path: "document").integer("retry_after"))
    }
}

/// Why a flow answer could not be read.
public enum FlowDocumentError: Error, Sendable, Equatable {
    /// The body is not a flow answer; the text says what is wrong, e.g. `missing node.id`.
    case invalid(String)
}

/// A node: a step to render, the same step with what was wrong, a page to open, the end without a code, or the end
/// with one.
public enum FlowNodeDocument: Sendable, Equatable {
    /// A step to render and submit.
    case `continue`(FlowStepDocument)
    /// The same step again, with a message and per-field details.
    case error(FlowStepDocument, message: String, details: [FlowErrorDetail])
    /// The answer to an `IDP` collector's press: open `url` (an upstream provider's authorization endpoint, always
    /// absolute `https` or `http`) in a web session and wait for the redirect to the flow's redirect URI; `provider` is
    /// the upstream provider's ID. The interaction stays on the pressed step meanwhile.
    case redirect(url: URL, provider: String?)
    /// The interaction is over without a code.
    case failure(code: String, message: String)
    /// The interaction is over with an authorization code to redeem with the PKCE verifier; `newUser` is the
    /// server's `new_user` (whether the interaction created the account), `nil` from a server that does not say.
    case success(code: String, state: String?, issuer: String?, newUser: Bool?)
    /// The interaction is over having registered a passkey or two-step sign-in for the signed-in user (`{"type":
    /// "success", "registered": true}`): no code, the session goes on as it was.
    case registered
    /// A node type this version does not know (from a newer server).
    case unknown(type: String)

    init(_ members: [String: JSONValue]) throws(FlowDocumentError) {
        let reader = MemberReader(members: members, path: "node")
        switch try reader.string("type") {
        case "continue": self = .continue(try FlowStepDocument(reader))
        case "error":
            let details = try reader.objects("details").map { detail throws(FlowDocumentError) in
                FlowErrorDetail(
                    key: detail.optionalString("key") ?? "", code: try detail.string("code"),
                    message: detail.optionalString("message") ?? "")
            }
            self = .error(
                try FlowStepDocument(reader), message: reader.optionalString("message") ?? "", details: details)
        case "redirect":
            self = .redirect(url: try Self.webURL(reader.string("url")), provider: reader.optionalString("provider"))
        case "failure":
            self = .failure(code: try reader.string("code"), message: reader.optionalString("message") ?? "")
        case "success" where members["registered"]?.boolValue == true && members["code"] == nil:
            self = .registered
        case "success":
            self = .success(
                code: try reader.string("code"), state: reader.optionalString("state"),
                issuer: reader.optionalString("iss"), newUser: members["new_user"]?.boolValue)
        case let other: self = .unknown(type: other)
        }
    }

    /// `text` as an absolute `https` or `http` URL with a host: a page a web session may open.
    private static func webURL(_ text: String) throws(FlowDocumentError) -> URL {
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["https", "http"].contains(scheme),
            url.host?.isEmpty == false
        else { throw .invalid("node.url is not an absolute http(s) URL") }
        return url
    }
}

/// A step's identity and collectors (a `continue` or `error` node).
public struct FlowStepDocument: Sendable, Equatable {
    /// The node's ID within its flow.
    public var id: String
    /// A title.
    public var name: String
    /// A sentence under the title.
    public var description: String
    /// The fields, buttons and texts, in order.
    public var collectors: [FlowCollectorDocument]

    init(_ reader: MemberReader) throws(FlowDocumentError) {
        id = try reader.string("id")
        name = reader.optionalString("name") ?? ""
        description = reader.optionalString("description") ?? ""
        collectors = try reader.objects("collectors").map { collector throws(FlowDocumentError) in
            try FlowCollectorDocument(collector)
        }
    }
}

/// What was wrong with one field (or, with an empty key, the whole submission), by a stable code.
public struct FlowErrorDetail: Sendable, Equatable {
    /// The collector's key; empty for the submission as a whole.
    public var key: String
    /// A stable code (`required`, `regex`, `invalid_length`, `password_mismatch`, `invalid_credentials`, …).
    public var code: String
    /// A sentence for the person.
    public var message: String

    /// Creates a detail.
    public init(key: String, code: String, message: String) {
        (self.key, self.code, self.message) = (key, code, message)
    }
}

/// One collector: its wire `type` (`TEXT`, `PASSWORD`, … or one this version does not know) and what it carries.
public struct FlowCollectorDocument: Sendable, Equatable {
    /// The wire type, e.g. `TEXT` or `SUBMIT_BUTTON`.
    public var type: String
    /// The key its value (or, for a button, its press) is sent under.
    public var key: String
    /// The label, or a `LABEL`'s text.
    public var label: String
    /// Whether a value is required.
    public var isRequired: Bool
    /// The regular expression the whole value must match, and the message when it does not.
    public var validation: (regex: String, message: String)?
    /// The choices, for `DROPDOWN`, `RADIO`, `COMBOBOX` and `CHECKBOX`.
    public var options: [(label: String, value: String)]
    /// A `PASSKEY`'s ceremony: `register` or `authenticate` (its `mode`).
    public var mode: String?
    /// `conditional` on a `PASSKEY` offered as a username field's autofill (WebAuthn's conditional mediation) rather
    /// than by a button of its own (its `mediation`).
    public var mediation: String?
    /// A `PASSKEY`'s WebAuthn options, as the server sent them (its `options` object:
    /// `PublicKeyCredentialCreationOptionsJSON` or `PublicKeyCredentialRequestOptionsJSON`).
    public var passkeyOptions: JSONValue?
    /// The password policy, on a `PASSWORD` of a node that sets a password.
    public var policy: FlowPasswordPolicy?
    /// A value filled in by the server (the email address already entered), or what a `LABEL` shows (`totp-enrol`'s
    /// URI, setup key and recovery codes).
    public var value: String?
    /// The upstream provider's ID, on an `IDP` collector.
    public var provider: String?
    /// The flow a `FLOW_BUTTON` or `FLOW_LINK` moves to, when it names one (`passkey`, `sign-up`).
    public var flow: String?
    /// The form of the value, on a `PHONE` collector `e164` (a phone number: `+` and the country code).
    public var format: String?

    init(_ reader: MemberReader) throws(FlowDocumentError) {
        type = try reader.string("type")
        key = try reader.string("key")
        label = reader.optionalString("label") ?? ""
        isRequired = reader.members["required"]?.boolValue ?? false
        if let validation = try reader.optionalObject("validation") {
            self.validation = (try validation.string("regex"), validation.optionalString("message") ?? "")
        }
        if case .object = reader.members["options"] {
            (options, passkeyOptions) = ([], reader.members["options"])
        } else {
            options = try reader.objects("options").map { option throws(FlowDocumentError) in
                (label: option.optionalString("label") ?? "", value: try option.string("value"))
            }
        }
        mode = reader.optionalString("mode")
        mediation = reader.optionalString("mediation")
        policy = try reader.optionalObject("policy").map { policy throws(FlowDocumentError) in
            try Self.policy(policy)
        }
        value = reader.optionalString("value")
        provider = reader.optionalString("provider")
        flow = reader.optionalString("flow")
        format = reader.optionalString("format")
    }

    private static func policy(_ reader: MemberReader) throws(FlowDocumentError) -> FlowPasswordPolicy {
        let length = try reader.optionalObject("length")
        let minimum = try length?.integer("min") ?? 0
        let maximum = try length?.integer("max") ?? 1_000_000
        guard minimum <= maximum else { throw .invalid("\(reader.path).length has min above max") }
        let characters = try reader.optionalObject("min_characters")
        return FlowPasswordPolicy(
            length: minimum...maximum,
            minimumUniqueCharacters: try reader.integer("min_unique_characters") ?? 0,
            maximumRepeatedCharacters: try reader.integer("max_repeated_characters") ?? 0,
            minimumCharacters: FlowPasswordPolicy.CharacterMinimums(
                lowercase: try characters?.integer("lowercase") ?? 0,
                uppercase: try characters?.integer("uppercase") ?? 0,
                digits: try characters?.integer("digits") ?? 0,
                special: try characters?.integer("special") ?? 0))
    }

    /// Compares everything (tuples are not `Equatable`).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.type == rhs.type && lhs.key == rhs.key && lhs.label == rhs.label && lhs.isRequired == rhs.isRequired
            && lhs.validation?.regex == rhs.validation?.regex && lhs.validation?.message == rhs.validation?.message
            && lhs.options.map(\.label) == rhs.options.map(\.label)
            && lhs.options.map(\.value) == rhs.options.map(\.value) && lhs.policy == rhs.policy
            && lhs.value == rhs.value && lhs.provider == rhs.provider && lhs.mode == rhs.mode
            && lhs.passkeyOptions == rhs.passkeyOptions && lhs.mediation == rhs.mediation && lhs.flow == rhs.flow
    }
}
