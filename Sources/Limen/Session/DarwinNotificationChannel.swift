#if canImport(notify)
    import Dispatch
    import notify

    /// A ``SessionChangeChannel`` over Darwin notifications (`notify_post`, `notify_register_dispatch`), which reach
    /// every process of the device that registered the name: an app and its extensions.
    ///
    /// Darwin notifications carry no data, so a listener reloads the stored session. Name the channel after the app
    /// group and the namespace (``Configuration/appGroup(_:onSessionChange:)`` does), so that only the processes
    /// sharing the store hear it.
    public struct DarwinNotificationChannel: SessionChangeChannel {
        /// The notification name, for example `group.com.example.limen.default.session`.
        public let name: String

        /// A channel posting and hearing `name`.
        public init(name: String) {
            self.name = name
        }

        /// Posts `name` (https://developer.apple.com/documentation/darwinnotify/notify_post(_:)).
        public func post() {
            _ = notify_post(name)
        }

        /// An event for each post of `name`, delivered on a private queue; the registration is cancelled when the
        /// iterating task ends.
        public func changes() -> AsyncStream<Void> {
            let (stream, continuation) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
            var token: Int32 = 0
            let queue = DispatchQueue(label: "limen.session-changes")
            let status = notify_register_dispatch(name, &token, queue) { _ in continuation.yield() }
            guard status == UInt32(NOTIFY_STATUS_OK) else {
                continuation.finish()
                return stream
            }
            let registration = token
            continuation.onTermination = { _ in _ = notify_cancel(registration) }
            return stream
        }
    }
#endif
