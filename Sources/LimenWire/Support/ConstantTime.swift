import Foundation

/// Comparisons whose running time does not depend on where two secrets first differ.
public enum ConstantTime {
    /// Whether two strings are equal, comparing every byte of the longer one.
    ///
    /// Use it for `state`, `nonce` and any other value an attacker may try to guess byte by byte.
    public static func equals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        let length = max(left.count, right.count)
        var difference = UInt8(truncatingIfNeeded: left.count ^ right.count) | (left.count == right.count ? 0 : 1)
        for index in 0..<length {
            let leftByte = index < left.count ? left[index] : 0
            let rightByte = index < right.count ? right[index] : 0
            difference |= leftByte ^ rightByte
        }
        return difference == 0
    }
}
