import FlyingFox
import FlyingSocks
import Foundation
import Limen
import Logging

/// A `UserAgent` for native apps on a desktop: the system browser plus a one-shot HTTP listener on the IPv4
/// loopback interface (RFC 8252 §7.3 loopback interface redirection, §8.3 loopback redirect considerations).
///
/// The listener binds `127.0.0.1` only — never `0.0.0.0`, never `localhost` — on the chosen port or, by default, a
/// random one, and accepts exactly one callback. It stops in every outcome of ``authorize(url:callback:)``, so the
/// port is closed again when the call returns. One instance serves one sign-in.
///
/// ```swift
/// let agent = try await LoopbackUserAgent.start()
/// let request = AuthorizationRequest(clientID: "my-tool", redirectURI: agent.redirectURI, scopes: ["email"])
/// let callbackURL = try await agent.authorize(
///     url: request.url(authorizationEndpoint: metadata.authorizationEndpoint),
///     callback: CallbackMatcher(redirectURI: agent.redirectURI))
/// ```
public final class LoopbackUserAgent: UserAgent {
    /// `http://127.0.0.1:<port><path>`: the redirect URI to send in the authorization request.
    public let redirectURI: URL
    /// The port the listener is bound to (the real one when the port was chosen at random).
    public let port: UInt16
    private let listener: LoopbackListener
    private let opener: BrowserOpener
    private let timeout: Duration
    private let clock: any Clock<Duration>

    private init(
        listener: LoopbackListener, port: UInt16, redirectURI: URL, opener: BrowserOpener, timeout: Duration,
        clock: any Clock<Duration>
    ) {
        self.listener = listener
        self.port = port
        self.redirectURI = redirectURI
        self.opener = opener
        self.timeout = timeout
        self.clock = clock
    }

    deinit {
        // Dropped without a sign-in: close the port anyway.
        Task { [listener] in await listener.stop() }
    }

    /// Binds a listener on `127.0.0.1` and returns the user agent that serves one sign-in through it.
    ///
    /// - Parameters:
    ///   - port: The port to bind; `nil` (or 0) picks a free one, which RFC 8252 §7.3 recommends.
    ///   - path: The callback path, starting with `/`.
    ///   - opener: How the authorization URL is shown.
    ///   - timeout: How long ``authorize(url:callback:)`` waits for the callback once the URL is opened.
    /// - Throws: `UserAgentError.listenerFailed(_:)` when the port is taken or the path is not usable.
    public static func start(
        port: UInt16? = nil,
        path: String = "/callback",
        opener: BrowserOpener = .system,
        timeout: Duration = .seconds(300)
    ) async throws(UserAgentError) -> LoopbackUserAgent {
        try await start(port: port, path: path, opener: opener, timeout: timeout, clock: ContinuousClock())
    }

    /// ``start(port:path:opener:timeout:)`` with the clock that measures the timeout injected.
    static func start(
        port: UInt16?,
        path: String,
        opener: BrowserOpener,
        timeout: Duration,
        clock: any Clock<Duration>
    ) async throws(UserAgentError) -> LoopbackUserAgent {
        guard path.hasPrefix("/"), path.unicodeScalars.allSatisfy(Self.pathCharacters.contains) else {
            throw .listenerFailed("the callback path must be a plain absolute path such as /callback")
        }
        let (listener, boundPort) = try await LoopbackListener.bind(port: port ?? 0, path: path)
        guard let redirectURI = URL(string: "http://127.0.0.1:\(boundPort)\(path)") else {
            await listener.stop()
            throw .listenerFailed("no redirect URI for port \(boundPort)")
        }
        return LoopbackUserAgent(
            listener: listener, port: boundPort, redirectURI: redirectURI, opener: opener, timeout: timeout,
            clock: clock)
    }

