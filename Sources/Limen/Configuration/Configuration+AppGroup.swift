// Linux's Foundation has no `containerURL(forSecurityApplicationGroupIdentifier:)`: Scripts/apple-typecheck.sh supplies
// it with the stand-ins and defines LIMEN_APPLE_TYPECHECK.
#if canImport(Security) && (canImport(Darwin) || LIMEN_APPLE_TYPECHECK)
    import Foundation

    extension Configuration {
        /// Shares this configuration's session with the app's extensions and widgets through the app group
        /// `identifier`, setting together what they need (see <doc:SharingWithExtensions>):
        /// - the store: a `KeychainStore` in the group's Keychain access group (an app group needs no team prefix),
        ///   with its lock file and reinstall marker in the group's container (`Library/Application Support/limen`), so
        ///   the app and its widget never spend one rotating refresh token twice and recognise a reinstall once;
        /// - ``sessionChanges``: a ``DarwinNotificationChannel`` named after the group and ``namespace``, so that a
        ///   sign-in, refresh or sign-out in one process is reloaded by the others;
        /// - ``onSessionChange``: `onSessionChange`, for example LimenApple's `WidgetTimelines.reloadAll`.
        ///
        /// Give the app and each extension the App Groups entitlement with `identifier`, and the same configuration.
        /// Extensions get no app-activation notifications: call ``AuthClient/resume()`` when one starts work.
        ///
        /// ```swift
        /// var configuration = Configuration(issuer: issuer, clientID: "ios-app", redirectURI: redirect)
        /// try configuration.appGroup("group.com.example", onSessionChange: WidgetTimelines.reloadAll)
        /// ```
        /// - Throws: ``LimenError/configuration(_:)`` with ``ConfigurationError/invalidValue(key:reason:)`` when the
        ///   system has no container for `identifier` (the entitlement is missing).
        public mutating func appGroup(
            _ identifier: String,
            onSessionChange: (@Sendable () -> Void)? = nil
        ) throws(LimenError) {
            guard
                let container = FileManager.default.containerURL(
                    forSecurityApplicationGroupIdentifier: identifier)
            else {
                throw .configuration(
                    .invalidValue(
                        key: "appGroup", reason: "no container for \(identifier): add it to the App Groups entitlement"
                    ))
            }
            store = try KeychainStore(
                namespace: DefaultStore.namespace,
                accessGroup: identifier,
                sharedDirectory: container.appending(
                    path: "Library/Application Support/limen", directoryHint: .isDirectory)
            )
            #if canImport(notify)
                sessionChanges = DarwinNotificationChannel(name: "\(identifier).limen.\(namespace).session")
            #endif
            self.onSessionChange = onSessionChange
        }
    }
#endif
