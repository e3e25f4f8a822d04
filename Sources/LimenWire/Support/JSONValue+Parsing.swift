import Foundation

/// Reading a ``JSONValue`` from JSON text with Limen's strict parser.
extension JSONValue {
    /// Parses one JSON document (RFC 8259) held as UTF-8 bytes (`Data`, a byte array, a raw buffer).
    ///
    /// Strict: exactly RFC 8259's grammar (no comments, trailing commas, byte order mark or trailing content), nesting
    /// at most 64 deep, no member name twice in one object, no number too large for a `Double`. Everything it accepts,
    /// `JSONSerialization` accepts too, with the same values.
    ///
    /// ```swift
    /// let body = try JSONValue(parsing: Data(#"{"client_id":"web"}"#.utf8))
    /// ```
    /// - Throws: ``JSONParsingError`` naming why the document was refused.
    public init(parsing json: some ContiguousBytes) throws(JSONParsingError) {
        self = try JSONParser.parse(json)
    }
}
