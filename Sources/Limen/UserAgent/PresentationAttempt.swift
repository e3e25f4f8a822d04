/// One presentation of a system sheet (`ASWebAuthenticationSession`, Apple's Sign in with Apple sheet) awaited by a
/// task: resumes that task exactly once, whichever of the sheet's completion, a failure to start, or the task's
/// cancellation comes first, keeps the sheet's objects alive until then, and dismisses the sheet when the task is
/// cancelled.
///
/// The Apple adapters in `LimenApple` keep only the framework calls; this state machine is tested on Linux.
///
/// ```swift
/// let result = await PresentationAttempt<URL>.run { attempt in
///     let session = makeSession { url, error in Task { @MainActor in attempt.finish(outcome(url, error)) } }
///     guard attempt.attach(keeping: [session, context], cancel: { session.cancel() }) else { return }
///     if !session.start() { attempt.finish(.failure(.presentationFailed("refused to start"))) }
/// }
/// ```
@MainActor
package final class PresentationAttempt<Value: Sendable> {
    private var continuation: CheckedContinuation<Result<Value, UserAgentError>, Never>?
    private var pending: Result<Value, UserAgentError>?
    private var retained: [AnyObject] = []
    private var cancelSheet: (@MainActor () -> Void)?
    private var isFinished = false

    /// A new attempt; ``run(_:)`` makes and drives one.
    package init() {}

    /// Runs one attempt: `start` shows the sheet (and arranges for ``finish(_:)``), and the result is returned once.
    /// A task already cancelled never calls `start`; a task cancelled meanwhile ends with ``UserAgentError/cancelled``
    /// and dismisses the sheet through the `cancel` given to ``attach(keeping:cancel:)``.
    package static func run(
        _ start: @MainActor (PresentationAttempt<Value>) -> Void
    ) async -> Result<Value, UserAgentError> {
        if Task.isCancelled { return .failure(.cancelled) }
        let attempt = PresentationAttempt<Value>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                attempt.begin(continuation)
                start(attempt)
            }
        } onCancel: {
            Task { @MainActor in attempt.cancel() }
        }
    }

    /// Installs the continuation; resumes it at once if the attempt already finished.
    package func begin(_ continuation: CheckedContinuation<Result<Value, UserAgentError>, Never>) {
        if let pending {
            self.pending = nil
            continuation.resume(returning: pending)
        } else {
            self.continuation = continuation
        }
    }

    /// Keeps `objects` (the sheet, its weakly held delegates) alive until the attempt ends, and remembers how to
    /// dismiss the sheet; `false` when the attempt already ended (cancelled before the sheet was made), and then the
    /// sheet must not be started.
    package func attach(keeping objects: [AnyObject], cancel: @escaping @MainActor () -> Void) -> Bool {
        guard !isFinished else { return false }
        retained = objects
        cancelSheet = cancel
        return true
    }

    /// Ends the attempt with `result`; later calls are ignored.
    package func finish(_ result: Result<Value, UserAgentError>) {
        guard !isFinished else { return }
        isFinished = true
        retained = []
        cancelSheet = nil
        if let continuation {
            self.continuation = nil
            continuation.resume(returning: result)
        } else {
            pending = result
        }
    }

    /// Ends the attempt as ``UserAgentError/cancelled`` and dismisses the sheet, if one was attached.
    package func cancel() {
        let dismiss = cancelSheet
        finish(.failure(.cancelled))
        dismiss?()
    }
}
