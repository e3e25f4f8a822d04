import Foundation

/// A compact-serialised JWS (RFC 7515 §7.1) taken apart, nothing verified.
///
/// The payload stays raw bytes: a JWS payload may be any octets (RFC 8037 Appendix A.4 signs plain text).
struct CompactJWS: Sendable {
    /// The protected header as a JSON object.
    let header: [String: JSONValue]
    /// The decoded payload.
    let payload: Data
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`: the bytes the signature covers.
    let signingInput: Data
    /// The decoded signature.
    let signature: Data

    /// Splits and decodes a compact JWS.
    init(_ compact: String) throws(JWTDecodingError) {
        let segments = compact.split(separator: ".", omittingEmptySubsequences: false)
        guard segments.count == 3 else { throw .segmentCount(segments.count) }
        guard let headerData = Base64URL.decode(segments[0]) else { throw .invalidBase64URL(.header) }
        guard let payload = Base64URL.decode(segments[1]) else { throw .invalidBase64URL(.payload) }
        guard let signature = Base64URL.decode(segments[2]) else { throw .invalidBase64URL(.signature) }
        guard let header = JSONObject.decode(headerData) else { throw .invalidJSON(.header) }
        self.header = header
        self.payload = payload
        self.signingInput = Data("\(segments[0]).\(segments[1])".utf8)
        self.signature = signature
    }

    /// The `alg` header parameter, when it is a string.
    var algorithm: String? { header["alg"]?.stringValue }

    /// The `kid` header parameter, when it is a string.
    var keyID: String? { header["kid"]?.stringValue }
}

/// Decoding of JSON objects into ``JSONValue`` members.
///
/// Uses `JSONSerialization`, about three times faster than `JSONDecoder` into `JSONValue` on small token JSON:
/// decoding claims is most of the fixed cost of validating an ID token.
enum JSONObject {
    /// The members of the JSON object in `data`, or `nil` when `data` is not a JSON object.
    static func decode(_ data: Data) -> [String: JSONValue]? {
        guard let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] else { return nil }
        var members: [String: JSONValue] = [:]
        for (name, value) in object {
            guard let member = JSONValue(serialized: value) else { return nil }
            members[name] = member
        }
        return members
    }
}

extension JSONValue {
    /// Converts what `JSONSerialization` produced; `nil` for anything it cannot produce.
    ///
    /// Booleans arrive as `NSNumber`s of Objective-C type `c` (`__NSCFBoolean`), never confused with the numbers
    /// 0 and 1, which arrive with an integer or floating-point type.
    init?(serialized value: Any) {
        switch value {
        case let string as String:
            self = .string(string)
        case let number as NSNumber:
            self = String(cString: number.objCType) == "c" ? .bool(number.boolValue) : .number(number.doubleValue)
        case is NSNull:
            self = .null
        case let array as [Any]:
            var elements: [JSONValue] = []
            elements.reserveCapacity(array.count)
            for element in array {
                guard let converted = JSONValue(serialized: element) else { return nil }
                elements.append(converted)
            }
            self = .array(elements)
        case let object as [String: Any]:
            var members: [String: JSONValue] = [:]
            for (name, member) in object {
                guard let converted = JSONValue(serialized: member) else { return nil }
                members[name] = converted
            }
            self = .object(members)
        default:
            return nil
        }
    }
}

extension JSONValue {
    /// A NumericDate (RFC 7519 §2): seconds since the epoch, when this is a number.
    var dateValue: Date? {
        numberValue.map { Date(timeIntervalSince1970: $0) }
    }
}
