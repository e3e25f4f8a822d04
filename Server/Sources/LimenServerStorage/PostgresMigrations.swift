/// The PostgreSQL schema, step for step the same versions as ``SQLiteMigrations`` (types differ: `BYTEA`, `BIGINT`
/// seconds, `BOOLEAN`).
enum PostgresMigrations {
    static let all: [Migration] = [
        Migration(
            version: 1,
            name: "clients, signing keys, authorization codes",
            statements: [
                """
                CREATE TABLE clients (
                    id TEXT PRIMARY KEY,
                    name TEXT NOT NULL,
                    kind TEXT NOT NULL CHECK (kind IN ('public', 'confidential')),
                    secret_hash BYTEA,
                    is_native BOOLEAN NOT NULL DEFAULT FALSE,
                    redirect_uris TEXT NOT NULL,
                    post_logout_redirect_uris TEXT NOT NULL,
                    grant_types TEXT NOT NULL,
                    is_first_party BOOLEAN NOT NULL DEFAULT FALSE,
                    id_token_signed_response_alg TEXT NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE signing_keys (
                    kid TEXT PRIMARY KEY,
                    algorithm TEXT NOT NULL,
                    encrypted_private_key BYTEA NOT NULL,
                    created_at BIGINT NOT NULL,
                    retired_at BIGINT
                )
                """,
                """
                CREATE TABLE authorization_codes (
                    code_hash BYTEA PRIMARY KEY,
                    client_id TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
                    redirect_uri TEXT NOT NULL,
                    subject TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    nonce TEXT,
                    code_challenge TEXT,
                    auth_time BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX authorization_codes_expires_at ON authorization_codes (expires_at)",
            ]
        ),
        Migration(
            version: 2,
            name: "signing keys are published before they sign",
            statements: [
                "ALTER TABLE signing_keys ADD COLUMN activates_at BIGINT",
                "UPDATE signing_keys SET activates_at = created_at WHERE activates_at IS NULL",
            ]
        ),
        Migration(
            version: 3,
            name: "users and failed sign-ins",
            statements: [
                """
                CREATE TABLE users (
                    id TEXT PRIMARY KEY,
                    email TEXT NOT NULL UNIQUE,
                    email_verified BOOLEAN NOT NULL DEFAULT FALSE,
                    name TEXT,
                    password_hash TEXT,
                    created_at BIGINT NOT NULL
                )
                """,
                """
                CREATE TABLE sign_in_failures (
                    key TEXT PRIMARY KEY,
                    failures INTEGER NOT NULL,
                    last_failure_at BIGINT NOT NULL,
                    locked_until BIGINT
                )
                """,
                "CREATE INDEX sign_in_failures_last_failure_at ON sign_in_failures (last_failure_at)",
            ]
        ),
        Migration(
            version: 4,
            name: "grants, refresh tokens, replay-detecting authorization codes, revoked access tokens",
            statements: [
                "ALTER TABLE authorization_codes ADD COLUMN used_at BIGINT",
                "ALTER TABLE authorization_codes ADD COLUMN grant_id TEXT",
                "ALTER TABLE authorization_codes ADD COLUMN replayed_at BIGINT",
                """
                CREATE TABLE grants (
                    id TEXT PRIMARY KEY,
                    client_id TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
                    subject TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    auth_time BIGINT NOT NULL,
                    nonce TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    revoked_at BIGINT
                )
                """,
                "CREATE INDEX grants_expires_at ON grants (expires_at)",
                """
                CREATE TABLE refresh_tokens (
                    token_hash BYTEA PRIMARY KEY,
                    grant_id TEXT NOT NULL REFERENCES grants(id) ON DELETE CASCADE,
                    issued_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL,
                    rotated_at BIGINT,
                    sealed_successor BYTEA
                )
                """,
                "CREATE INDEX refresh_tokens_grant_id ON refresh_tokens (grant_id)",
                "CREATE INDEX refresh_tokens_expires_at ON refresh_tokens (expires_at)",
                """
                CREATE TABLE revoked_access_tokens (
                    jti TEXT PRIMARY KEY,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX revoked_access_tokens_expires_at ON revoked_access_tokens (expires_at)",
            ]
        ),
        Migration(
            version: 5,
            name: "pending authorization requests, browser sessions, consents",
            statements: [
                """
                CREATE TABLE pending_authorizations (
                    id_hash BYTEA PRIMARY KEY,
                    client_id TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
                    redirect_uri TEXT NOT NULL,
                    scope TEXT NOT NULL,
                    state TEXT,
                    nonce TEXT,
                    code_challenge TEXT,
                    prompt TEXT,
                    max_age BIGINT,
                    login_hint TEXT,
                    hinted_subject TEXT,
                    ui_locales TEXT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX pending_authorizations_expires_at ON pending_authorizations (expires_at)",
                """
                CREATE TABLE browser_sessions (
                    id_hash BYTEA PRIMARY KEY,
                    subject TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    auth_time BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX browser_sessions_expires_at ON browser_sessions (expires_at)",
                "CREATE INDEX browser_sessions_subject ON browser_sessions (subject)",
                """
                CREATE TABLE consents (
                    subject TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
                    client_id TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
                    scope TEXT NOT NULL,
                    granted_at BIGINT NOT NULL,
                    PRIMARY KEY (subject, client_id, scope)
                )
                """,
            ]
        ),
        Migration(
            version: 6,
            name: "device authorizations (RFC 8628)",
            statements: [
                """
                CREATE TABLE device_authorizations (
                    device_code_hash BYTEA PRIMARY KEY,
                    user_code_hash BYTEA NOT NULL UNIQUE,
                    client_id TEXT NOT NULL REFERENCES clients(id) ON DELETE CASCADE,
                    scope TEXT NOT NULL,
                    status TEXT NOT NULL CHECK (status IN ('pending', 'approved', 'denied', 'consumed')),
                    subject TEXT,
                    auth_time BIGINT,
                    poll_interval INTEGER NOT NULL,
                    last_polled_at BIGINT,
                    created_at BIGINT NOT NULL,
                    expires_at BIGINT NOT NULL
                )
                """,
                "CREATE INDEX device_authorizations_expires_at ON device_authorizations (expires_at)",
                "ALTER TABLE pending_authorizations ADD COLUMN device_code_hash BYTEA",
            ]
        ),
        Migration(
            version: 7,
            name: "admin API token, per-client token lifetimes",
            statements: [
                """
                CREATE TABLE admin_token (
                    id SMALLINT PRIMARY KEY CHECK (id = 1),
                    token_hash BYTEA NOT NULL,
                    created_at BIGINT NOT NULL
                )
                """,
                "ALTER TABLE clients ADD COLUMN access_token_ttl BIGINT",
                "ALTER TABLE clients ADD COLUMN refresh_token_ttl BIGINT",
            ]
        ),
        Migration(
            version: 8,
            name: "a changed password ends the user's sessions, grants, codes and device authorizations",
            statements: [
                """
                CREATE FUNCTION users_password_changed() RETURNS trigger LANGUAGE plpgsql AS $$
                BEGIN
                    DELETE FROM browser_sessions WHERE subject = OLD.id;
                    DELETE FROM grants WHERE subject = OLD.id;
                    DELETE FROM authorization_codes WHERE subject = OLD.id;
                    DELETE FROM device_authorizations WHERE subject = OLD.id;
                    RETURN NEW;
                END
                $$
                """,
                """
                CREATE TRIGGER users_password_changed AFTER UPDATE OF password_hash ON users FOR EACH ROW
                WHEN (OLD.password_hash IS DISTINCT FROM NEW.password_hash)
                EXECUTE FUNCTION users_password_changed()
                """,
            ]
        ),
        Migration(
            version: 9,
            name: "a pending request is bound to its browser and remembers the session that signed in for it",
            statements: [
                "ALTER TABLE pending_authorizations ADD COLUMN browser_binding BYTEA",
                "ALTER TABLE pending_authorizations ADD COLUMN sign_in_session_hash BYTEA",
            ]
        ),
        Migration(
            version: 10,
            name: "sign-in throttle keys are HMACs under a server key and count attempts: the SHA-256 keys are dropped",
            statements: ["DELETE FROM sign_in_failures"]
        ),
        Migration(
            version: 11,
            name: "refresh-token chains, per-client PKCE opt-out, grants without offline_access end with their session",
            statements: [
                "ALTER TABLE refresh_tokens ADD COLUMN successor_hash BYTEA",
                "ALTER TABLE refresh_tokens ADD COLUMN retired_at BIGINT",
                "ALTER TABLE clients ADD COLUMN allows_no_pkce BOOLEAN NOT NULL DEFAULT FALSE",
                "ALTER TABLE authorization_codes ADD COLUMN browser_session_hash BYTEA",
                """
                ALTER TABLE grants ADD COLUMN browser_session_hash BYTEA
                    REFERENCES browser_sessions(id_hash) ON DELETE CASCADE
                """,
                "CREATE INDEX grants_browser_session_hash ON grants (browser_session_hash)",
            ]
        ),
    ]
}
