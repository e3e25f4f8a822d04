import Crypto
import Foundation
import LimenServerStorage
import LimenTestSupport
import Logging
import Testing

@testable import LimenServer
@testable import LimenServerCore

@Suite("The mail outbox: written by the request, delivered by a worker on any node, once")
struct MailOutboxTests {
    static let start = Date(timeIntervalSince1970: 1_800_000_000)

    /// An outbox over `store` with a new master key and a clock the test moves.
    static func outbox(_ store: any Store, clock: TestNow) -> MailOutbox {
        MailOutbox(
            store: store, keys: DerivedKeys(masterKey: MasterKey(key: SymmetricKey(size: .bits256))),
            now: {
                clock.now
            })
    }

    @Test(
        "a message is claimed by one claim at a time, finished only by its holder, retried from its time, swept once expired",
        arguments: StoreUnderTest.allCases)
    func storeConformance(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { store in
            let now = Self.start
            let mail = OutboxMailRecord(
                id: "m1", sealed: Data([1, 2, 3]), claimedUntil: now, createdAt: now,
                expiresAt: now.addingTimeInterval(600))
            try await store.insertOutboxMail(mail)
            let claimed = try #require(try await store.claimOutboxMail(now: now, until: now + 300, claim: "a"))
            #expect(claimed.attempts == 1 && claimed.claim == "a" && claimed.sealed == mail.sealed)
            #expect(try await store.claimOutboxMail(now: now + 299, until: now + 600, claim: "b") == nil)
            #expect(try await !store.finishOutboxMail(id: "m1", claim: "b"))
            try await store.retryOutboxMail(id: "m1", claim: "a", at: now + 20)
            #expect(try await store.claimOutboxMail(now: now + 19, until: now + 300, claim: "b") == nil)
            let again = try #require(try await store.claimOutboxMail(now: now + 20, until: now + 320, claim: "b"))
            #expect(again.attempts == 2)
            // The first holder's lease is over: it can no longer finish what another now holds.
            #expect(try await !store.finishOutboxMail(id: "m1", claim: "a"))
            #expect(try await store.finishOutboxMail(id: "m1", claim: "b"))
            #expect(try await store.claimOutboxMail(now: now + 1000, until: now + 1300, claim: "c") == nil)

            try await store.insertOutboxMail(mail)
            #expect(try await store.claimOutboxMail(now: now + 600, until: now + 900, claim: "d") == nil)
            #expect(try await store.deleteExpiredOutboxMail(before: now + 599) == 0)
            #expect(try await store.deleteExpiredOutboxMail(before: now + 600) == 1)
        }
    }

    @Test(
        "one claim takes up to its limit of due messages, oldest first, each counted once and held by that claim",
        arguments: StoreUnderTest.allCases)
    func claimsSeveral(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { store in
            let now = Self.start
            for (offset, id) in ["m1", "m2", "m3"].enumerated() {
                try await store.insertOutboxMail(
                    OutboxMailRecord(
                        id: id, sealed: Data([UInt8(offset)]), claimedUntil: now, createdAt: now + Double(offset),
                        expiresAt: now + 600))
            }
            let first = try await store.claimOutboxMail(now: now + 5, until: now + 300, claim: "a", limit: 2)
            #expect(Set(first.map(\.id)) == ["m1", "m2"])
            #expect(first.allSatisfy { $0.claim == "a" && $0.attempts == 1 })
            let rest = try await store.claimOutboxMail(now: now + 5, until: now + 300, claim: "b", limit: 5)
            #expect(rest.map(\.id) == ["m3"])
            #expect(try await store.claimOutboxMail(now: now + 5, until: now + 300, claim: "c", limit: 5).isEmpty)
            #expect(try await store.finishOutboxMail(id: "m2", claim: "a"))
            #expect(try await !store.finishOutboxMail(id: "m3", claim: "a"))
        }
    }

    @Test("a claim's messages go out in one queue per recipient, each in the order written; a sealed one alone")
    func queuesByRecipient() {
        func mail(_ id: String, at seconds: Double) -> OutboxMailRecord {
            OutboxMailRecord(
                id: id, sealed: Data(), claimedUntil: Self.start, createdAt: Self.start + seconds,
                expiresAt: Self.start + 600)
        }
        let queues = MailOutboxWorker.queuesByRecipient([
            (mail("resent", at: 2), outboxMessage(1)), (mail("other", at: 1), outboxMessage(2)),
            (mail("first", at: 1), outboxMessage(1)), (mail("sealed elsewhere", at: 0), nil),
        ])
        let ids = Set(queues.map { $0.map(\.0.id) })
        #expect(ids == [["first", "resent"], ["other"], ["sealed elsewhere"]])
    }

