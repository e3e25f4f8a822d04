import Foundation
import Limen

/// Shows an authorization URL to the user, for ``LoopbackUserAgent``.
///
/// ```swift
/// let agent = try await LoopbackUserAgent.start(opener: .system)
/// let headless = try await LoopbackUserAgent.start(opener: .printing { print("Open this URL: \($0)") })
/// ```
public struct BrowserOpener: Sendable {
    private let body: @Sendable (URL) async throws -> Void

    /// Creates an opener from a closure; errors it throws become `UserAgentError.presentationFailed(_:)`
    /// (a thrown `UserAgentError` is passed through unchanged).
    public init(_ open: @escaping @Sendable (URL) async throws -> Void) {
        self.body = open
    }

    /// Shows `url`.
    /// - Throws: `UserAgentError.presentationFailed(_:)` when the page could not be shown.
    public func open(_ url: URL) async throws(UserAgentError) {
        do {
            try await body(url)
        } catch let error as UserAgentError {
            throw error
        } catch {
            throw .presentationFailed(String(describing: error))
        }
    }

    /// An opener that runs `open` (for tests that play the browser, or an embedding app's own presenter).
    ///
    /// ```swift
    /// let opener = BrowserOpener.custom { url in try await fakeBrowser.visit(url) }
    /// ```
    public static func custom(_ open: @escaping @Sendable (URL) async throws -> Void) -> BrowserOpener {
        BrowserOpener(open)
    }

    /// An opener that hands the URL, as one line without a trailing newline, to `write` and returns at once:
    /// the CLI's `--no-browser` mode, where the user opens it on any browser of this machine.
    ///
    /// ```swift
    /// let opener = BrowserOpener.printing { line in print(line) }
    /// ```
    public static func printing(to write: @escaping @Sendable (String) -> Void) -> BrowserOpener {
        BrowserOpener { url in write(url.absoluteString) }
    }

    /// The platform's default browser: `/usr/bin/open` on macOS, `xdg-open` on Linux.
    ///
    /// On other platforms it fails with `UserAgentError.presentationFailed(_:)`; use the LimenApple adapter on
    /// iOS, tvOS, watchOS and visionOS.
    public static var system: BrowserOpener {
        BrowserOpener { url in
            #if os(macOS)
                try await runOpener(executable: "/usr/bin/open", arguments: [url.absoluteString])
            #elseif os(Linux)
                try await runOpener(executable: "/usr/bin/env", arguments: ["xdg-open", url.absoluteString])
            #else
                throw UserAgentError.presentationFailed("no system browser opener on this platform")
            #endif
        }
    }
}

#if os(macOS) || os(Linux)
    /// Runs a launcher program and waits, without blocking a thread, for it to exit successfully.
    private func runOpener(executable: String, arguments: [String]) async throws(UserAgentError) {
        let name = (arguments.first == "xdg-open") ? "xdg-open" : executable
        let status: Int32
        do {
            status = try await withCheckedThrowingContinuation {
                (continuation: CheckedContinuation<Int32, any Error>) in
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                process.standardInput = FileHandle.nullDevice
                process.standardOutput = FileHandle.nullDevice
                process.standardError = FileHandle.nullDevice
                process.terminationHandler = { finished in continuation.resume(returning: finished.terminationStatus) }
                do {
                    try process.run()
                } catch {
                    // `run()` failed, so the termination handler is never called: resume exactly once here.
                    continuation.resume(throwing: error)
                }
            }
        } catch {
            throw .presentationFailed("\(name) could not be started: \(error.localizedDescription)")
        }
        guard status == 0 else {
            throw .presentationFailed("\(name) exited with status \(status)")
        }
    }
#endif
