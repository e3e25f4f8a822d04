import Foundation
import Limen

/// A flow step of ten collectors, as a server sends it, decoded into a ``ContinueNode`` by `client.startFlow` (over a
/// transport that answers at once), filled in as a person would, and checked with `validate()`: the work an app does
/// on the device for one step (issue 10 §5).
enum FlowNodeBenchmark {
    /// The node's collectors: two texts with rules, a password with the built-in policy and its confirmation, a
    /// dropdown, radio buttons, a combo box, a checkbox, a label and the submit button.
    static let nodeJSON = #"""
        {"interaction": "bench-interaction", "node": {"type": "continue", "id": "profile", "name": "Create your account",
         "description": "A step with every kind of field", "collectors": [
          {"type": "TEXT", "key": "email", "label": "Email", "required": true,
           "validation": {"regex": "^[^@\\s]+@[^@\\s]+$", "message": "Enter an email address"}},
          {"type": "TEXT", "key": "name", "label": "Name", "required": false,
           "validation": {"regex": "^.{1,80}$", "message": "At most 80 characters"}},
          {"type": "PASSWORD", "key": "password", "label": "Password", "required": true,
           "policy": {"length": {"min": 12, "max": 128}, "min_unique_characters": 5, "max_repeated_characters": 3,
                      "min_characters": {"lowercase": 1, "uppercase": 1, "digits": 1, "special": 1}}},
          {"type": "PASSWORD_VERIFY", "key": "password_verify", "label": "Password again", "required": true},
          {"type": "DROPDOWN", "key": "country", "label": "Country", "required": true,
           "options": [{"label": "France", "value": "fr"}, {"label": "Japan", "value": "jp"}]},
          {"type": "RADIO", "key": "plan", "label": "Plan", "required": true,
           "options": [{"label": "Free", "value": "free"}, {"label": "Team", "value": "team"}]},
          {"type": "COMBOBOX", "key": "topics", "label": "Topics", "required": false,
           "options": [{"label": "News", "value": "news"}, {"label": "Tips", "value": "tips"}]},
          {"type": "CHECKBOX", "key": "accept_terms", "label": "I accept the terms", "required": true},
          {"type": "LABEL", "key": "notice", "label": "We never share your email."},
          {"type": "SUBMIT_BUTTON", "key": "submit", "label": "Create account"}]}}
        """#

    /// The median time of one step (decode, fill in and validate) and of its reference (the same document decoded by
    /// `JSONDecoder` into ``FlowDocumentReference``): five rounds of 100 batches × 20 each, the two alternating so that
    /// a change in the machine's load reaches both; the median of the rounds' medians.
    static func measure() async throws -> (step: Duration, reference: Duration) {
        let client = AuthClient(
            configuration: Configuration(
                issuer: BenchmarkSession.issuer, clientID: BenchmarkSession.clientID,
                redirectURI: URL(string: "com.example.app:/callback"), store: MemoryStore(),
                transport: StubTransport(body: Data(nodeJSON.utf8))))
        guard try await step(client) else { fatalError("the benchmark node did not decode or did not validate") }
        let document = Data(nodeJSON.utf8)
        let decoder = JSONDecoder()
        guard try decoder.decode(FlowDocumentReference.self, from: document).node.collectors.count == 10 else {
            fatalError("the reference did not decode ten collectors")
        }
        return try await Task.detached {
            var steps: [Duration] = []
            var references: [Duration] = []
            for _ in 0..<5 {
                steps.append(
                    try await Measure.medianPerCall(batches: 100, batchSize: 20) {
                        guard try await step(client) else { fatalError("the benchmark node stopped validating") }
                    })
                references.append(
                    try await Measure.medianPerCall(batches: 100, batchSize: 20) {
                        _ = try decoder.decode(FlowDocumentReference.self, from: document)
                    })
            }
            return (Measure.median(steps), Measure.median(references))
        }.value
    }

    /// One step: whether it decoded to a continue node whose filled-in fields all pass.
    private static func step(_ client: AuthClient) async throws -> Bool {
        guard case .continue(let node) = await client.startFlow("sign-up") else { return false }
        for field in node.fields {
            switch field {
            case let text as TextCollector: text.value = text.key == "email" ? "ada@example.com" : "Ada Lovelace"
            case let password as PasswordCollector: password.value = "Correct-Horse-7-Battery"
            case let single as SingleSelectCollector: single.value = single.options.last?.value ?? ""
            case let multiple as MultiSelectCollector: multiple.value = multiple.options.map(\.value)
            case let checkbox as CheckboxCollector: checkbox.value = true
            default: return false
            }
        }
        return node.collectors.count == 10 && node.validate().isEmpty
    }
}
