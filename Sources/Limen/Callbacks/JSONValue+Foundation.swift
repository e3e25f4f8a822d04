import Foundation

extension JSONValue {
    /// The value as Foundation's property-list objects, as `JSONSerialization` reads JSON and Objective-C expects it:
    /// `NSNull`, an `NSNumber` (holding a Boolean or a double), `String`, arrays and dictionaries of them.
    ///
    /// ```swift
    /// let claims = info.claims.mapValues(\.foundationObject)  // an NSDictionary for Objective-C
    /// ```
    public var foundationObject: Any {
        switch self {
        case .null: NSNull()
        case .bool(let flag): NSNumber(value: flag)
        case .number(let number): NSNumber(value: number)
        case .string(let text): text
        case .array(let items): items.map(\.foundationObject)
        case .object(let members): members.mapValues(\.foundationObject)
        }
    }
}
