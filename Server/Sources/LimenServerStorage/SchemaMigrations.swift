/// The migrations written once for both dialects (``SchemaMigration``), after the ones each dialect keeps as released
/// (``SQLiteMigrations`` and ``PostgresMigrations``, versions 1–11): a new table or column goes here, never into both
/// of those.
enum SchemaMigrations {
    /// Oldest first, from version 12.
    static let written: [SchemaMigration] = [
        SchemaMigration(
            version: 12,
            name: "flow interactions",
            changes: [
                .createTable(
                    TableDefinition(
                        name: "flow_interactions",
                        columns: [
                            ColumnDefinition(name: "id_hash", kind: .bytes),
                            ColumnDefinition(name: "flow", kind: .text),
                            ColumnDefinition(name: "node", kind: .text),
                            ColumnDefinition(
                                name: "client_id", kind: .text, references: ("clients", "id", .cascade)),
                            ColumnDefinition(name: "request", kind: .bytes),
                            ColumnDefinition(name: "context", kind: .bytes),
                            ColumnDefinition(name: "attempts", kind: .integer),
                            ColumnDefinition(name: "revision", kind: .integer),
                            ColumnDefinition(name: "status", kind: .text),
                            ColumnDefinition(name: "created_at", kind: .time),
                            ColumnDefinition(name: "expires_at", kind: .time),
                        ],
                        primaryKey: ["id_hash"]
                    )),
                .createIndex(name: "flow_interactions_expires_at", table: "flow_interactions", columns: ["expires_at"]),
            ]
        ),
        profiles,
        SchemaMigration(
            version: 15,
            name: "one-time codes sent by email",
            changes: [
                .createTable(
                    TableDefinition(
                        name: "email_codes",
                        columns: [
                            ColumnDefinition(name: "email", kind: .text),
                            ColumnDefinition(name: "purpose", kind: .text),
                            ColumnDefinition(name: "code_hash", kind: .bytes),
                            ColumnDefinition(name: "attempts", kind: .integer),
                            ColumnDefinition(name: "created_at", kind: .time),
                            ColumnDefinition(name: "expires_at", kind: .time),
                        ],
                        primaryKey: ["email", "purpose"]
                    )),
                .createIndex(name: "email_codes_expires_at", table: "email_codes", columns: ["expires_at"]),
            ]
        ),
        SchemaMigration(
            version: 16,
            name: "client branding",
            changes: [
                .addColumn(table: "clients", ColumnDefinition(name: "branding", kind: .text, isNullable: true))
            ]
        ),
        SchemaMigration(
            version: 17,
            name: "where a client's email links lead",
            changes: [
                .addColumn(
                    table: "clients", ColumnDefinition(name: "email_link_uri", kind: .text, isNullable: true))
            ]
        ),
        IdentityMigration.migration,
        AppleAccountMigration.migration,
        mailOutbox,
        ExchangedTokenMigration.migration,
        RateCountMigration.migration,
        SchemaMigration(
            version: 23,
            name: "clients that host app-to-app sign-in",
            changes: [
                .addColumn(
                    table: "clients",
                    ColumnDefinition(name: "app2app_host", kind: .boolean, defaultValue: .bool(false)))
            ]
        ),
        PasskeyMigration.migration,
        SecondFactorMigration.migration,
        SchemaMigration(
            version: 26,
            name: "DPoP: clients that require it, grants whose refresh tokens are bound to a key",
            changes: [
                .addColumn(
                    table: "clients",
                    ColumnDefinition(name: "dpop_bound_access_tokens", kind: .boolean, defaultValue: .bool(false))),
                .addColumn(table: "grants", ColumnDefinition(name: "dpop_jkt", kind: .text, isNullable: true)),
            ]
        ),
        authenticationMethods,
        .singleUse(version: 28, name: "used challenges", table: "used_challenges", key: "challenge_hash"),
        securityEvents,
        webhooks,
        userRoles,
        disabledUsers,
        grantsBySubject,
    ]

