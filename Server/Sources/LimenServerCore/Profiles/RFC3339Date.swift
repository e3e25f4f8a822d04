/// Whether a string is an RFC 3339 §5.6 `full-date` (`2024-02-29`) or `date-time` (`2024-02-29T12:30:00.5+01:00`),
/// with real calendar values (no 30 February): the values of a `date` profile field.
enum RFC3339Date {
    /// Whether `text` is a full date or a date-time.
    package static func isValid(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 10, isFullDate(bytes[0..<10]) else { return false }
        guard bytes.count > 10 else { return true }
        guard [UInt8(ascii: "T"), UInt8(ascii: "t"), UInt8(ascii: " ")].contains(bytes[10]) else { return false }
        return isTime(bytes[11...])
    }

    /// `YYYY-MM-DD` naming a day that exists.
    private static func isFullDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        let start = bytes.startIndex
        guard bytes[start + 4] == UInt8(ascii: "-"), bytes[start + 7] == UInt8(ascii: "-"),
            let year = number(bytes[start..<start + 4]), let month = number(bytes[start + 5..<start + 7]),
            let day = number(bytes[start + 8..<start + 10]), (1...12).contains(month)
        else { return false }
        let isLeap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, isLeap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    /// `hh:mm:ss`, an optional fraction, then `Z` or `±hh:mm`.
    private static func isTime(_ bytes: ArraySlice<UInt8>) -> Bool {
        let start = bytes.startIndex
        guard bytes.count >= 9, bytes[start + 2] == UInt8(ascii: ":"), bytes[start + 5] == UInt8(ascii: ":"),
            let hour = number(bytes[start..<start + 2]), let minute = number(bytes[start + 3..<start + 5]),
            let second = number(bytes[start + 6..<start + 8]), hour <= 23, minute <= 59, second <= 60
        else { return false }
        var index = start + 8
        if bytes[index] == UInt8(ascii: ".") {
            let digits = bytes[(index + 1)...].prefix { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
            guard !digits.isEmpty else { return false }
            index += 1 + digits.count
        }
        let offset = bytes[index...]
        if offset.count == 1 { return offset.first == UInt8(ascii: "Z") || offset.first == UInt8(ascii: "z") }
        guard offset.count == 6, [UInt8(ascii: "+"), UInt8(ascii: "-")].contains(offset[index]),
            offset[index + 3] == UInt8(ascii: ":"), let hours = number(offset[index + 1..<index + 3]),
            let minutes = number(offset[index + 4..<index + 6])
        else { return false }
        return hours <= 23 && minutes <= 59
    }

    /// The decimal digits `bytes` as a number; `nil` when any is not a digit.
    private static func number(_ bytes: ArraySlice<UInt8>) -> Int? {
        var value = 0
        for byte in bytes {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) else { return nil }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
        }
        return value
    }
}
