import Foundation
import LimenServerStorage
import Logging

@testable import LimenServer
@testable import LimenServerCore

extension ServerComposition {
    /// Bootstraps on the configured store, as ``LimenServerService`` does but without a service group: the test holds
    /// the store's running task, which the store's `close()` ends.
    static func bootstrap(
        configuration: ServerConfiguration,
        now: @escaping @Sendable () -> Date = Date.init,
        logger: Logger = Logger(label: "limen.server")
    ) async throws -> ServerComposition {
        let store = try await openStore(configuration: configuration)
        do {
            return try await bootstrap(configuration: configuration, store: store, now: now, logger: logger)
        } catch {
            await store.close()
            throw error
        }
    }
}
