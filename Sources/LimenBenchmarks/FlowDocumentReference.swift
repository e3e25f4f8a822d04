import Foundation

/// The flow step's same-run reference (issue 25 §3): the benchmark's document decoded by Foundation's `JSONDecoder` into
/// plain `Codable` structs of the same shape, so that a slow machine (both slower) and a regression in the SDK (only the
/// step slower) can be told apart.
struct FlowDocumentReference: Decodable {
    /// A choice of a dropdown, radio group or combo box.
    struct Option: Decodable {
        var label: String
        var value: String
    }

    /// A text field's rule.
    struct Validation: Decodable {
        var regex: String
        var message: String
    }

    /// A password's length bounds.
    struct Length: Decodable {
        var min: Int
        var max: Int
    }

    /// A password policy.
    struct Policy: Decodable {
        var length: Length
        var minUniqueCharacters: Int
        var maxRepeatedCharacters: Int
        var minCharacters: [String: Int]

        enum CodingKeys: String, CodingKey {
            case length
            case minUniqueCharacters = "min_unique_characters"
            case maxRepeatedCharacters = "max_repeated_characters"
            case minCharacters = "min_characters"
        }
    }

    /// One field of the node.
    struct Collector: Decodable {
        var type: String
        var key: String
        var label: String
        var required: Bool?
        var validation: Validation?
        var policy: Policy?
        var options: [Option]?
    }

    /// The node.
    struct Node: Decodable {
        var type: String
        var id: String
        var name: String
        var description: String
        var collectors: [Collector]
    }

    var interaction: String
    var node: Node
}
