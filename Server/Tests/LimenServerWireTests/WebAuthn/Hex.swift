extension [UInt8] {
    /// The bytes written as hexadecimal (`"a201"`); spaces are ignored. Test data only: a bad digit is a test bug.
    init(hex: String) {
        let digits = Array(hex.utf8.filter { $0 != UInt8(ascii: " ") })
        var bytes: [UInt8] = []
        var index = 0
        while index + 1 < digits.count {
            let pair = String(decoding: digits[index...index + 1], as: UTF8.self)
            bytes.append(UInt8(pair, radix: 16) ?? 0)
            index += 2
        }
        self = bytes
    }
}
