/// Version 18: users without an email address (anonymous users, and later users of an external identity only), and the
/// identities a user signs in with, one credential belonging to one user only.
///
/// The built-in identities follow the user's columns inside the database, by triggers, so that no write path can leave
/// them out of step: `password` (subject: the address) while the user has an address and a password, `email` (the
/// one-time codes, subject: the address) while the user has an address. Identities of other kinds (external issuers,
/// Apple) are rows of their own. Only a changed password ends the user's grants now: one set where there was none (an
/// anonymous user's upgrade) or removed (an unlinked password, by the signed-in user) ends nothing.
enum IdentityMigration {
    /// The identities table, in both dialects.
    static let identities = TableDefinition(
        name: "identities",
        columns: [
            ColumnDefinition(name: "kind", kind: .text),
            ColumnDefinition(name: "subject", kind: .text),
            ColumnDefinition(name: "user_id", kind: .text, references: ("users", "id", .cascade)),
            ColumnDefinition(name: "created_at", kind: .time),
        ],
        primaryKey: ["kind", "subject"]
    )

    /// The migration.
    static let migration = SchemaMigration(
        version: 18,
        name: "identities, users without an email address",
        changes: [
            .createTable(identities),
            .createIndex(name: "identities_user_id", table: "identities", columns: ["user_id"]),
            .dialectSpecific(sqlite: sqliteStatements, postgres: postgresStatements),
        ],
        needsForeignKeysOff: true
    )

    /// SQLite cannot drop a `NOT NULL`: the users table is rebuilt (its 12-step procedure, with foreign keys off so
    /// that dropping the old table deletes nothing that refers to it), with its triggers.
    private static let sqliteStatements =
        [
            """
            CREATE TABLE users_rebuilt (
                id TEXT PRIMARY KEY NOT NULL,
                email TEXT UNIQUE,
                email_verified INTEGER NOT NULL DEFAULT 0,
                name TEXT,
                password_hash TEXT,
                created_at INTEGER NOT NULL
            )
            """,
            """
            INSERT INTO users_rebuilt (id, email, email_verified, name, password_hash, created_at)
            SELECT id, email, email_verified, name, password_hash, created_at FROM users
            """,
            "DROP TABLE users",
            "ALTER TABLE users_rebuilt RENAME TO users",
            """
            CREATE TRIGGER users_delete_issued AFTER DELETE ON users BEGIN
                DELETE FROM grants WHERE subject = OLD.id;
                DELETE FROM authorization_codes WHERE subject = OLD.id;
            END
            """,
            """
            CREATE TRIGGER users_password_changed AFTER UPDATE OF password_hash ON users
            WHEN OLD.password_hash IS NOT NULL AND NEW.password_hash IS NOT NULL
                AND OLD.password_hash IS NOT NEW.password_hash BEGIN
                DELETE FROM browser_sessions WHERE subject = OLD.id;
                DELETE FROM grants WHERE subject = OLD.id;
                DELETE FROM authorization_codes WHERE subject = OLD.id;
                DELETE FROM device_authorizations WHERE subject = OLD.id;
            END
            """,
            """
            CREATE TRIGGER users_identities_inserted AFTER INSERT ON users BEGIN
                INSERT INTO identities (kind, subject, user_id, created_at)
                SELECT 'password', NEW.email, NEW.id, NEW.created_at
                WHERE NEW.email IS NOT NULL AND NEW.password_hash IS NOT NULL;
                INSERT INTO identities (kind, subject, user_id, created_at)
                SELECT 'email', NEW.email, NEW.id, NEW.created_at WHERE NEW.email IS NOT NULL;
            END
            """,
            """
            CREATE TRIGGER users_identities_updated AFTER UPDATE OF email, password_hash ON users BEGIN
                DELETE FROM identities WHERE user_id = OLD.id AND kind IN ('password', 'email')
                    AND (OLD.email IS NOT NEW.email OR (kind = 'password' AND NEW.password_hash IS NULL));
                INSERT OR IGNORE INTO identities (kind, subject, user_id, created_at)
                SELECT 'password', NEW.email, NEW.id, CAST(strftime('%s', 'now') AS INTEGER)
                WHERE NEW.email IS NOT NULL AND NEW.password_hash IS NOT NULL;
                INSERT OR IGNORE INTO identities (kind, subject, user_id, created_at)
                SELECT 'email', NEW.email, NEW.id, CAST(strftime('%s', 'now') AS INTEGER) WHERE NEW.email IS NOT NULL;
            END
            """,
        ] + backfill

    /// PostgreSQL drops the `NOT NULL` in place; its triggers call functions.
    private static let postgresStatements =
        [
            "ALTER TABLE users ALTER COLUMN email DROP NOT NULL",
            "DROP TRIGGER users_password_changed ON users",
            """
            CREATE TRIGGER users_password_changed AFTER UPDATE OF password_hash ON users FOR EACH ROW
            WHEN (OLD.password_hash IS NOT NULL AND NEW.password_hash IS NOT NULL
                AND OLD.password_hash IS DISTINCT FROM NEW.password_hash)
            EXECUTE FUNCTION users_password_changed()
            """,
            """
            CREATE FUNCTION users_identities() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN
                IF TG_OP = 'UPDATE' THEN
                    DELETE FROM identities WHERE user_id = OLD.id AND kind IN ('password', 'email')
                        AND (OLD.email IS DISTINCT FROM NEW.email OR (kind = 'password' AND NEW.password_hash IS NULL));
                END IF;
                IF NEW.email IS NOT NULL AND NEW.password_hash IS NOT NULL THEN
                    INSERT INTO identities (kind, subject, user_id, created_at)
                    VALUES ('password', NEW.email, NEW.id, EXTRACT(EPOCH FROM now())::BIGINT)
                    ON CONFLICT DO NOTHING;
                END IF;
                IF NEW.email IS NOT NULL THEN
                    INSERT INTO identities (kind, subject, user_id, created_at)
                    VALUES ('email', NEW.email, NEW.id, EXTRACT(EPOCH FROM now())::BIGINT)
                    ON CONFLICT DO NOTHING;
                END IF;
                RETURN NEW;
            END
            $$
            """,
            """
            CREATE TRIGGER users_identities AFTER INSERT OR UPDATE OF email, password_hash ON users FOR EACH ROW
            EXECUTE FUNCTION users_identities()
            """,
        ] + backfill

    /// The identities of the users there already are.
    private static let backfill = [
        """
        INSERT INTO identities (kind, subject, user_id, created_at)
        SELECT 'password', email, id, created_at FROM users WHERE email IS NOT NULL AND password_hash IS NOT NULL
        """,
        """
        INSERT INTO identities (kind, subject, user_id, created_at)
        SELECT 'email', email, id, created_at FROM users WHERE email IS NOT NULL
        """,
    ]
}
