#!/usr/bin/env bash
# Start a throw-away glewlwyd OpenID provider on 127.0.0.1 for Limen's end-to-end tests.
#
# Usage: start.sh --port PORT --dir DIR
#
# Creates DIR (fresh SQLite DB, config, keys), starts glewlwyd in the background
# (log: DIR/glewlwyd.log, pid: DIR/glewlwyd.pid), configures the OIDC plugin, a user
# and the Limen test clients through the admin API, then prints ONE JSON object on
# stdout (also written to DIR/peer.json). Diagnostics go to stderr.
# On failure the server is killed, the log tail printed to stderr, exit status non-zero: 75 (EX_TEMPFAIL) when the
# port is taken, so a caller can retry on another port.
# Stop with: stop.sh DIR
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
SCHEMA=/usr/share/doc/glewlwyd/database/init.sqlite3.sql.gz
READY_TIMEOUT=${GLEWLWYD_READY_TIMEOUT:-15}   # seconds to wait for GET /config

PORT=""
DIR=""
PID=""

log() { echo "glewlwyd/start: $*" >&2; }
die() { log "error: $*"; exit 1; }
PORT_TAKEN=75

usage() {
    echo "usage: $0 --port PORT --dir DIR" >&2
    exit 2
}

parse_args() {
    while [ $# -gt 0 ]; do
        case "$1" in
            --port) PORT=${2:-}; shift 2 || usage ;;
            --port=*) PORT=${1#*=}; shift ;;
            --dir) DIR=${2:-}; shift 2 || usage ;;
            --dir=*) DIR=${1#*=}; shift ;;
            -h|--help) usage ;;
            *) echo "unknown argument: $1" >&2; usage ;;
        esac
    done
    [[ "$PORT" =~ ^[0-9]+$ ]] && [ "$PORT" -gt 0 ] && [ "$PORT" -lt 65536 ] || usage
    [ -n "$DIR" ] || usage
}

# Called on any error exit: stop the server we started and show why it failed.
on_exit() {
    local rc=$?
    if [ "$rc" -ne 0 ]; then
        if [ -n "$PID" ] && kill -0 "$PID" 2>/dev/null; then
            kill "$PID" 2>/dev/null || true
            wait_for_exit "$PID" 5 || kill -9 "$PID" 2>/dev/null || true
        fi
        rm -f "$DIR/glewlwyd.pid" "$DIR/peer.json.tmp"
        if [ -f "$DIR/glewlwyd.log" ]; then
            log "---- tail of $DIR/glewlwyd.log ----"
            tail -n 40 "$DIR/glewlwyd.log" >&2 || true
        fi
        log "failed (exit $rc)"
    fi
}

wait_for_exit() { # pid timeout-seconds
    local deadline=$((SECONDS + $2))
    while kill -0 "$1" 2>/dev/null; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.1
    done
}

