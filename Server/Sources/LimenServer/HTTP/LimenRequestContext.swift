import Hummingbird
import LimenServerCore
import NIOCore

/// The request context of every route: Hummingbird's core context plus the peer's address, which rate limits key on.
public struct LimenRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The connected peer (`nil` in router tests, which have no socket).
    public let remoteAddress: SocketAddress?

    /// Creates the context for a request arriving on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = CoreRequestContextStorage(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}
