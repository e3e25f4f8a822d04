import Foundation

/// The network a client address is counted under by the per-address limits (the rate limits, the sign-in lock, the
/// hashing queue's share): an IPv4 address alone, an IPv6 address by its /64 prefix, an IPv4-mapped IPv6 address as
/// its IPv4 address. A subscriber gets a whole /64 at least (RFC 6177), so counting each IPv6 address apart would give
/// one person 2^64 budgets.
///
/// ```swift
/// ClientNetwork.key(of: "2001:db8:1:2:a:b:c:d")  // "2001:db8:1:2::/64"
/// ClientNetwork.key(of: "::ffff:203.0.113.7")    // "203.0.113.7"
/// ```
enum ClientNetwork {
    /// The key `address` is counted under; `address` itself when it is not an IP address (`unknown` when the request
    /// came from no socket).
    package static func key(of address: String) -> String {
        guard let printed = TrustedProxies.canonical(address) else { return address }
        guard printed.contains(":") else { return printed }
        // The shortest form, as NIO prints it: the groups before and after a "::" of zero groups.
        let halves = printed.components(separatedBy: "::")
        let head = halves[0].split(separator: ":")
        let tail = halves.count > 1 ? halves[1].split(separator: ":") : []
        let groups = head + Array(repeating: "0", count: max(0, 8 - head.count - tail.count)) + tail
        return groups.prefix(4).joined(separator: ":") + "::/64"
    }
}
