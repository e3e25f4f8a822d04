import LimenServerStorage
import Logging
import ServiceLifecycle
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The application closes its store when it stops")
struct StoreClosingServiceTests {
    @Test("the store serves until the graceful shutdown, and is closed once the service group has stopped")
    func closesAtShutdown() async throws {
        let store = try await SQLiteStore.inMemory()
        try await store.migrate()
        let group = ServiceGroup(
            configuration: .init(
                services: [.init(service: StoreClosingService(store: store))], logger: Logger(label: "test")))
        try await withThrowingTaskGroup { tasks in
            tasks.addTask { try await group.run() }
            try await store.ping()
            await group.triggerGracefulShutdown()
            try await tasks.waitForAll()
        }
        await #expect(throws: StorageError.self, "closed: nothing can use it any more") { try await store.ping() }
    }
}
