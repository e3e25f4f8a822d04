import LimenServerStorage
import ServiceLifecycle

/// Closes the store when the server stops, so that nothing closes it by hand. The server lists it first among its services, which makes it the last to stop (a `ServiceGroup` stops
/// its services in reverse order): no start-up step, request, sweep or mail delivery uses the store after it.
package struct StoreService: Service {
    /// The store to close.
    package let store: any StoreLifecycle

    /// Makes it of its parts.
    package init(store: any StoreLifecycle) {
        self.store = store
    }

    package func run() async {
        // Returns at the graceful shutdown, or throws at a cancellation: either way the store is closed.
        try? await gracefulShutdown()
        await store.close()
    }
}
