import Foundation

extension JSONParser {
    /// Parses a string (RFC 8259 §7) opening at the next byte.
    ///
    /// A string without escapes, the usual case in tokens, becomes a `String` straight from the document's bytes once
    /// they are checked; the first backslash switches to copying.
    mutating func parseString() throws(JSONParsingError) -> String {
        index += 1
        let start = index
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                let string = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
                index += 1
                return string
            case UInt8(ascii: "\\"): return try parseEscapedString(from: start)
            case ..<0x20: throw .controlCharacterInString
            case ..<0x80: index += 1
            default: try skipUTF8Sequence()
            }
        }
        throw .unexpectedEnd
    }

    /// Finishes a string whose unescaped part runs from `start` to the first backslash, at the next byte.
    private mutating func parseEscapedString(from start: Int) throws(JSONParsingError) -> String {
        var utf8 = Array(bytes[start..<index])
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                return String(decoding: utf8, as: UTF8.self)
            case UInt8(ascii: "\\"): try appendEscape(to: &utf8)
            case ..<0x20: throw .controlCharacterInString
            case ..<0x80:
                utf8.append(byte)
                index += 1
            default:
                let sequenceStart = index
                try skipUTF8Sequence()
                utf8.append(contentsOf: bytes[sequenceStart..<index])
            }
        }
        throw .unexpectedEnd
    }

    /// Decodes the escape starting with the backslash at the next byte and appends its UTF-8.
    private mutating func appendEscape(to utf8: inout [UInt8]) throws(JSONParsingError) {
        index += 1
        switch try next() {
        case UInt8(ascii: "\""): utf8.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): utf8.append(UInt8(ascii: "\\"))
        case UInt8(ascii: "/"): utf8.append(UInt8(ascii: "/"))
        case UInt8(ascii: "b"): utf8.append(0x08)
        case UInt8(ascii: "f"): utf8.append(0x0C)
        case UInt8(ascii: "n"): utf8.append(UInt8(ascii: "\n"))
        case UInt8(ascii: "r"): utf8.append(UInt8(ascii: "\r"))
        case UInt8(ascii: "t"): utf8.append(UInt8(ascii: "\t"))
        case UInt8(ascii: "u"): UTF8.encode(try parseUnicodeEscape()) { utf8.append($0) }
        default: throw .invalidEscape
        }
    }

    /// Reads the four hex digits after `\u`, and for a high surrogate the `\uXXXX` low surrogate that must follow.
    private mutating func parseUnicodeEscape() throws(JSONParsingError) -> Unicode.Scalar {
        let unit = try parseHexQuad()
        var value = UInt32(unit)
        switch unit {
        case 0xD800...0xDBFF:
            guard try next() == UInt8(ascii: "\\"), try next() == UInt8(ascii: "u") else { throw .invalidSurrogate }
            let low = try parseHexQuad()
            guard (0xDC00...0xDFFF).contains(low) else { throw .invalidSurrogate }
            value = 0x10000 + (UInt32(unit - 0xD800) << 10) + UInt32(low - 0xDC00)
        case 0xDC00...0xDFFF:
            throw .invalidSurrogate
        default:
            break
        }
        guard let scalar = Unicode.Scalar(value) else { throw .invalidSurrogate }
        return scalar
    }

    /// Reads four hex digits, either case.
    private mutating func parseHexQuad() throws(JSONParsingError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            let byte = try next()
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw .invalidEscape
            }
            unit = unit << 4 | UInt16(digit)
        }
        return unit
    }

    /// Checks the multi-byte UTF-8 sequence at the next byte and consumes it.
    ///
    /// Follows the well-formed byte sequences of Unicode Table 3-7: no overlong forms, no encoded surrogates, nothing
    /// above U+10FFFF, no truncated sequence.
    private mutating func skipUTF8Sequence() throws(JSONParsingError) {
        let length: Int
        let second: ClosedRange<UInt8>
        switch bytes[index] {
        case 0xC2...0xDF: (length, second) = (2, 0x80...0xBF)
        case 0xE0: (length, second) = (3, 0xA0...0xBF)
        case 0xE1...0xEC, 0xEE...0xEF: (length, second) = (3, 0x80...0xBF)
        case 0xED: (length, second) = (3, 0x80...0x9F)
        case 0xF0: (length, second) = (4, 0x90...0xBF)
        case 0xF1...0xF3: (length, second) = (4, 0x80...0xBF)
        case 0xF4: (length, second) = (4, 0x80...0x8F)
        default: throw .invalidUTF8
        }
        guard bytes.count - index >= length, second.contains(bytes[index + 1]) else { throw .invalidUTF8 }
        for offset in 2..<length where !(0x80...0xBF).contains(bytes[index + offset]) {
            throw .invalidUTF8
        }
        index += length
    }
}
