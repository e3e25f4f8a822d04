import Foundation
import PostgresNIO

extension PostgresStore {
    public func insertDeviceAuthorization(_ authorization: DeviceAuthorizationRecord) async throws(StorageError)
        -> Bool
    {
        try await !rows(
            """
            INSERT INTO device_authorizations (device_code_hash, user_code_hash, client_id, scope, status, subject,
                auth_time, poll_interval, last_polled_at, created_at, expires_at)
            VALUES (\(Self.bytes(authorization.deviceCodeHash)), \(Self.bytes(authorization.userCodeHash)),
                \(authorization.clientID), \(authorization.scope), \(authorization.status.rawValue),
                \(authorization.subject), \(authorization.authTime.map(Self.seconds)), \(authorization.interval),
                \(authorization.lastPolledAt.map(Self.seconds)), \(Self.seconds(authorization.createdAt)),
                \(Self.seconds(authorization.expiresAt)))
            ON CONFLICT DO NOTHING
            RETURNING 1
            """
        ).isEmpty
    }

    public func deviceAuthorization(deviceCodeHash: Data) async throws(StorageError) -> DeviceAuthorizationRecord? {
        try await rows(
            "SELECT * FROM device_authorizations WHERE device_code_hash = \(Self.bytes(deviceCodeHash))"
        ).first.map(Self.deviceAuthorization(from:))
    }

    public func pendingDeviceAuthorization(userCodeHash: Data, now: Date) async throws(StorageError)
        -> DeviceAuthorizationRecord?
    {
        try await rows(
            """
            SELECT * FROM device_authorizations
            WHERE user_code_hash = \(Self.bytes(userCodeHash)) AND status = 'pending'
                AND expires_at > \(Self.seconds(now))
            """
        ).first.map(Self.deviceAuthorization(from:))
    }

    public func decideDeviceAuthorization(
        deviceCodeHash: Data,
        decision: DeviceAuthorizationDecision,
        now: Date
    ) async throws(StorageError) -> Bool {
        let (status, subject, authTime): (DeviceAuthorizationStatus, String?, Int64?) =
            switch decision {
            case .approve(let subject, let authTime): (.approved, subject, Self.seconds(authTime))
            case .deny: (.denied, nil, nil)
            }
        return try await !rows(
            """
            UPDATE device_authorizations SET status = \(status.rawValue), subject = \(subject), auth_time = \(authTime)
            WHERE device_code_hash = \(Self.bytes(deviceCodeHash)) AND status = 'pending'
                AND expires_at > \(Self.seconds(now))
            RETURNING 1
            """
        ).isEmpty
    }

    public func recordDevicePoll(
        replacing previous: DeviceAuthorizationRecord,
        with next: DeviceAuthorizationRecord
    ) async throws(StorageError) -> Bool {
        try await !rows(
            """
            UPDATE device_authorizations SET status = \(next.status.rawValue), poll_interval = \(next.interval),
                last_polled_at = \(next.lastPolledAt.map(Self.seconds))
            WHERE device_code_hash = \(Self.bytes(previous.deviceCodeHash)) AND status = \(previous.status.rawValue)
                AND poll_interval = \(previous.interval)
                AND last_polled_at IS NOT DISTINCT FROM \(previous.lastPolledAt.map(Self.seconds))
            RETURNING 1
            """
        ).isEmpty
    }

    public func insertDeviceGrant(_ grant: GrantRecord) async throws(StorageError) {
        try await rows(
            """
            INSERT INTO grants (id, client_id, subject, scope, auth_time, nonce, created_at, expires_at, revoked_at)
            VALUES (\(grant.id), \(grant.clientID), \(grant.subject), \(grant.scope), \(Self.seconds(grant.authTime)),
                \(grant.nonce), \(Self.seconds(grant.createdAt)), \(Self.seconds(grant.expiresAt)),
                \(grant.revokedAt.map(Self.seconds)))
            """
        )
    }

    @discardableResult
    public func deleteExpiredDeviceAuthorizations(before date: Date) async throws(StorageError) -> Int {
        try await rows(
            "DELETE FROM device_authorizations WHERE expires_at <= \(Self.seconds(date)) RETURNING 1"
        ).count
    }

    private static func deviceAuthorization(from row: PostgresRandomAccessRow) throws(StorageError)
        -> DeviceAuthorizationRecord
    {
        guard let status = DeviceAuthorizationStatus(rawValue: try value(row, "status", as: String.self)) else {
            throw .corruptRow("device_authorizations.status")
        }
        return DeviceAuthorizationRecord(
            deviceCodeHash: try value(row, "device_code_hash", as: Data.self),
            userCodeHash: try value(row, "user_code_hash", as: Data.self),
            clientID: try value(row, "client_id", as: String.self),
            scope: try value(row, "scope", as: String.self),
            status: status,
            subject: try optional(row, "subject", as: String.self),
            authTime: try optionalDate(row, "auth_time"),
            interval: try value(row, "poll_interval", as: Int.self),
            lastPolledAt: try optionalDate(row, "last_polled_at"),
            createdAt: try date(row, "created_at"),
            expiresAt: try date(row, "expires_at")
        )
    }
}
