#if canImport(UIKit) && !os(tvOS) && !os(watchOS)
    import Foundation
    import Limen
    import UIKit

    extension AuthClient {
        /// Calls ``AuthClient/resume()`` each time the app becomes active
        /// (`UIApplication.didBecomeActiveNotification`) or protected data becomes available after the device is
        /// unlocked (`UIApplication.protectedDataDidBecomeAvailableNotification`), so that a restore or a save the
        /// locked Keychain refused is retried without further help from the app.
        ///
        /// App extensions and widgets get neither notification: they call ``AuthClient/resume()`` themselves when
        /// they start work (a widget's timeline provider, a share extension's `viewDidLoad`).
        ///
        /// ```swift
        /// // Once, for example in the app delegate's application(_:didFinishLaunchingWithOptions:):
        /// self.resuming = client.resumeWhenActive()
        /// ```
        /// - Returns: The observation; it lasts until ``ActivationObservation/cancel()`` or until it is released, so
        ///   keep it.
        @MainActor
        public func resumeWhenActive() -> ActivationObservation {
            ActivationObservation(client: self)
        }
    }

    /// The notification observers that ``AuthClient/resumeWhenActive()`` registered; released, it removes them.
    @MainActor
    public final class ActivationObservation {
        /// `nonisolated(unsafe)` so that the nonisolated `deinit` may remove them: it is otherwise only touched on the
        /// main actor (`init`, `cancel()`), and `deinit` runs when no other reference to this object is left, so no
        /// access overlaps; removing an observer is thread-safe.
        private nonisolated(unsafe) var observers: [any NSObjectProtocol] = []

        init(client: AuthClient) {
            let names = [
                UIApplication.didBecomeActiveNotification, UIApplication.protectedDataDidBecomeAvailableNotification,
            ]
            observers = names.map { name in
                NotificationCenter.default.addObserver(forName: name, object: nil, queue: .main) { _ in
                    Task { await client.resume() }
                }
            }
        }

        deinit {
            Self.remove(observers)
        }

        /// Removes the observers; later activations no longer call `resume()`.
        public func cancel() {
            Self.remove(observers)
            observers = []
        }

        private nonisolated static func remove(_ observers: [any NSObjectProtocol]) {
            for observer in observers {
                NotificationCenter.default.removeObserver(observer)
            }
        }
    }
#endif
