import Foundation
import NIOCore

/// The reverse proxies (nginx, a load balancer) whose `X-Forwarded-For` header tells the client's address.
///
/// Behind a proxy every request comes from the proxy's address, so per-address limits would throttle every client
/// together. When the connected peer is one of these proxies, the client is the right-most `X-Forwarded-For` entry
/// that is not itself a trusted proxy: each proxy appends the address it saw, so entries to the right of the first
/// untrusted one were written by proxies we trust, and entries to its left by whoever the client is (and may be
/// forged). When the peer is not a trusted proxy the header is ignored: anyone can send it.
///
/// ```swift
/// let proxies = try TrustedProxies(["127.0.0.1"])
/// proxies.clientAddress(peer: "127.0.0.1", forwardedFor: ["203.0.113.7"])  // "203.0.113.7"
/// proxies.clientAddress(peer: "198.51.100.2", forwardedFor: ["203.0.113.7"])  // "198.51.100.2"
/// ```
public struct TrustedProxies: Sendable, Equatable {
    /// The proxies' addresses, in canonical form.
    public let addresses: Set<String>

    /// No trusted proxy: the peer is always the client (the default).
    public static let none = TrustedProxies(canonical: [])

    private init(canonical addresses: Set<String>) {
        self.addresses = addresses
    }

    /// Trusts the proxies at `addresses` (IPv4 or IPv6 addresses, no ranges or ports); returns `nil` if one is not
    /// an IP address.
    public init?(_ addresses: [String]) {
        var canonical: Set<String> = []
        for address in addresses {
            guard let normalized = Self.canonical(address) else { return nil }
            canonical.insert(normalized)
        }
        self.init(canonical: canonical)
    }

    /// The client's address for a request from `peer` carrying the `X-Forwarded-For` field values `forwardedFor`
    /// (several fields are read as one list, in order); `peer` itself when it is not a trusted proxy. When every entry
    /// is a trusted proxy the left-most one is the client; an entry that is not an IP address (a proxy that does not
    /// write addresses) stops the walk at the proxy that wrote it.
    public func clientAddress(peer: String, forwardedFor: [String]) -> String {
        let peer = Self.canonical(peer) ?? peer
        guard addresses.contains(peer) else { return peer }
        var client = peer
        let entries = forwardedFor.flatMap { $0.split(separator: ",") }
        for entry in entries.reversed() {
            guard let address = Self.canonical(entry.trimmingCharacters(in: .whitespaces)) else { return client }
            client = address
            if !addresses.contains(address) { return address }
        }
        return client
    }

    /// Whether `peer`, the connected address, is one of these proxies: only then are its forwarding headers (and the
    /// W3C trace context it passes on) believed.
    public func trusts(peer: String) -> Bool {
        addresses.contains(Self.canonical(peer) ?? peer)
    }

    /// `address` as NIO prints it (so `0:0::1` and `::1` are one address), an IPv4-mapped IPv6 address as plain
    /// IPv4; `nil` if it is not an IP address.
    static func canonical(_ address: String) -> String? {
        guard let printed = (try? SocketAddress(ipAddress: address, port: 0))?.ipAddress else { return nil }
        let mappedPrefix = "::ffff:"
        if printed.hasPrefix(mappedPrefix), let ipv4 = canonical(String(printed.dropFirst(mappedPrefix.count))),
            !ipv4.contains(":")
        {
            return ipv4
        }
        return printed
    }
}
