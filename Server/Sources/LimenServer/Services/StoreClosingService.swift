import LimenServerStorage
import ServiceLifecycle

/// Closes the store when the application stops, so that nothing closes it by hand after `runService()`. The
/// application lists it first among its services, which makes it the last to stop (a `ServiceGroup` stops its
/// services in reverse order, the HTTP server first): no request, sweep or mail delivery uses the store after it.
struct StoreClosingService: Service {
    /// The store to close.
    let store: any StoreLifecycle

    func run() async {
        // Returns at the graceful shutdown, or throws at a cancellation: either way the store is closed.
        try? await gracefulShutdown()
        await store.close()
    }
}
