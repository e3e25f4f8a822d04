/// What a native interaction waits for on its consent node: what to show, and what runs once the person allows.
package struct FlowConsentState: Sendable, Equatable, Codable {
    /// The client's name, as the node shows it.
    package var clientName: String
    /// The scopes asked for, granted together.
    package var scopes: [String]
    /// The actions after `require_consent` on the button that ran it.
    package var remaining: [FlowAction] = []
    /// The node that button leads to.
    package var next: String?

    /// Makes it of its parts.
    package init(clientName: String, scopes: [String], remaining: [FlowAction] = [], next: String? = nil) {
        self.clientName = clientName
        self.scopes = scopes
        self.remaining = remaining
        self.next = next
    }
}
