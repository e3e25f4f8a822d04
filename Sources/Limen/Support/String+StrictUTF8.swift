extension String {
    /// `bytes` as text when they are valid UTF-8, else `nil` (nothing is repaired).
    ///
    /// The standard library's `String(validating:as:)` needs macOS 15 / iOS 18, above the package's minimums; decoding
    /// with repair and comparing the bytes back is the same check on every platform.
    init?(strictUTF8 bytes: [UInt8]) {
        let decoded = String(decoding: bytes, as: UTF8.self)
        guard decoded.utf8.elementsEqual(bytes) else { return nil }
        self = decoded
    }
}