    @Test("at rest a message is sealed: neither its code nor its address is readable, nor does it open elsewhere")
    func sealedAtRest() async throws {
        try await StoreUnderTest.sqliteInMemory.withStore { store in
            let clock = TestNow(Self.start)
            let outbox = Self.outbox(store, clock: clock)
            try await outbox.enqueue(outboxMessage(1, code: "271828"))
            let row = try #require(try await store.claimOutboxMail(now: clock.now, until: clock.now + 60, claim: "x"))
            let stored = String(decoding: row.sealed, as: UTF8.self)
            #expect(!stored.contains("271828") && !stored.contains("ada1@example.com"))
            #expect(outbox.open(row) == outboxMessage(1, code: "271828"))
            #expect(Self.outbox(store, clock: clock).open(row) == nil, "another master key does not open it")
            var moved = row
            moved.id = "another row"
            #expect(outbox.open(moved) == nil, "bound to its row")
        }
    }

    @Test(
        "a mail survives a restart: written before the stop, sent exactly once by the provider that starts next on the same store"
    )
    func survivesRestart() async throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let configuration = ServerConfiguration.testing(directory: directory)
        let clock = TestNow(Self.start)
        let first = try await ServerComposition.bootstrap(configuration: configuration, now: { clock.now })
        try await first.mailOutbox.enqueue(outboxMessage(1))
        try await first.mailOutbox.enqueue(outboxMessage(2))
        // A worker that claimed the second and then died with its node: its lease runs out, the message is not lost.
        _ = try await first.store.claimOutboxMail(now: clock.now, until: clock.now + MailOutbox.lease, claim: "dead")
        await first.store.close()

        let second = try await ServerComposition.bootstrap(configuration: configuration, now: { clock.now })
        let mailer = RecordingMailer()
        let worker = MailOutboxWorker(outbox: second.mailOutbox, mailer: mailer)
        #expect(await worker.deliverDue() == 1)
        clock.advance(by: MailOutbox.lease)
        #expect(await worker.deliverDue() == 1)
        #expect(await worker.deliverDue() == 0)
        #expect(await mailer.sent.map(\.to).sorted() == ["ada1@example.com", "ada2@example.com"])
        await second.store.close()
    }

    @Test("two workers on one store send each message once", arguments: StoreUnderTest.allCases)
    func twoWorkers(_ kind: StoreUnderTest) async throws {
        try await kind.withStore { store in
            let clock = TestNow(Self.start)
            let outbox = Self.outbox(store, clock: clock)
            for number in 0..<30 { try await outbox.enqueue(outboxMessage(number)) }
            let mailer = RecordingMailer()
            let workers = (0..<2).map { _ in MailOutboxWorker(outbox: outbox, mailer: mailer) }
            let delivered = await withTaskGroup(of: Int.self) { group in
                for worker in workers { group.addTask { await worker.deliverDue() } }
                return await group.reduce(0, +)
            }
            #expect(delivered == 30)
            let recipients = await mailer.sent.map(\.to)
            #expect(recipients.count == 30 && Set(recipients).count == 30)
        }
    }

    @Test("a failed delivery is tried again after a growing wait, and dropped when it fails for good or expires")
    func retries() async throws {
        try await StoreUnderTest.sqliteInMemory.withStore { store in
            let clock = TestNow(Self.start)
            let outbox = Self.outbox(store, clock: clock)
            try await outbox.enqueue(outboxMessage(1))
            func worker(failing: Int, tries: Int) -> (RecordingMailer, MailOutboxWorker) {
                let mailer = RecordingMailer(failing: failing)
                let backoff = MailRetries(attempts: tries, firstBackoff: .seconds(20))
                return (mailer, MailOutboxWorker(outbox: outbox, mailer: mailer, backoff: backoff))
            }
            let (mailer, retrying) = worker(failing: 2, tries: 3)
            // Due after 0 s (fails), 20 s (fails), then 40 s more (delivered); never before its time.
            for (wait, delivered) in [(0, 0), (19, 0), (1, 0), (39, 0), (1, 1)] {
                clock.advance(by: TimeInterval(wait))
                #expect(await retrying.deliverDue() == delivered)
            }
            #expect(await mailer.sent.count == 1)

            try await outbox.enqueue(outboxMessage(2))
            #expect(await worker(failing: 10, tries: 1).1.deliverDue() == 0)
            clock.advance(by: 3600)
            #expect(try await store.claimOutboxMail(now: clock.now, until: clock.now + 1, claim: "x") == nil)
        }
    }

    @Test(
        "the worker wakes as soon as a request of its node writes to the outbox, without waiting for its poll",
        // Against a hang only (without the wake-up nothing delivers, ever): beside the whole suite on two cores, a
        // deadline of a minute ran out twice before the worker's turn came.
        .timeLimit(.minutes(10)))
    func wakesOnInsert() async throws {
        try await StoreUnderTest.sqliteInMemory.withStore { store in
            let outbox = Self.outbox(store, clock: TestNow(Self.start))
            let neverPolls = Gate()
            // Each poll's wait lasts until the task is cancelled: only the insert's wake-up can deliver.
            let clock = TestClock { _ in await neverPolls.wait() }
            let mailer = RecordingMailer()
            let worker = MailOutboxWorker(outbox: outbox, mailer: mailer, clock: clock)
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await worker.run() }
                try await outbox.enqueue(outboxMessage(1))
                await mailer.waitUntilSent(1)
                group.cancelAll()
            }
            #expect(await mailer.sent.count == 1)
        }
    }

    @Test(
        "an account notice says what changed and where, in text and HTML, as a notice without a code",
        arguments: [
            AccountNotice.identityLinked("Apple ID"), .identityUnlinked("email address"), .passwordChanged,
            .emailChanged(newAddress: "new@example.com"), .accountDeleted,
        ])
    func accountNotices(_ notice: AccountNotice) {
        let message = AccountNotices.message(notice, to: "ada@example.com", issuer: "https://id.example")
        #expect(message.kind == .notice && message.code == nil && message.to == "ada@example.com")
        #expect(message.text.contains("at https://id.example.") && message.html.contains("https://id.example"))
        #expect(message.text.contains("reset your password"))
        #expect(!message.subject.isEmpty && message.purpose != nil)
    }
}

