import Foundation

/// A JWE in compact serialization (RFC 7516 §7.1), taken apart or about to be put together; nothing decrypted.
///
/// The five segments are `BASE64URL(UTF8(header)) . BASE64URL(encrypted key) . BASE64URL(IV) .
/// BASE64URL(ciphertext) . BASE64URL(tag)`. The protected header is kept as it arrived, since its base64url text is
/// the additional authenticated data of the content encryption (RFC 7516 §5.1, step 14).
///
/// ```swift
/// let jwe = try CompactJWE(fieldValue)
/// print(jwe.algorithm, jwe.encryption, jwe.keyID)   // "dir", "A256GCM", the key's thumbprint
/// ```
public struct CompactJWE: Sendable, Equatable {
    /// The protected header's base64url text, exactly as in the serialization.
    public let protectedHeader: String
    /// The protected header as a JSON object.
    public let header: [String: JSONValue]
    /// The decoded encrypted key (empty for `dir`).
    public let encryptedKey: [UInt8]
    /// The decoded initialization vector.
    public let initializationVector: [UInt8]
    /// The decoded ciphertext.
    public let ciphertext: [UInt8]
    /// The decoded authentication tag.
    public let tag: [UInt8]

    /// Splits and decodes a compact JWE.
    /// - Throws: ``EncryptionError/malformed(_:)`` unless `compact` has five base64url segments and a JSON object
    ///   as its protected header.
    public init(_ compact: String) throws(EncryptionError) {
        try self.init(compact, knownHeader: nil)
    }

    /// A protected header already decoded: its base64url text and its members.
    package typealias KnownHeader = (encoded: String, members: [String: JSONValue])

    /// Splits and decodes a compact JWE, taking the members of `knownHeader` without decoding them again when the
    /// protected header is exactly its text (a key reading back its own field values).
    package init(_ compact: String, knownHeader: KnownHeader?) throws(EncryptionError) {
        var compact = compact
        self = try compact.withUTF8 { bytes in
            Result { () throws(EncryptionError) in try CompactJWE(utf8: bytes, knownHeader: knownHeader) }
        }.get()
    }

    /// Works on the UTF-8 bytes, finding the dots with ``CompactJWS``'s `memchr` and decoding each segment in place:
    /// a field value of a few KiB is read on every decryption.
    private init(utf8 bytes: UnsafeBufferPointer<UInt8>, knownHeader: KnownHeader?) throws(EncryptionError) {
        var dots: [Int] = []
        dots.reserveCapacity(4)
        var next = CompactJWS.dot(in: bytes, from: 0)
        while let dot = next, dots.count < 5 {
            dots.append(dot)
            next = CompactJWS.dot(in: bytes, from: dot + 1)
        }
        guard dots.count == 4 else {
            throw .malformed(.segmentCount(bytes.lazy.filter { $0 == UInt8(ascii: ".") }.count + 1))
        }
        let header = UnsafeBufferPointer(rebasing: bytes[..<dots[0]])
        let members: [String: JSONValue]
        let protectedHeader: String
        if let knownHeader, header.elementsEqual(knownHeader.encoded.utf8) {
            (protectedHeader, members) = knownHeader
        } else {
            guard let headerBytes = Base64URL.bytes(utf8: header) else { throw .malformed(.invalidBase64URL(.header)) }
            guard let decoded = JSONObject.decode(headerBytes) else { throw .malformed(.invalidHeader) }
            (protectedHeader, members) = (String(decoding: header, as: UTF8.self), decoded)
        }
        let named: [(JWESegment, Range<Int>)] = [
            (.encryptedKey, (dots[0] + 1)..<dots[1]), (.initializationVector, (dots[1] + 1)..<dots[2]),
            (.ciphertext, (dots[2] + 1)..<dots[3]), (.tag, (dots[3] + 1)..<bytes.count),
        ]
        var decoded: [[UInt8]] = []
        decoded.reserveCapacity(4)
        for (segment, range) in named {
            guard let segmentBytes = Base64URL.bytes(utf8: UnsafeBufferPointer(rebasing: bytes[range])) else {
                throw .malformed(.invalidBase64URL(segment))
            }
            decoded.append(segmentBytes)
        }
        self.init(
            protectedHeader: protectedHeader, header: members, encryptedKey: decoded[0],
            initializationVector: decoded[1], ciphertext: decoded[2], tag: decoded[3])
    }

    /// Assembles a JWE whose protected header is `header`, serialized as ``JSONValue/serialized()`` writes it.
    public init(
        header: [String: JSONValue],
        encryptedKey: [UInt8],
        initializationVector: [UInt8],
        ciphertext: [UInt8],
        tag: [UInt8]
    ) {
        self.init(
            protectedHeader: Base64URL.encode(JSONValue.object(header).serialized()), header: header,
            encryptedKey: encryptedKey, initializationVector: initializationVector, ciphertext: ciphertext, tag: tag)
    }

    /// Assembles a JWE from a protected header already encoded (`protectedHeader` must be `header`'s base64url).
    package init(
        protectedHeader: String,
        header: [String: JSONValue],
        encryptedKey: [UInt8],
        initializationVector: [UInt8],
        ciphertext: [UInt8],
        tag: [UInt8]
    ) {
        self.protectedHeader = protectedHeader
        self.header = header
        self.encryptedKey = encryptedKey
        self.initializationVector = initializationVector
        self.ciphertext = ciphertext
        self.tag = tag
    }

    /// The compact serialization: the five segments joined by `.`.
    public var serialized: String {
        let segments = [encryptedKey, initializationVector, ciphertext, tag]
        var output: [UInt8] = []
        output.reserveCapacity(protectedHeader.utf8.count + segments.reduce(4) { $0 + ($1.count * 4 + 2) / 3 + 1 })
        output.append(contentsOf: protectedHeader.utf8)
        for segment in segments {
            output.append(UInt8(ascii: "."))
            Base64URL.append(segment, to: &output)
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The `alg` header parameter, when it is a string.
    public var algorithm: String? { header["alg"]?.stringValue }

    /// The `enc` header parameter, when it is a string.
    public var encryption: String? { header["enc"]?.stringValue }

    /// The `kid` header parameter, when it is a string.
    public var keyID: String? { header["kid"]?.stringValue }

    /// The additional authenticated data of the content encryption: the ASCII of ``protectedHeader``
    /// (RFC 7516 §5.1, step 14; compact serialization has no `aad` member).
    package var additionalAuthenticatedData: [UInt8] { Array(protectedHeader.utf8) }

    /// Refuses header parameters this SDK does not implement: `crit` (RFC 7516 §4.1.13: a recipient must understand
    /// every listed extension, and Limen understands none) and `zip` (compression, which Limen never applies).
    package func refuseUnimplementedParameters() throws(EncryptionError) {
        for name in ["crit", "zip"] where header[name] != nil {
            throw .malformed(.invalidHeaderParameter(name))
        }
    }
}
