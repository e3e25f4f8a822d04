import Hummingbird
import LimenServerCore
import NIOCore

extension TrustedProxies {
    /// The client's address for `request` arriving from `peer` (`nil` in router tests, which have no socket).
    func clientAddress(of request: Request, peer: SocketAddress?) -> String {
        guard let peer = peer?.ipAddress else { return "unknown" }
        let forwardedFor = request.headers.filter { $0.name.canonicalName == "x-forwarded-for" }.map(\.value)
        return clientAddress(peer: peer, forwardedFor: forwardedFor)
    }
}
