import Foundation

/// A compact-serialised JWS (RFC 7515 §7.1) taken apart, nothing verified.
///
/// The payload stays raw bytes: a JWS payload may be any octets (RFC 8037 Appendix A.4 signs plain text).
package struct CompactJWS: Sendable {
    /// The protected header as a JSON object.
    package let header: [String: JSONValue]
    /// The decoded payload.
    package let payload: [UInt8]
    /// `BASE64URL(header) || '.' || BASE64URL(payload)`: the bytes the signature covers.
    package let signingInput: [UInt8]
    /// The decoded signature.
    package let signature: [UInt8]

    /// Splits and decodes a compact JWS.
    ///
    /// Works on the token's UTF-8 bytes rather than its `Character`s: a token is a long ASCII string on a hot path.
    package init(_ compact: String) throws(JWTDecodingError) {
        var compact = compact
        self = try compact.withUTF8 { bytes in
            Result { () throws(JWTDecodingError) in try CompactJWS(utf8: bytes) }
        }.get()
    }

    private init(utf8 bytes: UnsafeBufferPointer<UInt8>) throws(JWTDecodingError) {
        guard let firstDot = Self.dot(in: bytes, from: 0), let secondDot = Self.dot(in: bytes, from: firstDot + 1),
            Self.dot(in: bytes, from: secondDot + 1) == nil
        else { throw .segmentCount(bytes.lazy.filter { $0 == UInt8(ascii: ".") }.count + 1) }
        let signingInput = UnsafeBufferPointer(rebasing: bytes[..<secondDot])
        guard let headerBytes = Base64URL.bytes(utf8: UnsafeBufferPointer(rebasing: bytes[..<firstDot])) else {
            throw .invalidBase64URL(.header)
        }
        guard let payload = Base64URL.bytes(utf8: UnsafeBufferPointer(rebasing: bytes[(firstDot + 1)..<secondDot]))
        else { throw .invalidBase64URL(.payload) }
        guard let signature = Base64URL.bytes(utf8: UnsafeBufferPointer(rebasing: bytes[(secondDot + 1)...])) else {
            throw .invalidBase64URL(.signature)
        }
        guard let header = JSONObject.decode(headerBytes) else { throw .invalidJSON(.header) }
        self.header = header
        self.payload = payload
        self.signingInput = Array(signingInput)
        self.signature = signature
    }

    /// The offset of the first `.` in `bytes` at or after `start`, found by the C library's vectorised `memchr`.
    static func dot(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress,
            let found = memchr(base + start, Int32(UInt8(ascii: ".")), bytes.count - start)
        else { return nil }
        return UnsafeRawPointer(base).distance(to: found)
    }

    /// The `alg` header parameter, when it is a string.
    package var algorithm: String? { header["alg"]?.stringValue }

    /// The `kid` header parameter, when it is a string.
    package var keyID: String? { header["kid"]?.stringValue }
}

/// Decoding of JSON objects into ``JSONValue`` members.
package enum JSONObject {
    /// The members of the JSON object in `data` (`Data`, or a byte array), or `nil` when `data` is not a JSON object
    /// as ``JSONParser`` reads JSON (strictly, refusing duplicate member names).
    package static func decode(_ data: some ContiguousBytes) -> [String: JSONValue]? {
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
