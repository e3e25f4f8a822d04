import Foundation
import Limen
import LimenOIDC
import LimenTestSupport
import TestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

@Suite("Pinned transports")
struct PinnedTransportTests {
    static let issuer = URL(string: "https://id.example.test")!
    static let backup = Data(repeating: 0xB0, count: 32).base64EncodedString()

    /// A client of `issuer` whose transport presents `chain`, with the issuer's host pinned to `pin` and a backup.
    static func client(
        presenting chain: [Data], pin: String, mode: PinningMode = .enforce, transport: RecordingTransport
    ) throws -> AuthClient {
        var configuration = Configuration(
            issuer: issuer, clientID: "app", store: MemoryStore(),
            transport: PresentingTransport(base: transport, chain: chain))
        configuration.pinning = try CertificatePinning([
            PinnedHost(issuer.host ?? "", pins: [pin, backup], mode: mode)
        ])
        return AuthClient(configuration: configuration)
    }

    /// The events `client` emits from now on.
    static func events(of client: AuthClient) -> Locked<[AuthEvent]> {
        let events = Locked<[AuthEvent]>([])
        client.addEventHandler { event in events.withLock { $0.append(event) } }
        return events
    }

    @Test("a pinned issuer presenting an unpinned key fails the SDK's request with pinningFailed and an event")
    func enforcedMismatchFailsTheRequest() async throws {
        let chains = try await CertificateChains.shared()
        let transport = RecordingTransport()
        let client = try Self.client(presenting: chains.otherChain, pin: chains.leaf.pin, transport: transport)
        let events = Self.events(of: client)
        await #expect(throws: LimenError.pinningFailed(host: "id.example.test")) {
            try await client.signInWithDeviceCode { _ in }
        }
        #expect(await transport.requests.isEmpty)
        let failures = events.withLock { $0 }.compactMap { event -> PinningFailure? in
            guard case .pinningFailed(let failure) = event else { return nil }
            return failure
        }
        #expect(failures.map(\.host) == ["id.example.test"])
        #expect(failures.first?.presentedPins.first?.base64 == chains.other.pin)
    }

    @Test(
        "a request goes on when the key matches after a renewal (no event) or when a mismatch is only reported (an event)",
        arguments: [(false, PinningMode.enforce), (true, .reportOnly)]
    )
    func requestGoesOn(mismatch: Bool, mode: PinningMode) async throws {
        let chains = try await CertificateChains.shared()
        let transport = RecordingTransport()
        let client = try Self.client(
            presenting: mismatch ? chains.otherChain : chains.rotatedChain, pin: chains.leaf.pin, mode: mode,
            transport: transport)
        let events = Self.events(of: client)
        let url = Self.issuer.appendingPathComponent("api")
        await transport.respond(to: url, with: HTTPResponse(status: 204))
        #expect(try await client.configuration.transport.send(HTTPRequest(url: url)).status == 204)
        #expect(await transport.requests.map(\.url) == [url])
        #expect(events.withLock { $0 }.map(\.isPinningFailure) == (mismatch ? [true] : []))
    }

    @Test("plain HTTP to a pinned host is refused: no chain is presented to check")
    func plainHTTPToPinnedHostRefused() async throws {
        let chains = try await CertificateChains.shared()
        let transport = RecordingTransport()
        let client = try Self.client(presenting: chains.leafChain, pin: chains.leaf.pin, transport: transport)
        await #expect(throws: NetworkError.pinningFailed(host: "id.example.test")) {
            try await client.configuration.transport.send(HTTPRequest(url: URL(string: "http://id.example.test/api")!))
        }
        #expect(await transport.requests.isEmpty)
    }

    @Test("a refused chain is not retried by the retrying transport")
    func refusalNotRetried() async throws {
        let chains = try await CertificateChains.shared()
        let recording = RecordingTransport()
        let retrying = RetryingTransport(
            base: PresentingTransport(base: recording, chain: chains.otherChain), clock: TestClock())
        let pinning = try CertificatePinning([PinnedHost("id.example.test", pins: [chains.leaf.pin, Self.backup])])
        let pinned = try #require(retrying.pinned(by: PinningEvaluator(pinning: pinning)))
        await #expect(throws: NetworkError.pinningFailed(host: "id.example.test")) {
            try await pinned.send(HTTPRequest(url: Self.issuer.appendingPathComponent("jwks")))
        }
    }

    @Test("the error maps to a stable code and NSError number")
    func errorCodes() {
        let error = LimenError(NetworkError.pinningFailed(host: "id.example.test"))
        #expect(error == .pinningFailed(host: "id.example.test"))
        #expect(error.code == "pinning_failed")
        #expect(error.nsError.code == 15)
        #expect(!error.isRetryable && !error.requiresReauthentication)
        #expect(error.errorDescription?.contains("id.example.test") == true)
        #expect(
            LimenError(NetworkError.pinningUnavailable(host: "id.example.test"))
                == .configuration(.pinningUnavailable(host: "id.example.test")))
    }

    #if canImport(FoundationNetworking)
        @Test("on Linux, URLSession cannot pin: requests to pinned hosts fail with a configuration error, others go")
        func linuxRefusesPinning() async throws {
            #expect(
                RetryingTransport(base: URLSessionTransport()).pinned(by: PinningEvaluator(pinning: .init())) == nil)
            try await TestHTTPServer.withServer(["GET /ok": { _ in HTTPResponse(status: 204) }]) { server in
                var configuration = Configuration(issuer: Self.issuer, clientID: "app", store: MemoryStore())
                configuration.pinning = try CertificatePinning([
                    PinnedHost("id.example.test", pins: [Self.backup, Data(count: 32).base64EncodedString()])
                ])
                let client = AuthClient(configuration: configuration)
                await #expect(throws: LimenError.configuration(.pinningUnavailable(host: "id.example.test"))) {
                    try await client.signInWithDeviceCode { _ in }
                }
                let unpinned = try await client.configuration.transport.send(HTTPRequest(url: server.url("ok")))
                #expect(unpinned.status == 204)
            }
        }
    #endif
}

/// Stands in for the TLS layer of a pinning transport (Apple's URLSession, or a NIO transport): it presents `chain`
/// for every host. Linux's URLSession shows no chain, so this part cannot run for real here; the evaluator it calls
/// and everything around it is the SDK's own.
struct PresentingTransport: PinnableTransport {
    let base: any HTTPTransport
    let chain: [Data]
    var evaluator: PinningEvaluator?

    init(base: any HTTPTransport, chain: [Data], evaluator: PinningEvaluator? = nil) {
        self.base = base
        self.chain = chain
        self.evaluator = evaluator
    }

    func send(_ request: HTTPRequest) async throws(NetworkError) -> HTTPResponse {
        if let evaluator, let host = request.url.host, let refusal = evaluator.check(host: host, chain: chain) {
            throw refusal
        }
        return try await base.send(request)
    }

    func pinned(by evaluator: PinningEvaluator) -> (any HTTPTransport)? {
        PresentingTransport(base: base, chain: chain, evaluator: evaluator)
    }
}

extension AuthEvent {
    fileprivate var isPinningFailure: Bool {
        if case .pinningFailed = self { return true }
        return false
    }
}
