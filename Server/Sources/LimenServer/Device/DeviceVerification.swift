import Foundation
import Hummingbird
import LimenServerStorage

/// Ends the confirmation of a device authorization (RFC 8628 §3.3): the pending confirmation is consumed (once, even
/// when two submissions race), then the user's decision is recorded on the device authorization, which the device
/// learns at its next poll. The browser gets a page, never a redirect: the client is on another device.
struct DeviceVerification: Sendable {
    /// The provider whose store and clock are used.
    let provider: Provider

    /// Records `completion` (a code means Allow, an error Deny) for the device authorization `pending` confirms.
    func complete(
        _ pending: PendingAuthorization,
        with completion: AuthorizationFlow.Completion
    ) async throws(StorageError) -> Response {
        let now = provider.now()
        guard let deviceCodeHash = pending.record.deviceCodeHash,
            try await provider.store.consumePendingAuthorization(idHash: pending.record.idHash, now: now) != nil
        else { return Pages.requestGone(uiLocales: pending.record.uiLocales) }
        let decision: DeviceAuthorizationDecision =
            switch completion {
            case .code(let session): .approve(subject: session.subject, authTime: session.authTime)
            case .error: .deny
            }
        guard
            try await provider.store.decideDeviceAuthorization(
                deviceCodeHash: deviceCodeHash, decision: decision, now: now)
        else { return Pages.deviceCodeEnded() }
        return decision == .deny
            ? Pages.deviceDenied(clientName: pending.client.name)
            : Pages.deviceApproved(clientName: pending.client.name)
    }
}
