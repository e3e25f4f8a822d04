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
enum JSONObject {
    /// The members of the JSON object in `data`, or `nil` when `data` is not a JSON object as ``JSONParser`` reads
    /// JSON (strictly, refusing duplicate member names).
    static func decode(_ data: Data) -> [String: JSONValue]? {
        guard case .object(let members)? = try? JSONParser.parse(data) else { return nil }
        return members
    }
}

extension JSONValue {
    /// A NumericDate (RFC 7519 §2): seconds since the epoch, when this is a number.
    var dateValue: Date? {
        numberValue.map { Date(timeIntervalSince1970: $0) }
    }
}
