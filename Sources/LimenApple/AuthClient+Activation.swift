#if canImport(UIKit) && (os(iOS) || os(visionOS))
    import Foundation
    import Limen
    import UIKit

    extension AuthClient {
        /// Calls ``AuthClient/resume()`` each time the app becomes active
        /// (`UIApplication.didBecomeActiveNotification`) or protected data becomes available after the device is
        /// unlocked (`UIApplication.protectedDataDidBecomeAvailableNotification`), so that a restore or a save the
        /// locked Keychain refused is retried without further help from the app.
        ///
        /// ```swift
        /// // Once, for example in the app delegate's application(_:didFinishLaunchingWithOptions:):
        /// resuming = client.resumeWhenActive()
        /// ```
        /// - Returns: The observation; it lasts until ``ActivationObservation/cancel()``.
        @MainActor
        public func resumeWhenActive() -> ActivationObservation {
            ActivationObservation(client: self)
        }
    }

    /// The notification observers that ``AuthClient/resumeWhenActive()`` registered.
    @MainActor
    public final class ActivationObservation {
        private var observers: [any NSObjectProtocol] = []

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

        /// Removes the observers; later activations no longer call `resume()`.
        public func cancel() {
            for observer in observers {
                NotificationCenter.default.removeObserver(observer)
            }
            observers = []
        }
    }
#endif
