/// What a button's actions run on: the submission and where it came from. ``FlowActionRunner`` makes one per press
/// and hands it to the runner of each action's family.
struct ActionInput: Sendable {
    /// The flow (the purpose a code is sent and redeemed for).
    var flow: String
    /// The interaction's ID, for the link an email carries.
    var interaction: String
    /// The interaction's client.
    var clientID: String
    /// The values submitted, by collector key.
    var values: [String: FlowValue]
    /// The interaction's request: who is signed in on the device, the scopes, the hints.
    var request: FlowRequest
    /// Where the submission came from: its address, `User-Agent` and request id, for the events it causes.
    var origin: RequestOrigin

    /// The address the submission came from (the lockout's and the limits' key; its share of the hashing queue).
    var clientAddress: String { origin.address }
}
