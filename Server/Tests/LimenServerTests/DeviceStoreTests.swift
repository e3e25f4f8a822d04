import Foundation
import LimenServerStorage
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("Store conformance: device authorizations")
struct DeviceStoreTests {
    private let now = Date(timeIntervalSince1970: 1_700_000_000)

    /// A migrated store with the CLI client and one user (`user-1`).
    private func make(_ kind: StoreUnderTest) async throws -> (store: any Store, cleanup: @Sendable () async -> Void) {
        try await kind.makeWithCLIClientAndUser(now: now)
    }

    private func record(_ byte: UInt8, userCode: UInt8? = nil, expiresIn seconds: Double = 600)
        -> DeviceAuthorizationRecord
    {
        DeviceAuthorizationRecord(
            deviceCodeHash: Data(repeating: byte, count: 32),
            userCodeHash: Data(repeating: userCode ?? byte, count: 32),
            clientID: "limen-cli", scope: "openid email", interval: 5, createdAt: now,
            expiresAt: now.addingTimeInterval(seconds))
    }

    @Test(
        "an authorization round-trips, is found by its user code while pending and unexpired",
        arguments: StoreUnderTest.allCases)
    func roundTrip(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        let stored = record(1)
        #expect(try await store.insertDeviceAuthorization(stored))
        #expect(try await store.deviceAuthorization(deviceCodeHash: stored.deviceCodeHash) == stored)
        #expect(try await store.pendingDeviceAuthorization(userCodeHash: stored.userCodeHash, now: now) == stored)
        #expect(
            try await store.pendingDeviceAuthorization(
                userCodeHash: stored.userCodeHash, now: now.addingTimeInterval(600)) == nil)
        #expect(try await store.deviceAuthorization(deviceCodeHash: Data(repeating: 9, count: 32)) == nil)
        await cleanup()
    }

    @Test("a taken user code hash is refused without storing anything", arguments: StoreUnderTest.allCases)
    func userCodeUnique(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        #expect(try await store.insertDeviceAuthorization(record(1, userCode: 7)))
        #expect(try await !store.insertDeviceAuthorization(record(2, userCode: 7)))
        #expect(try await store.deviceAuthorization(deviceCodeHash: Data(repeating: 2, count: 32)) == nil)
        await cleanup()
    }

    @Test("a decision is recorded once, only while pending and unexpired", arguments: StoreUnderTest.allCases)
    func decideOnce(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        let stored = record(1)
        #expect(try await store.insertDeviceAuthorization(stored))
        let approve = DeviceAuthorizationDecision.approve(subject: "user-1", authTime: now)
        #expect(
            try await store.decideDeviceAuthorization(
                deviceCodeHash: stored.deviceCodeHash, decision: approve, now: now))
        #expect(
            try await !store.decideDeviceAuthorization(deviceCodeHash: stored.deviceCodeHash, decision: .deny, now: now)
        )
        let approved = try #require(try await store.deviceAuthorization(deviceCodeHash: stored.deviceCodeHash))
        #expect(approved.status == .approved && approved.subject == "user-1" && approved.authTime == now)
        #expect(try await store.pendingDeviceAuthorization(userCodeHash: stored.userCodeHash, now: now) == nil)

        let late = record(2)
        #expect(try await store.insertDeviceAuthorization(late))
        #expect(
            try await !store.decideDeviceAuthorization(
                deviceCodeHash: late.deviceCodeHash, decision: .deny, now: now.addingTimeInterval(600)))
        #expect(
            try await store.decideDeviceAuthorization(deviceCodeHash: late.deviceCodeHash, decision: .deny, now: now))
        #expect(try await store.deviceAuthorization(deviceCodeHash: late.deviceCodeHash)?.status == .denied)
        await cleanup()
    }

    @Test("a poll is stored only over the state it read (compare-and-swap)", arguments: StoreUnderTest.allCases)
    func pollCompareAndSwap(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        let first = record(1)
        #expect(try await store.insertDeviceAuthorization(first))
        var second = first
        second.lastPolledAt = now
        #expect(try await store.recordDevicePoll(replacing: first, with: second))
        #expect(try await !store.recordDevicePoll(replacing: first, with: second))
        var third = second
        third.lastPolledAt = now.addingTimeInterval(2)
        third.interval = 10
        #expect(try await store.recordDevicePoll(replacing: second, with: third))
        #expect(try await store.deviceAuthorization(deviceCodeHash: first.deviceCodeHash) == third)
        await cleanup()
    }

    @Test("expired authorizations are swept, live ones kept", arguments: StoreUnderTest.allCases)
    func sweep(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        #expect(try await store.insertDeviceAuthorization(record(1, expiresIn: 60)))
        #expect(try await store.insertDeviceAuthorization(record(2, expiresIn: 600)))
        let sweeper = ExpirySweeper(store: store, now: { [now] in now.addingTimeInterval(90) })
        #expect(await sweeper.sweepOnce() == 1)
        #expect(try await store.deviceAuthorization(deviceCodeHash: Data(repeating: 1, count: 32)) == nil)
        #expect(try await store.deviceAuthorization(deviceCodeHash: Data(repeating: 2, count: 32)) != nil)
        await cleanup()
    }

    @Test(
        "a device grant is stored and found; a pending request keeps its device code hash",
        arguments: StoreUnderTest.allCases)
    func grantAndPendingRequest(_ kind: StoreUnderTest) async throws {
        let (store, cleanup) = try await make(kind)
        let grant = GrantRecord(
            id: "g-device", clientID: "limen-cli", subject: "user-1", scope: "openid", authTime: now, createdAt: now,
            expiresAt: now.addingTimeInterval(3600))
        try await store.insertGrant(grant)
        #expect(try await store.grant(id: "g-device") == grant)

        let pending = PendingAuthorizationRecord(
            idHash: Data(repeating: 4, count: 32), clientID: "limen-cli", redirectURI: "http://x/device",
            scope: "openid", deviceCodeHash: Data(repeating: 5, count: 32), createdAt: now,
            expiresAt: now.addingTimeInterval(600))
        try await store.insertPendingAuthorization(pending)
        #expect(try await store.pendingAuthorization(idHash: pending.idHash, now: now) == pending)
        await cleanup()
    }
}
