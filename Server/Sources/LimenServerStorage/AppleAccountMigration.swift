/// Version 19: what Apple said of each user who signs in with Apple, and Apple's refresh token for them (only as
/// AES-GCM ciphertext under a key derived from the master key), gone with the user.
enum AppleAccountMigration {
    /// The `apple_accounts` table, in both dialects: one row per user.
    static let appleAccounts = TableDefinition(
        name: "apple_accounts",
        columns: [
            ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
            ColumnDefinition(name: "subject", kind: .text),
            ColumnDefinition(name: "is_private_email", kind: .boolean),
            ColumnDefinition(name: "real_user_status", kind: .integer, isNullable: true),
            ColumnDefinition(name: "sealed_refresh_token", kind: .bytes, isNullable: true),
            ColumnDefinition(name: "refresh_token_client_id", kind: .text, isNullable: true),
            ColumnDefinition(name: "updated_at", kind: .time),
        ],
        primaryKey: ["user_id"]
    )

    /// The migration.
    static let migration = SchemaMigration(
        version: 19,
        name: "Apple accounts",
        changes: [.createTable(appleAccounts)]
    )
}
