import Foundation

/// A strict RFC 8259 JSON parser over UTF-8 bytes, producing ``JSONValue``s.
///
/// It replaces `JSONSerialization`, whose `NSDictionary`/`NSNumber` bridging on Linux was most of the fixed cost of
/// reading token JSON. Strict means exactly the grammar of RFC 8259, and two limits of its own:
/// - One value, surrounded by nothing but space, tab, LF and CR: no comments, trailing commas, single quotes, byte
///   order mark or trailing content.
/// - Numbers without leading zeros, `+`, a bare `.` or `-`, NaN or Infinity, each read as `Double(String)` reads
///   it. A number too large for a `Double` is refused (RFC 8259 §6 lets a parser limit the range) rather than read
///   as infinity.
/// - Strings of well-formed UTF-8 (§8.1), without unescaped control characters, with only the escapes of §7, and
///   with `\u` surrogate escapes only as a high-low pair.
/// - Arrays and objects nested at most ``maximumDepth`` deep, so hostile input cannot exhaust the stack.
/// - No member name twice in one object. RFC 7515 §4 lets a JWS reader either reject duplicate header parameter
///   names or take the last one; rejecting is the safer choice, since then no two readers of a token can disagree
///   about which value counts. Names Swift's `String` compares as equal (canonically equivalent Unicode, such as
///   `é` precomposed and decomposed) count as the same name, as one dictionary cannot hold both.
///
/// ```swift
/// let claims = try JSONParser.parse(Data(#"{"sub":"alice"}"#.utf8)).objectValue
/// ```
struct JSONParser {
    /// How deep arrays and objects may nest; a top-level object is depth 1.
    static let maximumDepth = 64

    /// Room reserved in every non-empty object, enough for most token headers and claim sets, so that the dictionary
    /// is not grown (and rehashed) member by member.
    private static let expectedMemberCount = 12

    /// The document, valid only while the static `parse` that made this parser runs.
    let bytes: UnsafeBufferPointer<UInt8>
    /// The offset of the next byte to read.
    var index = 0

    private init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// Parses one JSON document held in `data` (`Data`, or a byte array).
    static func parse(_ data: some ContiguousBytes) throws(JSONParsingError) -> JSONValue {
        try data.withUnsafeBytes { raw in
            raw.withMemoryRebound(to: UInt8.self) { bytes in
                Result { () throws(JSONParsingError) in try parse(bytes) }
            }
        }.get()
    }

    /// Parses one JSON document held in `bytes`.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONParsingError) -> JSONValue {
        var parser = JSONParser(bytes: bytes)
        parser.skipWhitespace()
        let value = try parser.parseValue(depth: 0)
        parser.skipWhitespace()
        guard parser.index == bytes.count else { throw .trailingContent }
        return value
    }

    /// The next byte, without consuming it; `nil` at the end.
    func peek() -> UInt8? {
        index < bytes.count ? bytes[index] : nil
    }

    /// Consumes the next byte; throws at the end.
    mutating func next() throws(JSONParsingError) -> UInt8 {
        guard index < bytes.count else { throw .unexpectedEnd }
        defer { index += 1 }
        return bytes[index]
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"): index += 1
            default: return
            }
        }
    }

    /// Parses the value that starts at the next byte; `depth` is how many containers enclose it.
    private mutating func parseValue(depth: Int) throws(JSONParsingError) -> JSONValue {
        guard let byte = peek() else { throw .unexpectedEnd }
        switch byte {
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "{"): return .object(try parseObject(depth: depth + 1))
        case UInt8(ascii: "["): return .array(try parseArray(depth: depth + 1))
        case UInt8(ascii: "t"):
            try consume("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try consume("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try consume("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw .unexpectedCharacter
        }
    }

    /// Consumes `literal` (`true`, `false` or `null`) byte by byte.
    private mutating func consume(_ literal: StaticString) throws(JSONParsingError) {
        for expected in UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount) {
            guard try next() == expected else { throw .unexpectedCharacter }
        }
    }

    /// Parses an object (RFC 8259 §4) opening at the next byte, refusing duplicate names.
    private mutating func parseObject(depth: Int) throws(JSONParsingError) -> [String: JSONValue] {
        guard depth <= Self.maximumDepth else { throw .tooDeep }
        index += 1
        skipWhitespace()
        if peek() == UInt8(ascii: "}") {
            index += 1
            return [:]
        }
        var members = [String: JSONValue](minimumCapacity: Self.expectedMemberCount)
        while true {
            guard let quote = peek() else { throw .unexpectedEnd }
            guard quote == UInt8(ascii: "\"") else { throw .unexpectedCharacter }
            let name = try parseString()
            skipWhitespace()
            guard try next() == UInt8(ascii: ":") else { throw .unexpectedCharacter }
            skipWhitespace()
            let value = try parseValue(depth: depth)
            guard members.updateValue(value, forKey: name) == nil else { throw .duplicateMemberName(name) }
            skipWhitespace()
            switch try next() {
            case UInt8(ascii: ","): skipWhitespace()
            case UInt8(ascii: "}"): return members
            default: throw .unexpectedCharacter
            }
        }
    }

    /// Parses an array (RFC 8259 §5) opening at the next byte.
    private mutating func parseArray(depth: Int) throws(JSONParsingError) -> [JSONValue] {
        guard depth <= Self.maximumDepth else { throw .tooDeep }
        index += 1
        var elements: [JSONValue] = []
        skipWhitespace()
        if peek() == UInt8(ascii: "]") {
            index += 1
            return elements
        }
        while true {
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            switch try next() {
            case UInt8(ascii: ","): skipWhitespace()
            case UInt8(ascii: "]"): return elements
            default: throw .unexpectedCharacter
            }
        }
    }

    /// Parses a number (RFC 8259 §6) starting at the next byte.
    ///
    /// An integer of up to 2^53 is exact in a `Double` and converted directly; any other number is handed, once its
    /// grammar is checked, to `Double(String)`, so every number reads exactly as Swift reads it.
    private mutating func parseNumber() throws(JSONParsingError) -> Double {
        let start = index
        let isNegative = peek() == UInt8(ascii: "-")
        if isNegative { index += 1 }
        guard let first = peek(), first.isDigit else { throw .invalidNumber }
        var integer: UInt64 = 0
        var integerDigits = 0
        if first == UInt8(ascii: "0") {
            index += 1
            if let digit = peek(), digit.isDigit { throw .invalidNumber }
        } else {
            while let digit = peek(), digit.isDigit {
                if integerDigits < 16 { integer = integer * 10 + UInt64(digit - UInt8(ascii: "0")) }
                integerDigits += 1
                index += 1
            }
        }
        var isInteger = true
        if peek() == UInt8(ascii: ".") {
            index += 1
            isInteger = false
            try skipDigits()
        }
        if peek() == UInt8(ascii: "e") || peek() == UInt8(ascii: "E") {
            index += 1
            isInteger = false
            if peek() == UInt8(ascii: "+") || peek() == UInt8(ascii: "-") { index += 1 }
            try skipDigits()
        }
        if isInteger, integerDigits <= 16, integer <= 1 << 53 {
            return isNegative ? -Double(integer) : Double(integer)
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
        guard let value = Double(text), value.isFinite else { throw .numberOutOfRange }
        return value
    }

    /// Consumes one or more digits.
    private mutating func skipDigits() throws(JSONParsingError) {
        guard peek()?.isDigit == true else { throw .invalidNumber }
        while peek()?.isDigit == true { index += 1 }
    }
}

extension UInt8 {
    /// Whether this byte is an ASCII digit.
    fileprivate var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
