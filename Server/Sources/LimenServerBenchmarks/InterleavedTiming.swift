/// Times two checks side by side: rounds of a batch of the first then a batch of the second, alternating until the
/// time is up, so that a machine's changing load falls on both alike.
struct InterleavedTiming {
    /// The median time of one call of each check, in nanoseconds.
    struct Result {
        /// The first check's median per call.
        var first: Double
        /// The second check's median per call.
        var second: Double
        /// How many rounds ran.
        var rounds: Int
    }

    /// Calls per batch: enough that the clock's own cost is spread thin.
    var batchSize = 200
    /// How long to keep alternating.
    var duration: Duration

    /// Runs `first` and `second` in alternating batches; either returning `false` is a broken benchmark.
    func run(_ first: () throws -> Bool, _ second: () throws -> Bool) throws -> Result {
        let clock = ContinuousClock()
        let end = clock.now + duration
        var (firstSamples, secondSamples): ([Double], [Double]) = ([], [])
        while clock.now < end || firstSamples.isEmpty {
            firstSamples.append(try perCall(first, clock: clock))
            secondSamples.append(try perCall(second, clock: clock))
        }
        return Result(
            first: Self.median(firstSamples), second: Self.median(secondSamples), rounds: firstSamples.count)
    }

    /// Nanoseconds per call of one batch of `check`.
    private func perCall(_ check: () throws -> Bool, clock: ContinuousClock) throws -> Double {
        let start = clock.now
        for _ in 0..<batchSize {
            guard try check() else { throw BenchmarkFailure.checkRefused }
        }
        let (seconds, attoseconds) = (clock.now - start).components
        return (Double(seconds) * 1e9 + Double(attoseconds) / 1e9) / Double(batchSize)
    }

    private static func median(_ samples: [Double]) -> Double {
        samples.sorted()[samples.count / 2]
    }
}

/// Why a benchmark run stopped.
enum BenchmarkFailure: Error {
    /// A check refused the fixture's valid assertion: the timing would measure a failure path.
    case checkRefused
}
