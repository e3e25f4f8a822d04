import Foundation
import Limen
import LimenTestSupport
import TestSupport
import Testing

@testable import LimenLoopback

/// RFC 8252 §7.3 (loopback interface redirection) and §8.3 (loopback redirect considerations), played end to end:
/// a custom opener stands in for the system browser and talks HTTP to the real listener.
@Suite("LoopbackUserAgent", .timeLimit(.minutes(1)))
struct LoopbackUserAgentTests {
    /// Starts an agent whose browser reads the redirect URI from the authorization URL and runs `visit` with it,
    /// recording every page it receives.
    private func agent(
        timeout: Duration = .seconds(30),
        clock: any Clock<Duration> = ContinuousClock(),
        visit: @escaping @Sendable (_ redirectURI: URL, _ pages: PageLog) async throws -> Void
    ) async throws -> (LoopbackUserAgent, PageLog) {
        let pages = PageLog()
        let agent = try await LoopbackUserAgent.start(
            port: nil,
            path: "/callback",
            opener: .custom { url in try await visit(TestBrowser.redirectURI(in: url), pages) },
            timeout: timeout,
            clock: clock)
        return (agent, pages)
    }

    /// Runs `body` with a started agent that opens nothing, and stops the agent however `body` ends.
    private func withAgent(
        port: UInt16? = nil,
        path: String = "/callback",
        _ body: (LoopbackUserAgent) async throws -> Void
    ) async throws {
        try await withStopping(
            try await LoopbackUserAgent.start(port: port, path: path, opener: .custom { _ in }),
            stop: { await $0.stop() },
            body)
    }

    private func authorize(_ agent: LoopbackUserAgent) async throws(UserAgentError) -> URL {
        try await agent.authorize(
            url: TestBrowser.authorizationURL(redirectURI: agent.redirectURI),
            callback: CallbackMatcher(redirectURI: agent.redirectURI))
    }

