import Foundation
import LimenServerStorage

extension PendingAuthorization {
    /// A pending confirmation of the device authorization `device` of `client`, entered on the verification page
    /// `verificationURI` in the browser whose ``BrowserState/requestBinding`` is `browserBinding`: it goes through the
    /// same sign-in and consent pages as an `/authorize` request (in that browser only) and ends by deciding the device
    /// authorization. It lives no longer than the device code.
    package init(
        device: DeviceAuthorizationRecord,
        client: ClientRecord,
        verificationURI: String,
        browserBinding: Data,
        now: Date
    ) {
        let id = RandomIdentifier.make()
        self.init(
            id: id,
            record: PendingAuthorizationRecord(
                idHash: RandomIdentifier.hash(id),
                clientID: client.id,
                redirectURI: verificationURI,
                scope: device.scope,
                deviceCodeHash: device.deviceCodeHash,
                browserBinding: browserBinding,
                createdAt: now,
                expiresAt: min(now.addingTimeInterval(Self.lifetime), device.expiresAt)
            ),
            client: client
        )
    }

    /// Whether this confirms a device authorization rather than an `/authorize` request.
    package var isDeviceRequest: Bool { record.deviceCodeHash != nil }
}