@Suite("Mail retries")
struct MailRetriesTests {
    @Test("a shutdown (a cancelled task) stops the retries at once with the last error, still retryable for the outbox")
    func cancellationStopsRetries() async {
        let retries = MailRetries(attempts: 5, firstBackoff: .seconds(3600))
        let attempts = Locked(0)
        let (tried, didTry) = AsyncStream.makeStream(of: Void.self)
        let sending = Task {
            try await retries.run(logger: Logger(label: "test.mail"), destination: "relay") {
                attempts.withLock { $0 += 1 }
                didTry.yield()
                throw MailError("the relay is down")
            }
        }
        for await _ in tried { break }
        sending.cancel()
        let outcome = await sending.result
        guard case .failure(let error) = outcome else {
            Issue.record("a relay that is down delivered")
            return
        }
        #expect((error as? MailError)?.isRetryable == true, "the outbox tries the message again later")
        #expect(attempts.withLock { $0 } == 1, "no attempt after the cancellation, no hour-long wait")
    }
}

@Suite("A mailer's TLS context")
struct MailTLSContextTests {
    @Test("made once and then kept for every message; one that could not be made is tried again at the next use")
    func madeOnce() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let caFile = directory.path + "/ca.pem"
        let tls = MailTLSContext(trusting: caFile)
        #expect(throws: (any Error).self, "no CA file yet") { try tls.context() }
        try Data(Self.certificate.utf8).write(to: URL(fileURLWithPath: caFile))
        let first = try tls.context()
        try FileManager.default.removeItem(atPath: caFile)
        #expect(try tls.context() === first, "the file is not read again")
    }

    /// A public CA certificate (Let's Encrypt's ISRG Root X2), as a mail relay's CA file would hold one.
    private static let certificate = """
        -----BEGIN CERTIFICATE-----
        MIICGzCCAaGgAwIBAgIQQdKd0XLq7qeAwSxs6S+HUjAKBggqhkjOPQQDAzBPMQsw
        CQYDVQQGEwJVUzEpMCcGA1UEChMgSW50ZXJuZXQgU2VjdXJpdHkgUmVzZWFyY2gg
        R3JvdXAxFTATBgNVBAMTDElTUkcgUm9vdCBYMjAeFw0yMDA5MDQwMDAwMDBaFw00
        MDA5MTcxNjAwMDBaME8xCzAJBgNVBAYTAlVTMSkwJwYDVQQKEyBJbnRlcm5ldCBT
        ZWN1cml0eSBSZXNlYXJjaCBHcm91cDEVMBMGA1UEAxMMSVNSRyBSb290IFgyMHYw
        EAYHKoZIzj0CAQYFK4EEACIDYgAEzZvVn4CDCuwJSvMWSj5cz3es3mcFDR0HttwW
        +1qLFNvicWDEukWVEYmO6gbf9yoWHKS5xcUy4APgHoIYOIvXRdgKam7mAHf7AlF9
        ItgKbppbd9/w+kHsOdx1ymgHDB/qo0IwQDAOBgNVHQ8BAf8EBAMCAQYwDwYDVR0T
        AQH/BAUwAwEB/zAdBgNVHQ4EFgQUfEKWrt5LSDv6kviejM9ti6lyN5UwCgYIKoZI
        zj0EAwMDaAAwZQIwe3lORlCEwkSHRhtFcP9Ymd70/aTSVaYgLXTWNLxBo1BfASdW
        tL4ndQavEi51mI38AjEAi/V3bNTIZargCyzuFJ0nN6T5U6VR5CmD1/iQMVtCnwr1
        /q4AaOeMSQ+2b1tbFfLn
        -----END CERTIFICATE-----
        """
}
