import Foundation

/// Waits, in real time, until the wall-clock second of `date` is over.
///
/// The one real-time wait the tests keep: a `limen-server` process runs on the system's clock, which a test cannot
/// inject, and stores times in whole seconds, so a test that needs "a later second" on its side (a retry past a grace
/// window of 0 s) must let that second pass. Anything running in the test's own process takes an injected clock
/// (``TestNow``, ``TestClock``) instead.
///
/// Part of LimenTestSupport, Limen's own test support; not a stable API.
public func waitForTheSecondToPass(after date: Date = Date()) async throws {
    let nextSecond = date.timeIntervalSince1970.rounded(.down) + 1
    try await Task.sleep(for: .seconds(max(0, nextSecond - Date().timeIntervalSince1970)))
}
