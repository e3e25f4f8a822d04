import Foundation
import LimenServerStorage

/// Ends the confirmation of a device authorization (RFC 8628 §3.3): the pending confirmation is consumed (once, even
/// when two submissions race), then the user's decision is recorded on the device authorization, which the device
/// learns at its next poll. The browser gets a page, never a redirect: the client is on another device.
package struct DeviceVerification: Sendable {
    /// How a confirmation ended, which the page tells.
    package enum Outcome: Sendable, Equatable {
        /// The confirmation was already used or has expired.
        case requestGone
        /// The device authorization has ended (expired, or decided) since the confirmation began.
        case codeEnded
        /// The person denied the device.
        case denied
        /// The person allowed the device.
        case approved
    }

    /// Where the pending confirmations and device authorizations are kept.
    package let store: any PendingAuthorizationStore & DeviceAuthorizationStore
    /// The clock.
    package let now: @Sendable () -> Date

    /// A verification over `store`.
    package init(store: any PendingAuthorizationStore & DeviceAuthorizationStore, now: @escaping @Sendable () -> Date) {
        (self.store, self.now) = (store, now)
    }

    /// Records `completion` (a code means Allow, an error Deny) for the device authorization `pending` confirms.
    package func complete(
        _ pending: PendingAuthorization,
        with completion: AuthorizationFlow.Completion
    ) async throws(StorageError) -> Outcome {
        let now = self.now()
        guard let deviceCodeHash = pending.record.deviceCodeHash,
            try await store.consumePendingAuthorization(idHash: pending.record.idHash, now: now) != nil
        else { return .requestGone }
        let decision: DeviceAuthorizationDecision =
            switch completion {
            case .code(let session):
                .approve(subject: session.subject, authTime: session.authTime, methods: session.methods)
            case .appCode(let subject, let authTime, let methods):
                .approve(subject: subject, authTime: authTime, methods: methods)
            case .error: .deny
            }
        guard try await store.decideDeviceAuthorization(deviceCodeHash: deviceCodeHash, decision: decision, now: now)
        else { return .codeEnded }
        return decision == .deny ? .denied : .approved
    }
}
