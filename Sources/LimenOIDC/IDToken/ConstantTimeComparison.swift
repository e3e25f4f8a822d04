import Foundation

/// String equality whose running time does not depend on where the strings first differ.
enum ConstantTimeComparison {
    /// Whether `lhs` and `rhs` have the same UTF-8 octets. Only the length may leak through timing.
    static func equals(_ lhs: String, _ rhs: String) -> Bool {
        let left = Array(lhs.utf8)
        let right = Array(rhs.utf8)
        guard left.count == right.count else { return false }
        var difference: UInt8 = 0
        for (a, b) in zip(left, right) {
            difference |= a ^ b
        }
        return difference == 0
    }
}
