/// Holds a value a route must answer with but that is known only once the server has its port (an issuer URL).
public actor IssuerBox {
    /// The current value.
    public private(set) var value = ""

    /// Creates an empty box.
    public init() {}

    /// Sets the value.
    public func set(_ new: String) { value = new }
}
