import ServiceLifecycle

/// The loop of a background service: a job every `interval`, until the task is cancelled or the service group
/// shuts down gracefully.
package enum PeriodicTask {
    /// Runs `job` every `interval` on `clock`; with `immediately`, once before the first wait.
    package static func run(
        every interval: Duration,
        on clock: any Clock<Duration>,
        immediately: Bool,
        _ job: () async -> Void
    ) async {
        if immediately { await job() }
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await clock.sleep(for: interval) }
            } catch {
                return  // cancelled or shutting down
            }
            await job()
        }
    }
}
