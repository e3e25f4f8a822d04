#!/usr/bin/env bash
# Start the Debian PostgreSQL cluster on 127.0.0.1 and make a role and database for Limen's tests.
#
# Usage: start.sh        Prints ONE line on stdout: the admin URL for LIMEN_TEST_POSTGRES_URL
#                        (role `limen` may create databases; the tests make one database per test and drop it).
# Environment: LIMEN_PG_PASSWORD (default: limen-test).
set -euo pipefail
log() { echo "postgres/start: $*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
as_postgres() { as_root runuser -u postgres -- "$@"; }

PASSWORD=${LIMEN_PG_PASSWORD:-limen-test}
VERSION=""
PORT=""

# Starts the cluster and makes the role and database; sets VERSION and PORT.
prepare() {
    # The newest cluster named main, and its port, as postgresql-common records them (not parsed from the config file).
    read -r VERSION PORT < <(pg_lsclusters -h 2>/dev/null | awk '$2 == "main" { print $1, $3 }' | sort -n | tail -n 1) || true
    [ -n "${VERSION:-}" ] || { log "error: PostgreSQL is not installed (run install.sh)"; exit 1; }
    [[ "${PORT:-}" =~ ^[0-9]+$ ]] || { log "error: pg_lsclusters gives no port for cluster $VERSION/main"; exit 1; }

    if ! as_postgres pg_ctlcluster "$VERSION" main status >/dev/null 2>&1; then
        as_root pg_ctlcluster "$VERSION" main start
    fi
    for _ in $(seq 1 100); do
        as_postgres psql -qAt -p "$PORT" -c 'SELECT 1' >/dev/null 2>&1 && break
        sleep 0.1
    done
    # Tests run in parallel, each with its own database and connection pool: room for far more than the default 100.
    # They connect over TCP to 127.0.0.1, which "localhost" (the default listen address) may not resolve to.
    if [ "$(as_postgres psql -qAt -p "$PORT" -c 'SHOW max_connections')" -lt 1000 ] \
        || [ "$(as_postgres psql -qAt -p "$PORT" -c 'SHOW listen_addresses')" != "127.0.0.1" ]; then
        as_postgres psql -qAt -p "$PORT" -c 'ALTER SYSTEM SET max_connections = 1000' >/dev/null
        as_postgres psql -qAt -p "$PORT" -c "ALTER SYSTEM SET listen_addresses = '127.0.0.1'" >/dev/null
        as_root pg_ctlcluster "$VERSION" main restart
        for _ in $(seq 1 100); do
            as_postgres psql -qAt -p "$PORT" -c 'SELECT 1' >/dev/null 2>&1 && break
            sleep 0.1
        done
    fi
    as_postgres psql -qAt -p "$PORT" -v ON_ERROR_STOP=1 -v password="$PASSWORD" >/dev/null <<'SQL'
SELECT 'CREATE ROLE limen LOGIN CREATEDB' WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'limen') \gexec
ALTER ROLE limen PASSWORD :'password';
SELECT 'CREATE DATABASE limen OWNER limen' WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = 'limen') \gexec
SQL
    # What the tests will do: log in as limen over TCP. Fail here, with PostgreSQL's reason, rather than in every test.
    if ! PGPASSWORD="$PASSWORD" psql -qAt -h 127.0.0.1 -p "$PORT" -U limen -d limen -c 'SELECT 1' >/dev/null; then
        log "error: cannot log in as limen on 127.0.0.1:$PORT"
        exit 1
    fi
    log "ready on 127.0.0.1:$PORT"
}

# Only the URL may reach stdout, which callers capture: pg_ctlcluster and systemctl print notices there, so everything
# else goes to stderr. (Not through a copy of stdout on another descriptor: the server started here would inherit it
# and hold the caller's capture open for ever.)
prepare >&2
echo "postgres://limen:$PASSWORD@127.0.0.1:$PORT/limen?sslmode=disable"