    /// Version 27: how each sign-in authenticated (`amr`), kept with what it made, the `acr_values` a pending request
    /// asks for, the `acr` a client requires, and the DPoP key (`dpop_jkt`) a request binds its code to.
    static let authenticationMethods = SchemaMigration(
        version: 27,
        name: "authentication methods and levels, codes bound to a DPoP key",
        changes: [
            ("browser_sessions", "amr"), ("authorization_codes", "amr"), ("grants", "amr"),
            ("device_authorizations", "amr"), ("pending_authorizations", "acr_values"), ("clients", "required_acr"),
            ("pending_authorizations", "dpop_jkt"), ("authorization_codes", "dpop_jkt"),
        ].map { table, column in
            .addColumn(table: table, ColumnDefinition(name: column, kind: .text, isNullable: true))
        }
    )

    /// Version 20: the mail outbox (``MailOutbox``), sealed messages waiting for a worker on any node; and the
    /// email-code budgets per address and purpose (``EmailCodeBudgets``).
    static let mailOutbox = SchemaMigration(
        version: 20,
        name: "mail outbox and email code budgets",
        changes: [
            .createTable(
                TableDefinition(
                    name: "mail_outbox",
                    columns: [
                        ColumnDefinition(name: "id", kind: .text),
                        ColumnDefinition(name: "sealed", kind: .bytes),
                        ColumnDefinition(name: "attempts", kind: .integer),
                        ColumnDefinition(name: "claimed_until", kind: .time),
                        ColumnDefinition(name: "claim", kind: .text),
                        ColumnDefinition(name: "created_at", kind: .time),
                        ColumnDefinition(name: "expires_at", kind: .time),
                    ],
                    primaryKey: ["id"]
                )),
            .createIndex(name: "mail_outbox_due", table: "mail_outbox", columns: ["claimed_until", "created_at"]),
            .createIndex(name: "mail_outbox_expires_at", table: "mail_outbox", columns: ["expires_at"]),
            .createTable(
                TableDefinition(
                    name: "email_code_budgets",
                    columns: [
                        ColumnDefinition(name: "subject", kind: .text),
                        ColumnDefinition(name: "counter", kind: .text),
                        ColumnDefinition(name: "hour_start", kind: .time),
                        ColumnDefinition(name: "hour_count", kind: .integer),
                        ColumnDefinition(name: "day_start", kind: .time),
                        ColumnDefinition(name: "day_count", kind: .integer),
                        ColumnDefinition(name: "expires_at", kind: .time),
                    ],
                    primaryKey: ["subject", "counter"]
                )),
            .createIndex(name: "email_code_budgets_expires_at", table: "email_code_budgets", columns: ["expires_at"]),
        ]
    )

    /// Version 13: the app schema (one row) and each user's profile data, gone with the user.
    static let profiles = SchemaMigration(
        version: 13,
        name: "profiles",
        changes: [
            .createTable(
                TableDefinition(
                    name: "app_schema",
                    columns: [
                        ColumnDefinition(name: "id", kind: .integer),
                        ColumnDefinition(name: "document", kind: .text),
                        ColumnDefinition(name: "file_digest", kind: .text, isNullable: true),
                        ColumnDefinition(name: "updated_at", kind: .time),
                    ],
                    primaryKey: ["id"]
                )),
            .createTable(
                TableDefinition(
                    name: "profiles",
                    columns: [
                        ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
                        ColumnDefinition(name: "data", kind: .text),
                        ColumnDefinition(name: "revision", kind: .integer),
                        ColumnDefinition(name: "updated_at", kind: .time),
                    ],
                    primaryKey: ["user_id"]
                )),
        ]
    )

    /// Every migration of `dialect`, oldest first.
    static func all(in dialect: SQLDialect) -> [Migration] {
        let released = dialect == .sqlite ? SQLiteMigrations.all : PostgresMigrations.all
        return released + written.map { $0.migration(in: dialect) }
    }
}
