import Foundation
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Store conformance: flow interactions")
struct FlowInteractionStoreTests {
    @Test(
        "an interaction is stored by hash, changes only from the revision it was read at, and is swept when expired",
        arguments: StoreUnderTest.allCases)
    func interactions(_ kind: StoreUnderTest) async throws {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let (store, cleanup) = try await kind.makeWithCLIClientAndUser(now: now)
        let record = FlowInteractionRecord(
            idHash: Data(repeating: 7, count: 32), flow: "sign-in", node: "credentials", clientID: "limen-cli",
            request: Data(#"{"scope":"openid"}"#.utf8), context: Data("{}".utf8), createdAt: now,
            expiresAt: now.addingTimeInterval(900))
        try await store.insertFlowInteraction(record)
        #expect(try await store.flowInteraction(idHash: record.idHash) == record)
        #expect(try await store.flowInteraction(idHash: Data(repeating: 8, count: 32)) == nil)

        var next = record
        (next.node, next.revision, next.context) = ("other", 1, Data(#"{"email":"a@b.c"}"#.utf8))
        var racing = record
        (racing.node, racing.revision) = ("racing", 1)
        #expect(try await store.updateFlowInteraction(next))
        #expect(try await !store.updateFlowInteraction(racing))
        #expect(try await store.flowInteraction(idHash: record.idHash) == next)
        // Attempts are counted in one statement, up to the maximum, and only there; an update leaves them.
        #expect(try await store.countFlowInteractionAttempt(idHash: record.idHash, maximum: 2) == 1)
        #expect(try await store.countFlowInteractionAttempt(idHash: record.idHash, maximum: 2) == 2)
        #expect(try await store.countFlowInteractionAttempt(idHash: record.idHash, maximum: 2) == nil)
        try await store.refundFlowInteractionAttempt(idHash: record.idHash)
        #expect(try await store.flowInteraction(idHash: record.idHash)?.attempts == 1)
        next.attempts = 1
        next.status = .succeeded
        next.revision = 2
        #expect(try await store.updateFlowInteraction(next))
        #expect(try await store.flowInteraction(idHash: record.idHash)?.status == .succeeded)

        #expect(try await store.deleteExpiredFlowInteractions(before: now.addingTimeInterval(899)) == 0)
        #expect(try await store.deleteExpiredFlowInteractions(before: now.addingTimeInterval(900)) == 1)
        #expect(try await store.flowInteraction(idHash: record.idHash) == nil)
        // An interaction goes with its client.
        try await store.insertFlowInteraction(record)
        try await store.deleteClient(id: "limen-cli")
        #expect(try await store.flowInteraction(idHash: record.idHash) == nil)
        await cleanup()
    }
}
