// LIMEN_OPENCOMBINE: the Linux test target LimenCombineTests compiles this very file against OpenCombine.
#if canImport(Combine) || LIMEN_OPENCOMBINE
    #if canImport(Combine)
        import Combine
    #else
        import OpenCombine
    #endif
    import Foundation
    import Limen

    extension AuthClient {
        /// The current state, then every change, as a Combine publisher that never fails.
        ///
        /// Each subscriber gets its own bridge from ``AuthClient/stateUpdates()``; cancelling the subscription stops
        /// it. The current state arrives on subscription, on the subscribing thread; later changes arrive on the main
        /// thread.
        ///
        /// ```swift
        /// client.statePublisher()
        ///     .map(\.phase)
        ///     .sink { phase in statusLabel.text = phase.rawValue }
        ///     .store(in: &cancellables)
        /// ```
        public nonisolated func statePublisher() -> AnyPublisher<AuthState, Never> {
            Deferred { () -> Publishers.HandleEvents<CurrentValueSubject<AuthState, Never>> in
                let relay = StateRelay(initial: self.state)
                let updates = self.stateUpdates()
                let bridge = Task { @MainActor in
                    for await next in updates {
                        relay.send(next)
                    }
                    relay.finish()
                }
                return relay.subject.handleEvents(receiveCancel: { bridge.cancel() })
            }
            .removeDuplicates()
            .eraseToAnyPublisher()
        }

        /// The current value of one part of the state, then each time that part changes.
        ///
        /// Like ``statePublisher()``, with consecutive equal values removed, so a view bound to
        /// `\.auth.isAuthenticated` is not refreshed when only the access token changes.
        ///
        /// ```swift
        /// client.publisher(for: \.auth.isAuthenticated)
        ///     .sink { signedIn in signInButton.isHidden = signedIn }
        ///     .store(in: &cancellables)
        /// ```
        public nonisolated func publisher<Value: Equatable>(
            for keyPath: KeyPath<AuthState, Value>
        ) -> AnyPublisher<Value, Never> {
            statePublisher()
                .map(keyPath)
                .removeDuplicates()
                .eraseToAnyPublisher()
        }
    }

    /// Owns the subject that one ``AuthClient/statePublisher()`` subscription reads from.
    ///
    /// `@unchecked Sendable` is sound: `subject` is a constant, only the one bridging task calls ``send(_:)`` and
    /// ``finish()`` (so sends never overlap each other), and Combine's subjects serialize a send against a subscriber
    /// attaching or cancelling with their own lock.
    private final class StateRelay: @unchecked Sendable {
        let subject: CurrentValueSubject<AuthState, Never>

        init(initial: AuthState) {
            subject = CurrentValueSubject(initial)
        }

        func send(_ state: AuthState) {
            subject.send(state)
        }

        func finish() {
            subject.send(completion: .finished)
        }
    }
#endif
