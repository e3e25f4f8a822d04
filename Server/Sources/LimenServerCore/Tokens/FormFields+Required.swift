import LimenServerWire

extension FormFields {
    /// The value of `name`, or `invalid_request` naming it.
    package func required(_ name: String) throws(TokenEndpointError) -> String {
        guard let value = self[name] else { throw .invalidRequest("\(name) is missing") }
        return value
    }
}
