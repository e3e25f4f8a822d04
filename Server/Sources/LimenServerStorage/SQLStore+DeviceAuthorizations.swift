import Foundation

/// Device authorizations (RFC 8628), written once for both dialects.
extension SQLStore {
    public func insertDeviceAuthorization(_ authorization: DeviceAuthorizationRecord) async throws(StorageError)
        -> Bool
    {
        !(try await execute(
            """
            INSERT INTO device_authorizations (device_code_hash, user_code_hash, client_id, scope, status, subject,
                auth_time, poll_interval, last_polled_at, created_at, expires_at)
            VALUES (\(authorization.deviceCodeHash), \(authorization.userCodeHash), \(authorization.clientID),
                \(authorization.scope), \(authorization.status.rawValue), \(authorization.subject),
                \(authorization.authTime), \(authorization.interval), \(authorization.lastPolledAt),
                \(authorization.createdAt), \(authorization.expiresAt))
            ON CONFLICT DO NOTHING
            RETURNING 1
            """
        )).isEmpty
    }

    public func deviceAuthorization(deviceCodeHash: Data) async throws(StorageError) -> DeviceAuthorizationRecord? {
        try await execute("SELECT * FROM device_authorizations WHERE device_code_hash = \(deviceCodeHash)").first.map {
            row throws(StorageError) in try DeviceAuthorizationRecord(row: row)
        }
    }

    public func pendingDeviceAuthorization(userCodeHash: Data, now: Date) async throws(StorageError)
        -> DeviceAuthorizationRecord?
    {
        try await execute(
            """
            SELECT * FROM device_authorizations
            WHERE user_code_hash = \(userCodeHash) AND status = 'pending' AND expires_at > \(now)
            """
        ).first.map { row throws(StorageError) in try DeviceAuthorizationRecord(row: row) }
    }

    public func decideDeviceAuthorization(
        deviceCodeHash: Data,
        decision: DeviceAuthorizationDecision,
        now: Date
    ) async throws(StorageError) -> Bool {
        let (status, subject, authTime, methods): (DeviceAuthorizationStatus, String?, Date?, String?) =
            switch decision {
            case .approve(let subject, let authTime, let methods): (.approved, subject, authTime, methods.stored)
            case .deny: (.denied, nil, nil, nil)
            }
        return
            !(try await execute(
                """
                UPDATE device_authorizations SET status = \(status.rawValue), subject = \(subject), auth_time = \(authTime),
                    amr = \(methods)
                WHERE device_code_hash = \(deviceCodeHash) AND status = 'pending' AND expires_at > \(now)
                RETURNING 1
                """
            )).isEmpty
    }

    public func recordDevicePoll(
        replacing previous: DeviceAuthorizationRecord,
        with next: DeviceAuthorizationRecord
    ) async throws(StorageError) -> Bool {
        !(try await execute(
            """
            UPDATE device_authorizations
            SET status = \(next.status.rawValue), poll_interval = \(next.interval), last_polled_at = \(next.lastPolledAt)
            WHERE device_code_hash = \(previous.deviceCodeHash) AND status = \(previous.status.rawValue)
                AND poll_interval = \(previous.interval)
                AND last_polled_at IS NOT DISTINCT FROM CAST(\(previous.lastPolledAt) AS BIGINT)
            RETURNING 1
            """
        )).isEmpty
    }

    @discardableResult
    public func deleteExpiredDeviceAuthorizations(before date: Date) async throws(StorageError) -> Int {
        try await execute("DELETE FROM device_authorizations WHERE expires_at <= \(date) RETURNING 1").count
    }
}

extension DeviceAuthorizationRecord {
    /// The authorization in a row of `device_authorizations`.
    init(row: some SQLRow) throws(StorageError) {
        guard let status = DeviceAuthorizationStatus(rawValue: try row.text("status")) else {
            throw .corruptRow("device_authorizations.status")
        }
        self.init(
            deviceCodeHash: try row.data("device_code_hash"),
            userCodeHash: try row.data("user_code_hash"),
            clientID: try row.text("client_id"),
            scope: try row.text("scope"),
            status: status,
            subject: try row.optionalText("subject"),
            authTime: try row.optionalDate("auth_time"),
            interval: try row.integer("poll_interval"),
            lastPolledAt: try row.optionalDate("last_polled_at"),
            createdAt: try row.date("created_at"),
            expiresAt: try row.date("expires_at"),
            methods: AuthenticationMethods(stored: try row.optionalText("amr"))
        )
    }
}
