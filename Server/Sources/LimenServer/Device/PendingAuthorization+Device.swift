import Foundation

extension PendingAuthorization {
    /// A pending confirmation of the device authorization `device` of `client`, entered on the verification page
    /// `verificationURI`: it goes through the same sign-in and consent pages as an `/authorize` request and ends by
    /// deciding the device authorization. It lives no longer than the device code.
    init(device: DeviceAuthorizationRecord, client: ClientRecord, verificationURI: String, now: Date) {
        let id = RandomIdentifier.make()
        self.init(
            id: id,
            record: PendingAuthorizationRecord(
                idHash: RandomIdentifier.hash(id),
                clientID: client.id,
                redirectURI: verificationURI,
                scope: device.scope,
                deviceCodeHash: device.deviceCodeHash,
                createdAt: now,
                expiresAt: min(now.addingTimeInterval(Self.lifetime), device.expiresAt)
            ),
            client: client
        )
    }

    /// Whether this confirms a device authorization rather than an `/authorize` request.
    var isDeviceRequest: Bool { record.deviceCodeHash != nil }
}
