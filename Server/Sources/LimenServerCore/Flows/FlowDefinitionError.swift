/// Why a flow definition was refused at start-up: the file, the place in it and what is wrong.
public struct FlowDefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file (or `built-in sign-in`).
    public var source: String
    /// Where in the definition: `nodes[0].collectors[2].actions[1]`.
    public var path: String
    /// What is wrong, naming the unknown action, node, collector or key.
    public var reason: String

    public var description: String {
        "flow definition \(source)\(path.isEmpty ? "" : " at \(path)"): \(reason)"
    }
}