    /// Opens `url` with the opener, waits for the one callback, and returns it: ``redirectURI`` with the query
    /// the browser brought (an OAuth `error` response is returned too; the caller parses and decides).
    ///
    /// The timeout counts from the moment the opener returns. The listener is stopped before this returns or
    /// throws, whatever the outcome.
    /// - Throws: `UserAgentError.timedOut`, `UserAgentError.cancelled` (task cancelled, or ``stop()`` called),
    ///   `UserAgentError.presentationFailed(_:)` from the opener, `UserAgentError.listenerFailed(_:)` when
    ///   `callback` expects another redirect URI, or this agent already served a sign-in or was stopped.
    public func authorize(url: URL, callback: CallbackMatcher) async throws(UserAgentError) -> URL {
        guard callback.matches(redirectURI) else {
            await listener.stop()
            throw .listenerFailed("the callback matcher does not expect this listener's redirect URI")
        }
        guard await listener.claim() else {
            throw .listenerFailed("this loopback listener already served a sign-in or was stopped")
        }
        let outcome = await waitForCallback(opening: url)
        await listener.stop()
        return try outcome.get()
    }

    /// Stops the listener and closes the port; a pending ``authorize(url:callback:)`` ends with
    /// `UserAgentError.cancelled`. Calling it again does nothing.
    public func stop() async {
        await listener.stop()
    }

