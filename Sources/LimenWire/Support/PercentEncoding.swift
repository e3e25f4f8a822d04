/// RFC 3986 percent-encoding (§2.1), byte by byte: what form encoding and URI comparison share.
public enum PercentEncoding {
    /// Whether `byte` is an unreserved character (RFC 3986 §2.3): `ALPHA / DIGIT / "-" / "." / "_" / "~"`.
    public static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            true
        default: false
        }
    }

    /// The value of a hexadecimal digit of either case, or `nil` for any other byte.
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }

    /// `%XX` for `byte`, with upper-case digits (RFC 3986 §2.1 recommends them).
    public static func escape(_ byte: UInt8) -> [UInt8] {
        [UInt8(ascii: "%"), upperHexDigits[Int(byte >> 4)], upperHexDigits[Int(byte & 0x0F)]]
    }

    private static let upperHexDigits = Array("0123456789ABCDEF".utf8)

    /// `text` with its percent-encodings normalised (RFC 3986 §6.2.2.1–6.2.2.2): those of unreserved characters
    /// decoded, the others written with upper-case digits; and, when `lowercasingLetters` (a host), its letters in lower
    /// case (not the digits of an escape). `nil` when a `%` is not followed by two hexadecimal digits.
    ///
    /// ```swift
    /// PercentEncoding.normalized("/%7euser/%c3%a9")   // "/~user/%C3%A9"
    /// ```
    public static func normalized(_ text: String, lowercasingLetters: Bool = false) -> String? {
        let letter = { (byte: UInt8) -> UInt8 in
            lowercasingLetters && (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte | 0x20 : byte
        }
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                output.append(letter(byte))
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                return nil
            }
            let decoded = high << 4 | low
            if isUnreserved(decoded) {
                output.append(letter(decoded))
            } else {
                output += escape(decoded)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
