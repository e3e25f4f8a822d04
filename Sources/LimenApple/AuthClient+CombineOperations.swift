#if canImport(Combine)
    import Combine
    import Foundation
    import Limen

    extension AuthClient {
        /// Every ``AuthEvent`` from subscription on, as a Combine publisher (``AuthClient/addEventHandler(_:)`` under
        /// it, removed when the subscription is cancelled).
        ///
        /// ```swift
        /// client.eventPublisher()
        ///     .sink { event in analytics.log(event) }
        ///     .store(in: &cancellables)
        /// ```
        public nonisolated func eventPublisher() -> AnyPublisher<AuthEvent, Never> {
            Deferred { () -> Publishers.HandleEvents<PassthroughSubject<AuthEvent, Never>> in
                let relay = CombineRelay(PassthroughSubject<AuthEvent, Never>())
                let handler = self.addEventHandler { event in relay.value.send(event) }
                return relay.value.handleEvents(receiveCancel: { self.removeEventHandler(handler) })
            }
            .eraseToAnyPublisher()
        }

        /// ``AuthClient/signIn(using:redirectURI:options:)`` as a Combine future that starts when subscribed
        /// (RxFireAuth's `Single`).
        public nonisolated func signInPublisher(
            using userAgent: some UserAgent,
            options: SignInOptions = SignInOptions()
        ) -> AnyPublisher<AuthState.User, LimenError> {
            future { () async throws(LimenError) in try await self.signIn(using: userAgent, options: options) }
        }

        /// ``AuthClient/validAccessToken(minimumTimeToLive:)`` as a Combine future that starts when subscribed.
        public nonisolated func validAccessTokenPublisher() -> AnyPublisher<String?, LimenError> {
            future { () async throws(LimenError) in try await self.validAccessToken() }
        }

        /// ``AuthClient/userInfo()`` as a Combine future that starts when subscribed.
        public nonisolated func userInfoPublisher() -> AnyPublisher<UserInfo, LimenError> {
            future { () async throws(LimenError) in try await self.userInfo() }
        }

        /// ``AuthClient/signOut(revoke:)`` as a Combine future that starts when subscribed (RxFireAuth's
        /// `Completable`): it never fails; the result says what could not be done.
        public nonisolated func signOutPublisher(revoke: Bool = true) -> AnyPublisher<SignOutResult, LimenError> {
            future { () async throws(LimenError) in await self.signOut(revoke: revoke) }
        }

        /// `operation` as a `Future`, deferred until subscribed, that fulfils its promise once.
        private nonisolated func future<Output: Sendable>(
            _ operation: @escaping @Sendable () async throws(LimenError) -> Output
        ) -> AnyPublisher<Output, LimenError> {
            Deferred {
                Future { promise in
                    let relay = CombineRelay(promise)
                    Task {
                        do throws(LimenError) {
                            relay.value(.success(try await operation()))
                        } catch {
                            relay.value(.failure(error))
                        }
                    }
                }
            }
            .eraseToAnyPublisher()
        }
    }

    /// Carries a Combine subject or promise into a `@Sendable` closure.
    ///
    /// `@unchecked Sendable` is sound: `value` is a constant, and what it holds is safe to call from any thread —
    /// Combine's subjects and `Future`'s promise serialize with their own lock, and a promise ignores all but its first
    /// call.
    private final class CombineRelay<Value>: @unchecked Sendable {
        let value: Value

        init(_ value: Value) {
            self.value = value
        }
    }
#endif
