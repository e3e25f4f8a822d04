import Foundation
import LimenTestSupport
import Testing

@testable import Limen

/// The state machine of LimenApple's sheets (web session, Sign in with Apple), driven as the system would drive it.
@Suite("A sheet's attempt resumes its task exactly once", .timeLimit(.minutes(1)))
@MainActor
struct PresentationAttemptTests {
    /// A sheet object kept alive by the attempt; counts its dismissals.
    final class Sheet {
        var dismissals = 0
    }

    @Test("a completion after another completion is ignored: the first result wins")
    func resumesOnce() async {
        let result = await PresentationAttempt<Int>.run { attempt in
            attempt.finish(.success(1))
            attempt.finish(.success(2))
            attempt.cancel()
        }
        #expect(result == .success(1))
    }

    @Test("a completion that comes later, from another task, is delivered")
    func laterCompletion() async {
        let result = await PresentationAttempt<String>.run { attempt in
            let sheet = Sheet()
            let attached = attempt.attach(keeping: [sheet], cancel: { sheet.dismissals += 1 })
            #expect(attached)
            Task { @MainActor in attempt.finish(.success("redirect")) }
        }
        #expect(result == .success("redirect"))
    }

    @Test("a task cancelled before the sheet is made never starts it")
    func cancelledBeforeBegin() async {
        let started = Locked(false)
        let task = Task { @MainActor in
            withUnsafeCurrentTask { $0?.cancel() }
            return await PresentationAttempt<Int>.run { _ in started.withLock { $0 = true } }
        }
        #expect(await task.value == .failure(.cancelled))
        #expect(!started.withLock { $0 })
    }

    @Test("an attempt cancelled before its sheet is attached refuses the sheet, which is then never started")
    func cancelBeforeAttach() {
        let attempt = PresentationAttempt<Int>()
        attempt.cancel()
        let sheet = Sheet()
        let attached = attempt.attach(keeping: [sheet], cancel: { sheet.dismissals += 1 })
        #expect(!attached)
        #expect(sheet.dismissals == 0)
    }

    @Test("cancelling the awaiting task dismisses the sheet once and ends with cancelled")
    func cancelDismisses() async {
        let sheet = Sheet()
        let attached = Gate()
        let task = Task { @MainActor in
            await PresentationAttempt<Int>.run { attempt in
                _ = attempt.attach(keeping: [sheet], cancel: { sheet.dismissals += 1 })
                Task { await attached.open() }
            }
        }
        await attached.wait()
        task.cancel()
        #expect(await task.value == .failure(.cancelled))
        // The system's completion after the dismissal arrives too late to count.
        #expect(sheet.dismissals == 1)
    }

    @Test("a sheet that fails to start finishes the attempt before the task even waits")
    func finishedBeforeWaiting() async {
        let result = await PresentationAttempt<Int>.run { attempt in
            attempt.finish(.failure(.presentationFailed("refused to start")))
        }
        #expect(result == .failure(.presentationFailed("refused to start")))
    }
}