    /// RFC 3986 unreserved characters and `/`: a path that needs no percent-encoding and reads the same on the
    /// wire as in the redirect URI.
    private static let pathCharacters = CharacterSet(
        charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~/")

    private enum WaitOutcome: Sendable {
        case callback(URL)
        case timedOut
        case ended
    }

    private func waitForCallback(opening url: URL) async -> Result<URL, UserAgentError> {
        if Task.isCancelled { return .failure(.cancelled) }
        do {
            try await opener.open(url)
        } catch {
            return .failure(Task.isCancelled ? .cancelled : error)
        }
        if Task.isCancelled { return .failure(.cancelled) }

        let callbacks = listener.callbacks
        let clock = clock
        let timeout = timeout
        let outcome = await withTaskGroup(of: WaitOutcome.self) { group in
            group.addTask {
                for await callbackURL in callbacks { return .callback(callbackURL) }
                return .ended
            }
            group.addTask {
                do {
                    try await clock.sleep(for: timeout)
                    return .timedOut
                } catch {
                    return .ended
                }
            }
            let first = await group.next() ?? .ended
            group.cancelAll()
            return first
        }
        switch outcome {
        case .callback(let callbackURL): return .success(callbackURL)
        case .timedOut: return .failure(.timedOut)
        case .ended: return .failure(.cancelled)
        }
    }
}

/// The HTTP listener behind a ``LoopbackUserAgent``: routes requests, lets exactly one callback through to the
/// waiting sign-in, and stops once.
actor LoopbackListener {
    private static let logger = Logger(label: "limen.loopback")
    /// Seconds a stop after an accepted callback waits for in-flight responses (the callback page) to be written
    /// before cutting connections. FlyingFox's accept loop only ends when cancelled, so the whole grace is spent;
    /// without an accepted callback there is no page worth waiting for and the stop is immediate.
    private static let stopGrace: TimeInterval = 0.5

    /// The accepted callback URL, delivered once, then finished; finished without a value on ``stop()``.
    nonisolated let callbacks: AsyncStream<URL>
    private let sink: AsyncStream<URL>.Continuation
    private let server: HTTPServer
    private let path: String
    private var baseURL = ""
    private var runTask: Task<Void, Never>?
    private var stopTask: Task<Void, Never>?
    private var accepted = false
    private var claimed = false

    private init(server: HTTPServer, path: String) {
        self.server = server
        self.path = path
        (callbacks, sink) = AsyncStream.makeStream(of: URL.self, bufferingPolicy: .bufferingOldest(1))
    }

    private enum StartupEvent: Sendable {
        case listening
        case failed(String)
    }

    /// Binds `127.0.0.1:port` and starts serving; returns the listener and the port it is bound to.
    static func bind(port: UInt16, path: String) async throws(UserAgentError) -> (LoopbackListener, UInt16) {
        let address: sockaddr_in
        do {
            address = try .inet(ip4: "127.0.0.1", port: port)
        } catch {
            throw .listenerFailed("127.0.0.1 is not a usable address: \(error.localizedDescription)")
        }
        let server = HTTPServer(address: address, timeout: 10, logger: .disabled)
        let listener = LoopbackListener(server: server, path: path)
        // Weak: the server outlives the listener only until the listener's stop, which `deinit` of the agent
        // schedules; a request arriving in between gets a 404.
        await server.appendRoute("*") { [weak listener] request in
            guard let listener else { return LoopbackCallbackPage.notFound.response }
            return await listener.route(request)
        }

        let (events, eventSink) = AsyncStream.makeStream(of: StartupEvent.self, bufferingPolicy: .bufferingOldest(1))
        let runTask = Task {
            do {
                try await server.run()
                eventSink.yield(.failed("the server ended before listening"))
            } catch {
                eventSink.yield(.failed(error.localizedDescription))
            }
        }
        let waitTask = Task {
            do {
                try await server.waitUntilListening(timeout: 10)
                eventSink.yield(.listening)
            } catch {
                eventSink.yield(.failed("the server did not start listening"))
            }
        }
        var iterator = events.makeAsyncIterator()
        let event = await iterator.next()
        waitTask.cancel()
        eventSink.finish()
        await listener.adopt(runTask)

        guard case .listening? = event, case .ip4(let host, let boundPort)? = await server.listeningAddress,
            host == "127.0.0.1"
        else {
            await listener.stop()
            if case .failed(let reason)? = event {
                throw .listenerFailed("cannot listen on 127.0.0.1:\(port): \(reason)")
            }
            throw .listenerFailed("cannot listen on 127.0.0.1:\(port)")
        }
        CloseOnExec.markSockets(boundTo: boundPort)
        await listener.setBaseURL("http://127.0.0.1:\(boundPort)")
        logger.debug("loopback listener started", metadata: ["port": "\(boundPort)"])
        return (listener, boundPort)
    }

    private func adopt(_ task: Task<Void, Never>) { runTask = task }

    private func setBaseURL(_ value: String) { baseURL = value }

    /// Marks the listener as serving a sign-in; false when one was already started or the listener is stopped.
    func claim() -> Bool {
        guard !claimed, stopTask == nil else { return false }
        claimed = true
        return true
    }

    /// Answers one request; hands the first well-formed callback to ``callbacks``.
    func route(_ request: FlyingFox.HTTPRequest) -> FlyingFox.HTTPResponse {
        let page = page(for: request)
        Self.logger.debug(
            "loopback request answered",
            metadata: ["method": "\(request.method.rawValue)", "status": "\(page.status.code)"])
        return page.response
    }

    private func page(for request: FlyingFox.HTTPRequest) -> LoopbackCallbackPage {
        guard request.path == path else { return .notFound }
        guard request.method == .GET else { return .methodNotAllowed }
        let names = Set(request.query.map(\.name))
        let isError = names.contains("error")
        guard isError || names.contains("code"), names.contains("state") else { return .malformed }
        guard !accepted, stopTask == nil else { return .alreadyHandled }
        guard let callbackURL = URL(string: baseURL + path + "?" + request.target.query()) else {
            return .malformed
        }
        accepted = true
        sink.yield(callbackURL)
        sink.finish()
        // Values of code, state and error are never logged.
        Self.logger.debug("loopback callback accepted", metadata: ["error_response": "\(isError)"])
        return isError ? .failed : .succeeded
    }

    /// Closes the listening socket at once, lets in-flight responses finish (up to a short grace), and ends a
    /// pending wait. Every caller, first or repeated, returns only once the listener is stopped.
    func stop() async {
        if stopTask == nil {
            sink.finish()
            let server = server
            let runTask = runTask
            let grace = accepted ? Self.stopGrace : 0
            // An unstructured task: a cancelled caller must not cut the shutdown short.
            stopTask = Task {
                await server.stop(timeout: grace)
                runTask?.cancel()
                Self.logger.debug("loopback listener stopped")
            }
        }
        await stopTask?.value
    }
}
