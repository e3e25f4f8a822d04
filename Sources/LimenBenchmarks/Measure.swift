import Foundation

/// Timing helpers built on `ContinuousClock`.
enum Measure {
    static let clock = ContinuousClock()

    /// The median of `samples`.
    static func median(_ samples: [Duration]) -> Duration {
        let sorted = samples.sorted()
        return sorted[sorted.count / 2]
    }

    /// Runs `body` `batches × batchSize` times and returns the median time of one call, timing whole batches so the
    /// clock's own cost is spread over `batchSize` calls.
    nonisolated(nonsending) static func medianPerCall(
        batches: Int,
        batchSize: Int,
        _ body: nonisolated(nonsending) () async throws -> Void
    ) async rethrows -> Duration {
        var samples: [Duration] = []
        samples.reserveCapacity(batches)
        for _ in 0..<batches {
            let start = clock.now
            for _ in 0..<batchSize { try await body() }
            samples.append((clock.now - start) / batchSize)
        }
        return median(samples)
    }

    /// How many times `body` completes per second, running it for about `duration`.
    nonisolated(nonsending) static func throughput(
        for duration: Duration,
        _ body: nonisolated(nonsending) () async throws -> Void
    ) async rethrows -> Double {
        let start = clock.now
        var count = 0
        var elapsed = Duration.zero
        while elapsed < duration {
            for _ in 0..<16 { try await body() }
            count += 16
            elapsed = clock.now - start
        }
        return Double(count) / elapsed.seconds
    }
}

extension Duration {
    /// The duration in seconds, as a `Double`.
    var seconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) + Double(attoseconds) / 1e18
    }
}