    @Test("a callback with code and state is returned, and the browser gets a no-store page under a strict CSP")
    func codeCallback() async throws {
        let (agent, pages) = try await agent { redirectURI, pages in
            await pages.append(
                try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=c0de&state=st-123")))
        }
        let result = try await authorize(agent)

        #expect(result.absoluteString == agent.redirectURI.absoluteString + "?code=c0de&state=st-123")
        let page = try #require(await pages.pages.first)
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Cache-Control") == "no-store")
        #expect(page.header("Referrer-Policy") == "no-referrer")
        #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none'") == true)
        #expect(page.body.contains("You can close this window and return to the app."))
        #expect(!page.body.contains("c0de") && !page.body.contains("st-123"))
    }

    @Test("a request to another path gets 404 and the listener keeps waiting for the callback")
    func otherPathIsNotFound() async throws {
        let (agent, pages) = try await agent { redirectURI, pages in
            let favicon = try #require(URL(string: "/favicon.ico", relativeTo: redirectURI)?.absoluteURL)
            await pages.append(try await TestBrowser.load(favicon))
            await pages.append(try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=c&state=s")))
        }
        let result = try await authorize(agent)

        #expect(result.query == "code=c&state=s")
        #expect(await pages.pages.map(\.status) == [404, 200])
    }

    @Test("an error callback is returned to the caller to decide, and the page says sign-in failed")
    func errorCallback() async throws {
        let (agent, pages) = try await agent { redirectURI, pages in
            let url = try TestBrowser.callback(
                redirectURI, query: "error=access_denied&error_description=%3Cb%3Eno%3C%2Fb%3E&state=st-123")
            await pages.append(try await TestBrowser.load(url))
        }
        let result = try await authorize(agent)

        #expect(result.query == "error=access_denied&error_description=%3Cb%3Eno%3C%2Fb%3E&state=st-123")
        let page = try #require(await pages.pages.first)
        #expect(page.status == 200)
        #expect(page.body.contains("Sign-in failed"))
        #expect(!page.body.contains("access_denied") && !page.body.contains("<b>no"))
        #expect(page.header("Cache-Control") == "no-store")
    }

    @Test("the callback path without code or error (or without state) gets 400 and the listener keeps waiting")
    func malformedCallback() async throws {
        let (agent, pages) = try await agent { redirectURI, pages in
            await pages.append(try await TestBrowser.load(redirectURI))
            await pages.append(try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "foo=bar")))
            await pages.append(try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=c")))
            await pages.append(try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=c&state=s")))
        }
        let result = try await authorize(agent)

        #expect(result.query == "code=c&state=s")
        #expect(await pages.pages.map(\.status) == [400, 400, 400, 200])
    }

    @Test("a second callback after the first one gets 410 and does not replace the first")
    func secondCallbackIsGone() async throws {
        let (agent, pages) = try await agent { redirectURI, pages in
            await pages.append(try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=one&state=s")))
            await pages.append(try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=two&state=s")))
        }
        let result = try await authorize(agent)

        #expect(result.query == "code=one&state=s")
        let statuses = await pages.pages.map(\.status)
        #expect(statuses == [200, 410])
        #expect(await pages.pages.last?.body.contains("already handled") == true)
    }

    @Test("a POST to the callback path gets 405 with Allow: GET")
    func postIsRefused() async throws {
        let (agent, pages) = try await agent { redirectURI, pages in
            await pages.append(
                try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=c&state=s"), method: "POST"))
            await pages.append(try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=c&state=s")))
        }
        _ = try await authorize(agent)

        #expect(await pages.pages.map(\.status) == [405, 200])
        #expect(await pages.pages.first?.header("Allow") == "GET")
    }

    @Test("no callback within the timeout ends with timedOut and closes the port")
    func timesOut() async throws {
        // The test clock's sleep returns at once: the timeout passes without a real wait.
        let clock = TestClock()
        let (agent, _) = try await agent(timeout: .seconds(300), clock: clock) { _, _ in }

        await #expect(throws: UserAgentError.timedOut) { try await authorize(agent) }
        #expect(clock.recorded == [.seconds(300)])
        #expect(TestBrowser.portReleased(agent.redirectURI))
    }

    @Test("cancelling the waiting task ends it with cancelled, not by the timeout, and closes the port")
    func cancellation() async throws {
        let (opened, openedSink) = AsyncStream.makeStream(of: Void.self)
        // A timeout that never comes: its sleep only ends when cancelled, so only the cancellation can end the wait.
        let (never, neverSink) = AsyncStream.makeStream(of: Void.self)
        let clock = TestClock { _ in
            for await _ in never {}
        }
        let agent = try await LoopbackUserAgent.start(
            port: nil, path: "/callback", opener: .custom { _ in openedSink.yield() }, timeout: .seconds(300),
            clock: clock)
        let task = Task { try await authorize(agent) }
        var iterator = opened.makeAsyncIterator()
        await iterator.next()
        task.cancel()

        let result = await task.result
        #expect(throws: UserAgentError.cancelled) { try result.get() }
        #expect(TestBrowser.portReleased(agent.redirectURI))
        neverSink.finish()
    }

    @Test("stop() ends a pending authorize with cancelled, and calling it again does nothing")
    func explicitStop() async throws {
        let (opened, openedSink) = AsyncStream.makeStream(of: Void.self)
        let agent = try await LoopbackUserAgent.start(opener: .custom { _ in openedSink.yield() })
        let task = Task { try await authorize(agent) }
        var iterator = opened.makeAsyncIterator()
        await iterator.next()
        await agent.stop()
        await agent.stop()

        let result = await task.result
        #expect(throws: UserAgentError.cancelled) { try result.get() }
        #expect(TestBrowser.portReleased(agent.redirectURI))
    }

    @Test("an explicit port that is already bound fails with listenerFailed")
    func portInUse() async throws {
        try await TestHTTPServer.withServer([:]) { occupant in
            let port = try #require(occupant.baseURL.port.flatMap { UInt16(exactly: $0) })
            await #expect {
                _ = try await LoopbackUserAgent.start(port: port, opener: .custom { _ in })
            } throws: { error in
                guard case .listenerFailed? = error as? UserAgentError else { return false }
                return true
            }
        }

        try await withAgent { first in
            await #expect {
                _ = try await LoopbackUserAgent.start(port: first.port, opener: .custom { _ in })
            } throws: { error in
                guard case .listenerFailed? = error as? UserAgentError else { return false }
                return true
            }
        }
    }

    @Test("an explicit free port is used as given")
    func explicitPort() async throws {
        let port = try #require(UInt16(exactly: try FreePort.find()))

        try await withAgent(port: port, path: "/oauth/done") { agent in
            #expect(agent.redirectURI.absoluteString == "http://127.0.0.1:\(port)/oauth/done")
        }
    }

    @Test("after a successful sign-in a new connection to the port is refused")
    func portClosedAfterSuccess() async throws {
        let (agent, _) = try await agent { redirectURI, _ in
            _ = try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=c&state=s"))
        }
        _ = try await authorize(agent)

        #expect(TestBrowser.portReleased(agent.redirectURI))
    }

    @Test("the listener is bound to 127.0.0.1 on the real port the redirect URI names")
    func boundToLoopback() async throws {
        try await withAgent { agent in
            #expect(agent.redirectURI.scheme == "http")
            #expect(agent.redirectURI.host == "127.0.0.1")
            #expect(agent.redirectURI.path == "/callback")
            #expect(agent.port != 0)
            #expect(agent.redirectURI.port == Int(agent.port))

            let favicon = try #require(URL(string: "http://127.0.0.1:\(agent.port)/favicon.ico"))
            #expect(try await TestBrowser.load(favicon).status == 404)
            #if os(Linux)
                // All of 127.0.0.0/8 reaches the loopback interface on Linux: a wildcard bind would answer here.
                let otherLoopback = try #require(URL(string: "http://127.0.0.2:\(agent.port)/favicon.ico"))
                #expect(TestBrowser.connectionRefused(otherLoopback))
            #endif
        }
    }

    @Test("a printing opener receives exactly the authorization URL, once")
    func printingOpener() async throws {
        let (lines, linesSink) = AsyncStream.makeStream(of: String.self)
        let agent = try await LoopbackUserAgent.start(opener: .printing { linesSink.yield($0) })
        let authorizationURL = TestBrowser.authorizationURL(redirectURI: agent.redirectURI)
        let task = Task {
            try await agent.authorize(url: authorizationURL, callback: CallbackMatcher(redirectURI: agent.redirectURI))
        }

        var iterator = lines.makeAsyncIterator()
        let line = try #require(await iterator.next())
        #expect(line == authorizationURL.absoluteString)
        // The user pastes the line into a browser; the provider redirects back.
        let redirectURI = try TestBrowser.redirectURI(in: try #require(URL(string: line)))
        #expect(try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=c&state=s")).status == 200)
        #expect(try await task.value.query == "code=c&state=s")
        linesSink.finish()
        #expect(await iterator.next() == nil)
    }

    @Test("an opener that fails ends with presentationFailed and closes the port")
    func openerFailure() async throws {
        struct NoBrowser: Error {}
        let agent = try await LoopbackUserAgent.start(opener: .custom { _ in throw NoBrowser() })

        await #expect {
            _ = try await authorize(agent)
        } throws: { error in
            guard case .presentationFailed? = error as? UserAgentError else { return false }
            return true
        }
        #expect(TestBrowser.portReleased(agent.redirectURI))
    }

    @Test("one agent serves one sign-in; a second authorize fails with listenerFailed")
    func singleUse() async throws {
        let (agent, _) = try await agent { redirectURI, _ in
            _ = try await TestBrowser.load(TestBrowser.callback(redirectURI, query: "code=c&state=s"))
        }
        _ = try await authorize(agent)

        await #expect {
            _ = try await authorize(agent)
        } throws: { error in
            guard case .listenerFailed? = error as? UserAgentError else { return false }
            return true
        }
    }

    @Test("authorize after stop() fails with listenerFailed without opening the browser")
    func authorizeAfterStop() async throws {
        let agent = try await LoopbackUserAgent.start(opener: .custom { _ in Issue.record("opened") })
        await agent.stop()

        await #expect {
            _ = try await authorize(agent)
        } throws: { error in
            guard case .listenerFailed? = error as? UserAgentError else { return false }
            return true
        }
    }

    @Test("a callback matcher for another redirect URI is refused")
    func mismatchedMatcher() async throws {
        let agent = try await LoopbackUserAgent.start(opener: .custom { _ in Issue.record("opened") })
        let other = try #require(URL(string: "http://127.0.0.1:1/elsewhere"))

        await #expect {
            _ = try await agent.authorize(url: other, callback: CallbackMatcher(redirectURI: other))
        } throws: { error in
            guard case .listenerFailed? = error as? UserAgentError else { return false }
            return true
        }
    }

    @Test("a callback path that is not a plain absolute path is refused", arguments: ["callback", "/cb?x=1", "/a b"])
    func invalidPath(path: String) async throws {
        await #expect {
            _ = try await LoopbackUserAgent.start(path: path, opener: .custom { _ in })
        } throws: { error in
            guard case .listenerFailed? = error as? UserAgentError else { return false }
            return true
        }
    }
}