check_prerequisites() {
    command -v glewlwyd >/dev/null || die "glewlwyd not installed (run install.sh)"
    command -v sqlite3 >/dev/null || die "sqlite3 not installed (run install.sh)"
    command -v python3 >/dev/null || die "python3 not found"
    [ -f "$SCHEMA" ] || die "missing $SCHEMA"
    python3 -c 'import cryptography' 2>/dev/null || die "python3 module 'cryptography' missing"
    if (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null; then
        log "error: port $PORT is already in use on 127.0.0.1"
        exit "$PORT_TAKEN"
    fi
}

prepare_dir() {
    mkdir -p "$DIR"
    DIR=$(cd "$DIR" && pwd)
    if [ -f "$DIR/glewlwyd.pid" ] && kill -0 "$(cat "$DIR/glewlwyd.pid")" 2>/dev/null; then
        die "an instance is already running from $DIR (pid $(cat "$DIR/glewlwyd.pid"))"
    fi
    rm -f "$DIR/glewlwyd.db" "$DIR/glewlwyd.conf" "$DIR/glewlwyd.log" \
          "$DIR/glewlwyd.pid" "$DIR/peer.json"
    chmod 700 "$DIR"
}

# Fresh database from the packaged schema (contains admin/password, g_admin, g_profile, openid).
create_database() {
    zcat "$SCHEMA" | sqlite3 "$DIR/glewlwyd.db"
    # The database client module drops client properties not listed in its data-format:
    # declare the two Limen needs (per-client signing key, RP-initiated logout URIs).
    sqlite3 "$DIR/glewlwyd.db" <<'SQL'
UPDATE g_client_module_instance
   SET gcmi_parameters = json_set(gcmi_parameters,
         '$."data-format".sign_kid',
         json('{"multiple":false,"read":true,"write":true}'),
         '$."data-format".post_logout_redirect_uris',
         json('{"multiple":true,"read":true,"write":true}'))
 WHERE gcmi_name = 'database';
SQL
}

# The login pages (for a real browser). Debian ships the web app's config.json as a link to a folder holding the file,
# so the app would stay on "Loading...". DIR/webapp is a real copy (links resolved, as glewlwyd serves none; ~4.5 MB)
# with the file in its place. Nothing outside DIR is ever written.
WEBAPP=/usr/share/glewlwyd/webapp
prepare_webapp() {
    rm -rf "$DIR/webapp"
    cp -rL "$WEBAPP" "$DIR/webapp"
    if [ -d "$DIR/webapp/config.json" ] && [ ! -L "$DIR/webapp/config.json" ]; then
        rm -rf "$DIR/webapp/config.json"
        cp -L "$WEBAPP/config.json/config.json" "$DIR/webapp/config.json"
    fi
}

# libconfig syntax. Note: do NOT set use_secure_connection=false, glewlwyd then refuses to start.
write_config() {
    cat > "$DIR/glewlwyd.conf" <<CONF
port=$PORT
bind_address="127.0.0.1"
external_url="http://127.0.0.1:$PORT"
login_url="login.html"
api_prefix="api"
static_files_path="$DIR/webapp/"
allow_origin="*"
log_mode="console"
log_level="INFO"
cookie_secure=0
cookie_same_site="empty"
session_expiration=3600
session_key="GLEWLWYD2_SESSION_ID"
admin_session_authentication="cookie"
profile_session_authentication="cookie"
allow_multiple_user_per_session=true
login_api_enabled=true
add_x_frame_option_header_deny=true
max_post_size=16778240
admin_scope="g_admin"
profile_scope="g_profile"
user_module_path="/usr/lib/glewlwyd/user"
user_middleware_module_path="/usr/lib/glewlwyd/user_middleware"
client_module_path="/usr/lib/glewlwyd/client"
user_auth_scheme_module_path="/usr/lib/glewlwyd/scheme"
plugin_module_path="/usr/lib/glewlwyd/plugin"
hash_algorithm="SHA512"
database =
{
  type = "sqlite3"
  path = "$DIR/glewlwyd.db"
};
static_files_mime_types =
(
  { extension = ".html" mime_type = "text/html" compress = 1 },
  { extension = ".css"  mime_type = "text/css" compress = 1 },
  { extension = ".js"   mime_type = "application/javascript" compress = 1 },
  { extension = ".json" mime_type = "application/json" compress = 1 }
)
CONF
}

start_server() {
    # setsid: own process group, so the test runner's Ctrl-C doesn't hit it and stop.sh can find it.
    # Close every inherited descriptor above 2 first: a caller (Foundation's Process, for one) may watch a
    # descriptor it passed down to learn when this script exits, and a daemon holding it would hide the exit.
    (
        for fd in /proc/self/fd/*; do
            n=${fd##*/}
            if [ "$n" -gt 2 ]; then eval "exec $n>&-" 2>/dev/null || true; fi
        done
        exec setsid glewlwyd --config-file="$DIR/glewlwyd.conf" >"$DIR/glewlwyd.log" 2>&1 </dev/null
    ) &
    PID=$!
    echo "$PID" > "$DIR/glewlwyd.pid"
    log "started pid $PID on 127.0.0.1:$PORT"
}

wait_until_ready() {
    local deadline=$((SECONDS + READY_TIMEOUT))
    until curl -fs -o /dev/null --max-time 1 "http://127.0.0.1:$PORT/config"; do
        if ! kill -0 "$PID" 2>/dev/null; then
            if grep -qi 'address already in use' "$DIR/glewlwyd.log" 2>/dev/null; then
                log "error: port $PORT was taken before glewlwyd could bind it"
                exit "$PORT_TAKEN"
            fi
            die "glewlwyd exited during start-up"
        fi
        [ "$SECONDS" -lt "$deadline" ] || die "glewlwyd not ready after ${READY_TIMEOUT}s"
        sleep 0.05
    done
}

configure() {
    python3 "$HERE/lib/configure.py" --port "$PORT" --dir "$DIR" --pid "$PID"
}

main() {
    parse_args "$@"
    trap on_exit EXIT
    local start_ns
    start_ns=$(date +%s%N)
    check_prerequisites
    prepare_dir
    create_database
    prepare_webapp
    write_config
    start_server
    wait_until_ready
    configure > "$DIR/peer.json.tmp"
    mv "$DIR/peer.json.tmp" "$DIR/peer.json"
    chmod 600 "$DIR/peer.json"
    cat "$DIR/peer.json"
    log "ready in $(( ($(date +%s%N) - start_ns) / 1000000 )) ms: http://127.0.0.1:$PORT/api/oidc"
}

main "$@"
