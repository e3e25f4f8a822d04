import Foundation
import SQLiteNIO

extension SQLiteStore {
    public func insertDeviceAuthorization(_ authorization: DeviceAuthorizationRecord) async throws(StorageError)
        -> Bool
    {
        let rows = try await query(
            """
            INSERT INTO device_authorizations (device_code_hash, user_code_hash, client_id, scope, status, subject,
                auth_time, poll_interval, last_polled_at, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT DO NOTHING
            RETURNING 1
            """,
            [
                Self.blob(authorization.deviceCodeHash), Self.blob(authorization.userCodeHash),
                .text(authorization.clientID), .text(authorization.scope), .text(authorization.status.rawValue),
                Self.optional(authorization.subject), authorization.authTime.map(Self.time) ?? .null,
                .integer(authorization.interval), authorization.lastPolledAt.map(Self.time) ?? .null,
                Self.time(authorization.createdAt), Self.time(authorization.expiresAt),
            ]
        )
        return !rows.isEmpty
    }

    public func deviceAuthorization(deviceCodeHash: Data) async throws(StorageError) -> DeviceAuthorizationRecord? {
        try await query(
            "SELECT * FROM device_authorizations WHERE device_code_hash = ?", [Self.blob(deviceCodeHash)]
        ).first.map(Self.deviceAuthorization(from:))
    }

    public func pendingDeviceAuthorization(userCodeHash: Data, now: Date) async throws(StorageError)
        -> DeviceAuthorizationRecord?
    {
        try await query(
            """
            SELECT * FROM device_authorizations
            WHERE user_code_hash = ? AND status = 'pending' AND expires_at > ?
            """,
            [Self.blob(userCodeHash), Self.time(now)]
        ).first.map(Self.deviceAuthorization(from:))
    }

    public func decideDeviceAuthorization(
        deviceCodeHash: Data,
        decision: DeviceAuthorizationDecision,
        now: Date
    ) async throws(StorageError) -> Bool {
        let (status, subject, authTime): (DeviceAuthorizationStatus, SQLiteData, SQLiteData) =
            switch decision {
            case .approve(let subject, let authTime): (.approved, .text(subject), Self.time(authTime))
            case .deny: (.denied, .null, .null)
            }
        return try await !query(
            """
            UPDATE device_authorizations SET status = ?, subject = ?, auth_time = ?
            WHERE device_code_hash = ? AND status = 'pending' AND expires_at > ?
            RETURNING 1
            """,
            [.text(status.rawValue), subject, authTime, Self.blob(deviceCodeHash), Self.time(now)]
        ).isEmpty
    }

    public func recordDevicePoll(
        replacing previous: DeviceAuthorizationRecord,
        with next: DeviceAuthorizationRecord
    ) async throws(StorageError) -> Bool {
        try await !query(
            """
            UPDATE device_authorizations SET status = ?, poll_interval = ?, last_polled_at = ?
            WHERE device_code_hash = ? AND status = ? AND poll_interval = ? AND last_polled_at IS ?
            RETURNING 1
            """,
            [
                .text(next.status.rawValue), .integer(next.interval), next.lastPolledAt.map(Self.time) ?? .null,
                Self.blob(previous.deviceCodeHash), .text(previous.status.rawValue), .integer(previous.interval),
                previous.lastPolledAt.map(Self.time) ?? .null,
            ]
        ).isEmpty
    }

    public func insertDeviceGrant(_ grant: GrantRecord) async throws(StorageError) {
        try await query(
            """
            INSERT INTO grants (id, client_id, subject, scope, auth_time, nonce, created_at, expires_at, revoked_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(grant.id), .text(grant.clientID), .text(grant.subject), .text(grant.scope),
                Self.time(grant.authTime), Self.optional(grant.nonce), Self.time(grant.createdAt),
                Self.time(grant.expiresAt), grant.revokedAt.map(Self.time) ?? .null,
            ]
        )
    }

    @discardableResult
    public func deleteExpiredDeviceAuthorizations(before date: Date) async throws(StorageError) -> Int {
        try await query(
            "DELETE FROM device_authorizations WHERE expires_at <= ? RETURNING 1", [Self.time(date)]
        ).count
    }

    private static func deviceAuthorization(from row: SQLiteRow) throws(StorageError) -> DeviceAuthorizationRecord {
        guard let status = DeviceAuthorizationStatus(rawValue: try text(row, "status")),
            let interval = row.column("poll_interval")?.integer
        else { throw .corruptRow("device_authorizations.status or poll_interval") }
        return DeviceAuthorizationRecord(
            deviceCodeHash: try data(row, "device_code_hash"),
            userCodeHash: try data(row, "user_code_hash"),
            clientID: try text(row, "client_id"),
            scope: try text(row, "scope"),
            status: status,
            subject: row.column("subject")?.string,
            authTime: row.column("auth_time")?.integer.map { Date(timeIntervalSince1970: Double($0)) },
            interval: interval,
            lastPolledAt: row.column("last_polled_at")?.integer.map { Date(timeIntervalSince1970: Double($0)) },
            createdAt: try date(row, "created_at"),
            expiresAt: try date(row, "expires_at")
        )
    }
}
