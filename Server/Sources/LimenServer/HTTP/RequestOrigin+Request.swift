import HTTPTypes
import Hummingbird
import LimenServerCore
import Logging
import NIOCore

extension RequestOrigin {
    /// The origin of `request`: the client's address (through ``TrustedProxies``), its `User-Agent`, and the id
    /// ``RequestIDMiddleware`` gave it; acted by `actor` when not the user.
    init(
        _ request: Request, context: some RequestContext, peer: SocketAddress?, proxies: TrustedProxies,
        actor: SecurityEventActor? = nil
    ) {
        self.init(
            ip: proxies.clientAddress(of: request, peer: peer),
            userAgent: request.headers[.userAgent],
            requestID: context.logger[metadataKey: RequestIDMiddleware<LimenRequestContext>.metadataKey]?.description,
            actor: actor)
    }
}
