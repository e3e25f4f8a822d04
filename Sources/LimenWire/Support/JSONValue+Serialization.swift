/// Writing a ``JSONValue`` as JSON text (RFC 8259) directly, without `JSONEncoder`.
///
/// Object members are written in the byte order of their UTF-8 names, so equal values always give equal text. Numbers
/// that are whole and within ±2⁵³ are written without a fraction (`1700000000`, not `1.7e+09`); other finite numbers as
/// Swift's shortest round-tripping form; a non-finite number, which JSON cannot express, as `null`. Strings escape
/// `"`, `\` and the control characters, and nothing else (not `/`).
extension JSONValue {
    /// The JSON text of this value, as UTF-8 bytes.
    ///
    /// ```swift
    /// let body = JSONValue.object(["active": .bool(false)]).serialized()   // {"active":false}
    /// ```
    public func serialized() -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(to: &output)
        return output
    }

    private func write(to output: inout [UInt8]) {
        switch self {
        case .null: output.append(contentsOf: "null".utf8)
        case .bool(let value): output.append(contentsOf: (value ? "true" : "false").utf8)
        case .number(let value): Self.write(number: value, to: &output)
        case .string(let value): Self.write(string: value, to: &output)
        case .array(let elements):
            output.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                element.write(to: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let names = members.keys.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for (index, name) in names.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.write(string: name, to: &output)
                output.append(UInt8(ascii: ":"))
                members[name, default: .null].write(to: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The largest magnitude below which every whole `Double` is an exact integer (2⁵³).
    private static let exactIntegerLimit = 9_007_199_254_740_992.0

    private static func write(number: Double, to output: inout [UInt8]) {
        guard number.isFinite else {
            output.append(contentsOf: "null".utf8)
            return
        }
        if number.rounded(.towardZero) == number, abs(number) < exactIntegerLimit {
            output.append(contentsOf: String(Int64(number)).utf8)
        } else {
            output.append(contentsOf: number.description.utf8)
        }
    }

    private static func write(string: String, to output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output.append(contentsOf: #"\""#.utf8)
            case UInt8(ascii: "\\"): output.append(contentsOf: #"\\"#.utf8)
            case 0x0A: output.append(contentsOf: #"\n"#.utf8)
            case 0x0D: output.append(contentsOf: #"\r"#.utf8)
            case 0x09: output.append(contentsOf: #"\t"#.utf8)
            case 0x08: output.append(contentsOf: #"\b"#.utf8)
            case 0x0C: output.append(contentsOf: #"\f"#.utf8)
            case 0x00..<0x20:
                output.append(contentsOf: #"\u00"#.utf8)
                output.append(hexDigit(byte >> 4))
                output.append(hexDigit(byte & 0x0F))
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }
}
