#!/usr/bin/env bash
# Limen Server benchmarks (issue 3 §9). Not a test: neither `swift test` nor `.ci/run` runs it.
#
# Usage: Server/Benchmarks/run.sh            (from anywhere; prints Markdown tables for BENCHMARKS.md on stdout)
#
# Builds limen-server in release, installs wrk (Debian) if missing, then for SQLite and for PostgreSQL (a fresh
# database on the cluster of Tests/Peers/postgres/start.sh) starts the server on a free loopback port with
# `--post-rate-limit off --authorize-rate-limit off --sign-in-rate-limit off --log-level error`, adds a user and a confidential first-party client, and per run measures:
#   - the refresh grant with wrk (one connection per thread, each thread its own rotating token chain: refresh.lua),
#     sampling the server's VmRSS from /proc once a second meanwhile;
#   - introspection of an access token by the confidential client with wrk (introspect.lua);
#   - the signed-in user's profile (issue 12 §4), right after the introspection: GET /v1/me/data (profile_read.lua) and
#     PATCH /v1/me/data, a merge patch changing one field each time (profile_write.lua), with the access token;
#   - sign-in with a browser session (authorize -> code -> token), timed from Python (flows.py);
#   - native email + password sign-in flows (issue 10 §5): timed one after another from Python, the ID token validated
#     (native_flow.py), and as many as wrk completes (native_flows.lua); the user's password hash is replaced by the
#     cheapest scrypt hash first (N = 2), so the flows measure everything but the password hash;
#   - anonymous sign-in (issue 11 §4: start pressing the guest button -> code -> token, a new user each time): timed
#     one after another from Python (native_flow.py --flow anonymous) and as many as wrk completes (native_flows.lua with
#     BENCH_FLOW=anonymous).
#   - RFC 8693 token exchange of ES256 ID tokens of a stand-in issuer (exchange_issuer.py, a trusted issuer by
#     discovery; its keys cached after the first exchange) by a public client, with wrk (exchange.lua), each request
#     with a token of its own (minted before the run): Limen exchanges a subject token once.
#   - phone-code sign-in (issue 22 §5: start -> number -> code -> token, a new number and account each time, each
#     flow from an X-Forwarded-For address of its own, 127.0.0.1 trusted as a proxy), as many as wrk completes
#     (phone_flows.lua), the codes read from the server's log (sms_url log:; this mode alone runs the server at
#     --log-level notice so that the SMS lines are written).
#   - DPoP-bound refresh (issue 23 §7, BENCH_ONLY=dpop only): the refresh grant of the public client bench-dpop
#     (registered --require-dpop) with wrk (refresh.lua with BENCH_PROOFS), each request with a DPoP proof of its own
#     (ES256, a jti each, iat at minting) minted just before the run by dpop_tokens.py, right after the same refresh
#     grant of the public client bench-public without proofs (the bearer refresh), both chains started by password
#     sign-ins (dpop_tokens.py tokens); reported side by side with the ratio. The proofs are minted with one iat
#     before the run, so this mode starts the server with --dpop-proof-max-age 5m (the default is 60 s); it then
#     remembers each proof's jti for 310 s, at most 700,000 of them (dpop_replay_cache_size), restarts the server
#     before each run and mints 1.5 × as many proofs as the bearer run answered, at most 95,000 (more than ~4,700/s
#     over 20 s would run out: the threads then resend proofs and the replays count as non-2xx); BENCH_DURATION must
#     be ≤ 240 s (a
#     proof's iat must be under 300 s old).
#   - passkey sign-ins (issue 23 §7, BENCH_ONLY=passkey only): start -> assertion -> code -> token, usernameless, from
#     Python (passkey_flows.py, BENCH_THREADS processes, each one flow after another, for BENCH_DURATION seconds;
#     wrk's Lua cannot sign ECDSA): one ES256 passkey registered per run through passkey-register with a bearer from a
#     password sign-in, every flow asserting with it, counter 0 (a synced passkey). Reports flows/s, p50/p90/p99 of a
#     flow, and the CPU of the driver's processes and of the server in cores, to tell whether the driver is the limit.
# The assertion check against a bare P-256 verify is not here: `swift run -c release LimenServerBenchmarks` in Server/.
# glewlwyd (Tests/Peers/glewlwyd) is measured side by side for refresh and introspection.
# Environment: BENCH_DURATION (seconds per wrk run, default 20), BENCH_RUNS (default 2), BENCH_THREADS (wrk threads =
# connections, default 4; 16 for the phone-code sign-ins: a flow's two dozen writes each wait for their commit, one
# after another, so the load is in the number of flows at once, whose commits SQLite's group commit shares), BENCH_SIGNINS (timed sign-ins per run, default 300), BENCH_TARGETS (default
# "sqlite postgres glewlwyd"), BENCH_BIN (a limen-server binary to use instead of building one), BENCH_ONLY
# ("introspect": only the introspection measure, no refresh load, RSS samples or timed sign-ins; "refresh": the
# refresh load, its RSS samples and the sign-ins, no introspection, e.g. to compare two builds; "flows": only the
# native flows; "anonymous": only the anonymous sign-ins; "exchange": only the token exchange; "phone": only the
# phone-code sign-ins; "dpop": only the DPoP-bound refresh beside the bearer refresh; "passkey": only the passkey
# sign-ins; default: all but the phone-code sign-ins, the DPoP-bound refresh and the passkey sign-ins, which need
# their own server restarts or drivers). BENCH_TARGETS defaults to "sqlite" for dpop and passkey (glewlwyd has
# neither).
# Diagnostics go to stderr; the work folder is removed at the end.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
DURATION=${BENCH_DURATION:-20}
RUNS=${BENCH_RUNS:-2}
THREADS=${BENCH_THREADS:-4}
SIGNINS=${BENCH_SIGNINS:-300}
TARGETS=${BENCH_TARGETS:-sqlite postgres glewlwyd}
ONLY=${BENCH_ONLY:-}
case "$ONLY" in
    "" | introspect | refresh | flows | anonymous | exchange | phone | dpop | passkey) ;;
    *) echo "bench: BENCH_ONLY must be empty, introspect, refresh, flows, anonymous, exchange, phone, dpop or passkey" >&2
       exit 1 ;;
esac
case "$ONLY" in introspect | flows | anonymous | exchange | phone | dpop | passkey) SIGNINS=0 ;; esac
case "$ONLY" in dpop | passkey) TARGETS=${BENCH_TARGETS:-sqlite} ;; esac
if [ "$ONLY" = dpop ] && [ "$DURATION" -gt 240 ]; then
    echo "bench: BENCH_DURATION must be at most 240 s for dpop (a proof's iat must be under 300 s old)" >&2
    exit 1
fi
[ "$ONLY" != phone ] || THREADS=${BENCH_THREADS:-16}
WORK=$(mktemp -d)
RESULTS="$WORK/results.jsonl"
EMAIL=bench@example.test
PASSWORD=$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')
REDIRECT_URI=http://127.0.0.1:9/callback
SERVER_PID=""
ISSUER_PID=""
EXCHANGE_ISSUER=""
EXCHANGE_AUDIENCE=limen-bench
POSTGRES_ADMIN_URL=""
POSTGRES_DATABASE=""
GLEWLWYD_DIR=""

log() { echo "bench: $*" >&2; }
die() { log "error: $*"; exit 1; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }
free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

cleanup() {
    stop_server
    [ -z "$ISSUER_PID" ] || { kill "$ISSUER_PID" 2>/dev/null || true; wait "$ISSUER_PID" 2>/dev/null || true; }
    [ -z "$GLEWLWYD_DIR" ] || bash "$ROOT/Tests/Peers/glewlwyd/stop.sh" "$GLEWLWYD_DIR" >/dev/null 2>&1 || true
    if [ -n "$POSTGRES_DATABASE" ]; then
        psql -qAt "$POSTGRES_ADMIN_URL" -c "DROP DATABASE IF EXISTS $POSTGRES_DATABASE" >/dev/null 2>&1 || true
    fi
    rm -rf "$WORK"
}
trap cleanup EXIT

stop_server() {
    [ -n "$SERVER_PID" ] || return 0
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=""
}

build() {
    if [ -n "${BENCH_BIN:-}" ]; then
        BIN=$BENCH_BIN
    else
        log "building limen-server (release)"
        swift build -c release --package-path "$ROOT/Server" --product limen-server >&2
        BIN="$(swift build -c release --package-path "$ROOT/Server" --show-bin-path)/limen-server"
    fi
    [ -x "$BIN" ] || die "no binary at $BIN"
    if ! command -v wrk >/dev/null; then
        log "installing wrk"
        as_root apt-get install -y -q wrk >&2
    fi
}

# Records one result line: record RUN TARGET MEASURE JSON
record() { echo "{\"run\":$1,\"target\":\"$2\",\"measure\":\"$3\",\"data\":$4}" >> "$RESULTS"; }

# Runs wrk against URL with SCRIPT and prints the BENCH json line of report.lua: wrk_json SCRIPT URL
wrk_json() {
    local output
    output=$(BENCH_LUA_DIR="$HERE" wrk -t "$THREADS" -c "$THREADS" -d "${DURATION}s" --latency --timeout 5s \
        -s "$HERE/$1" "$2")
    echo "$output" >&2
    echo "$output" | sed -n 's/^BENCH //p'
}

# VmRSS of PID in kB, once a second, until killed: sample_rss PID FILE
sample_rss() {
    while kill -0 "$1" 2>/dev/null; do
        awk '/^VmRSS/ { print $2 }' "/proc/$1/status" >> "$2" 2>/dev/null || true
        sleep 1
    done
}

# The refresh measure with RSS sampling: refresh_run RUN TARGET URL BASIC PID TOKENS_FILE
refresh_run() {
    local rss="$WORK/rss-$2-$1" sampler json
    : > "$rss"
    sample_rss "$5" "$rss" &
    sampler=$!
    json=$(BENCH_TOKENS="$6" BENCH_BASIC="$4" wrk_json refresh.lua "$3")
    kill "$sampler" 2>/dev/null || true
    wait "$sampler" 2>/dev/null || true
    record "$1" "$2" refresh "$json"
    record "$1" "$2" rss "[$(paste -sd, "$rss")]"
}

profile_run() { # RUN TARGET ISSUER ACCESS_TOKEN
    log "$2 run $1: profile reads and writes"
    record "$1" "$2" profile_read "$(BENCH_TOKEN="$4" wrk_json profile_read.lua "$3/v1/me/data")"
    record "$1" "$2" profile_write "$(BENCH_TOKEN="$4" wrk_json profile_write.lua "$3/v1/me/data")"
}

introspect_run() { # RUN TARGET URL BASIC ACCESS_TOKEN
    local active
    log "$2 run $1: load average before introspection $(cut -d' ' -f1-3 /proc/loadavg)"
    active=$(curl -fsS -H "Authorization: $4" --data-urlencode "token=$5" "$3")
    case "$active" in
        *'"active":true'* | *'"active": true'*) ;;
        *) die "$2: the access token is not active: $active" ;;
    esac
    record "$1" "$2" introspect "$(BENCH_TOKEN="$5" BENCH_BASIC="$4" wrk_json introspect.lua "$3")"
}

limen_flows() { # ISSUER SECRET COUNT TIMING
    python3 "$HERE/flows.py" limen --issuer "$1" --client-id bench --client-secret="$2" \
        --redirect-uri "$REDIRECT_URI" --email "$EMAIL" --password "$PASSWORD" --count "$3" --timing "$4"
}

# Stores the cheapest scrypt hash of $PASSWORD as every benchmark user's: cheap_hash DATA_DIR [DATABASE_URL]
cheap_hash() {
    local hash
    hash=$(cd "$HERE" && python3 native_flow.py cheap-hash --password "$PASSWORD")
    if [ $# -lt 2 ]; then
        python3 -c 'import sqlite3, sys; c = sqlite3.connect(sys.argv[1]); c.execute(
            "UPDATE users SET password_hash = ?", sys.argv[2:]); c.commit()' "$1/limen.sqlite" "$hash"
    else
        psql -qAt "$2" -c "UPDATE users SET password_hash = '$hash'" >/dev/null
    fi
}

# The native flows, timed and under wrk load: native_run RUN TARGET ISSUER
native_run() {
    local timing
    log "$2 run $1: native flows"
    timing=$(cd "$HERE" && python3 native_flow.py time --issuer "$3" --client-id limen-cli \
        --redirect-uri http://127.0.0.1/callback --email "$EMAIL" --password "$PASSWORD" --timing "${BENCH_FLOWS:-300}")
    record "$1" "$2" native "$(echo "$timing" | field 'json.dumps(d["timing_ms"])')"
    local output
    output=$(cd "$HERE" && BENCH_LUA_DIR="$HERE" BENCH_PASSWORD="$PASSWORD" \
        BENCH_CLIENT_ID=limen-cli BENCH_REDIRECT_URI=http://127.0.0.1/callback \
        wrk -t "$THREADS" -c "$THREADS" -d "${DURATION}s" --latency --timeout 5s -s native_flows.lua "$3")
    echo "$output" >&2
    record "$1" "$2" native_load "$(echo "$output" | sed -n 's/^FLOWS //p')"
}

# Anonymous sign-ins, timed and under wrk load: anonymous_run RUN TARGET ISSUER
anonymous_run() {
    local timing output
    log "$2 run $1: anonymous sign-ins"
    timing=$(cd "$HERE" && python3 native_flow.py time --flow anonymous --issuer "$3" --client-id limen-cli \
        --redirect-uri http://127.0.0.1/callback --timing "${BENCH_FLOWS:-300}")
    record "$1" "$2" anonymous "$(echo "$timing" | field 'json.dumps(d["timing_ms"])')"
    output=$(cd "$HERE" && BENCH_LUA_DIR="$HERE" BENCH_FLOW=anonymous BENCH_CLIENT_ID=limen-cli \
        BENCH_REDIRECT_URI=http://127.0.0.1/callback \
        wrk -t "$THREADS" -c "$THREADS" -d "${DURATION}s" --latency --timeout 5s -s native_flows.lua "$3")
    echo "$output" >&2
    record "$1" "$2" anonymous_load "$(echo "$output" | sed -n 's/^FLOWS //p')"
}

# Phone-code sign-ins under wrk load, each code read from the server's log: phone_run RUN TARGET ISSUER
phone_run() {
    local output
    log "$2 run $1: phone-code sign-ins"
    output=$(cd "$HERE" && BENCH_LUA_DIR="$HERE" BENCH_CLIENT_ID=limen-cli BENCH_REDIRECT_URI=http://127.0.0.1/callback \
        BENCH_SMS_LOG="$WORK/server-$2.log" \
        wrk -t "$THREADS" -c "$THREADS" -d "${DURATION}s" --latency --timeout 5s -s phone_flows.lua "$3")
    echo "$output" >&2
    record "$1" "$2" phone_load "$(echo "$output" | sed -n 's/^FLOWS //p')"
}

# Starts the stand-in issuer and sets EXCHANGE_ISSUER and EXCHANGE_PORT; its signing key is in $WORK/issuer-key.pem
start_issuer() {
    EXCHANGE_PORT=$(free_port)
    python3 "$HERE/exchange_issuer.py" --port "$EXCHANGE_PORT" --audience "$EXCHANGE_AUDIENCE" \
        --key-file "$WORK/issuer-key.pem" --token-file "$WORK/subject-token" >&2 &
    ISSUER_PID=$!
    for _ in $(seq 1 100); do
        [ -s "$WORK/subject-token" ] && curl -fs -o /dev/null "http://127.0.0.1:$EXCHANGE_PORT/jwks" && break
        kill -0 "$ISSUER_PID" 2>/dev/null || die "the stand-in issuer exited"
        sleep 0.1
    done
    [ -s "$WORK/subject-token" ] || die "the stand-in issuer wrote no token"
    EXCHANGE_ISSUER="http://127.0.0.1:$EXCHANGE_PORT"
}

# The subject tokens a run may send, each exchanged once: more than wrk sends in DURATION seconds at 4,000/s.
EXCHANGE_TOKENS=$((4000 * DURATION + 1))

# Token exchange of the stand-in issuer's ID tokens under wrk load, a token of its own per request (Limen exchanges a
# subject token once): exchange_run RUN TARGET ISSUER
exchange_run() {
    local first tokens="$WORK/subject-tokens-$1-$2"
    log "$2 run $1: token exchange (minting $EXCHANGE_TOKENS subject tokens first)"
    python3 "$HERE/exchange_issuer.py" --mint --port "$EXCHANGE_PORT" --audience "$EXCHANGE_AUDIENCE" \
        --key-file "$WORK/issuer-key.pem" --token-file "$tokens" --tokens "$EXCHANGE_TOKENS"
    first=$(curl -sS -d grant_type=urn:ietf:params:oauth:grant-type:token-exchange -d client_id=bench-exchange \
        -d subject_token_type=urn:ietf:params:oauth:token-type:id_token \
        --data-urlencode "subject_token=$(head -n 1 "$tokens")" "$3/token")
    case "$first" in
        *'"refresh_token"'*) ;;
        *) die "$2: the token exchange failed: $first" ;;
    esac
    record "$1" "$2" exchange "$(BENCH_SUBJECT_TOKENS="$tokens" BENCH_THREADS="$THREADS" \
        BENCH_CLIENT_ID=bench-exchange wrk_json exchange.lua "$3/token")"
    rm -f "$tokens"
}

# Refresh tokens of COUNT password sign-ins of public client CLIENT_ID, bound to KEY_FILE's key when given:
# sign_in_tokens ISSUER CLIENT_ID COUNT [KEY_FILE]
sign_in_tokens() {
    (cd "$HERE" && python3 dpop_tokens.py tokens --issuer "$1" --client-id "$2" --redirect-uri http://127.0.0.1/callback \
        --email "$EMAIL" --password "$PASSWORD" --count "$3" ${4:+--key-file "$4"})
}

# The bearer refresh of public client bench-public, then the DPoP-bound refresh of bench-dpop, each request with a
# proof of its own minted just before the run: dpop_run RUN TARGET ISSUER
dpop_run() {
    local bearer_json proofs_count proofs="$WORK/proofs" key="$WORK/dpop-key.pem"
    log "$2 run $1: bearer refresh of a public client"
    sign_in_tokens "$3" bench-public "$THREADS" > "$WORK/bearer-tokens"
    sign_in_tokens "$3" bench-dpop "$THREADS" "$key" > "$WORK/dpop-tokens"
    bearer_json=$(BENCH_TOKENS="$WORK/bearer-tokens" BENCH_CLIENT_ID=bench-public wrk_json refresh.lua "$3/token")
    record "$1" "$2" refresh_bearer "$bearer_json"
    proofs_count=$(echo "$bearer_json" | field "min(95000, int(1.5 * d['rps'] * $DURATION) + 1000)")
    log "$2 run $1: DPoP-bound refresh (minting $proofs_count proofs first)"
    (cd "$HERE" && python3 dpop_tokens.py mint --issuer "$3" --key-file "$key" --count "$proofs_count") > "$proofs"
    record "$1" "$2" refresh_dpop "$(BENCH_TOKENS="$WORK/dpop-tokens" BENCH_CLIENT_ID=bench-dpop \
        BENCH_PROOFS="$proofs" BENCH_THREADS="$THREADS" wrk_json refresh.lua "$3/token")"
    rm -f "$proofs"
}

# Passkey sign-ins from Python processes, one passkey registered first: passkey_run RUN TARGET ISSUER
passkey_run() {
    log "$2 run $1: passkey sign-ins ($THREADS processes)"
    record "$1" "$2" passkey_load "$(cd "$HERE" && python3 passkey_flows.py --issuer "$3" --client-id limen-cli \
        --redirect-uri http://127.0.0.1/callback --email "$EMAIL" --password "$PASSWORD" --processes "$THREADS" \
        --duration "$DURATION" --server-pid "$SERVER_PID")"
}

# Prints a Python expression of the JSON object `d` read from stdin: field EXPRESSION
field() { python3 -c "import json, sys; d = json.load(sys.stdin); print($1)"; }

# Starts limen-server with bench_limen's settings (its locals store, port, issuer, target, logging) and waits for it
start_server() {
    "$BIN" "${store[@]}" --config "$WORK/config.yaml" --port "$port" --post-rate-limit off --authorize-rate-limit off \
        --sign-in-rate-limit off "${logging[@]}" "${proof_age[@]}" >>"$WORK/server-$target.log" 2>&1 &
    SERVER_PID=$!
    for _ in $(seq 1 100); do
        curl -fs -o /dev/null "$issuer/.well-known/openid-configuration" && break
        kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/server-$target.log" >&2; die "$target: server exited"; }
        sleep 0.1
    done
    log "$target: limen-server pid $SERVER_PID on $issuer"
}

bench_limen() { # TARGET (SQLite|PostgreSQL) [DATABASE_URL]
    local target=$1 data="$WORK/data-$1" port issuer secret basic flows run tokens="$WORK/tokens"
    local -a store=(--data-dir "$data")
    [ $# -lt 2 ] || store+=(--database "$2")
    mkdir -p "$data"
    printf '%s\n' "$PASSWORD" | "$BIN" users add "${store[@]}" --email "$EMAIL" --verified >&2
    for index in $(seq 1 "$THREADS"); do # the native flows' users, one per connection
        printf '%s\n' "$PASSWORD" | "$BIN" users add "${store[@]}" --email "flow-$index@example.test" --verified >&2
    done
    "$BIN" clients add "${store[@]}" --id bench-exchange --native --redirect-uri http://127.0.0.1/callback \
        --grant-type urn:ietf:params:oauth:grant-type:token-exchange --grant-type refresh_token >&2
    "$BIN" clients add "${store[@]}" --id bench-public --native --first-party --redirect-uri http://127.0.0.1/callback >&2
    "$BIN" clients add "${store[@]}" --id bench-dpop --native --first-party --require-dpop \
        --redirect-uri http://127.0.0.1/callback >&2
    secret=$("$BIN" clients add "${store[@]}" --id bench --redirect-uri "$REDIRECT_URI" --first-party |
        sed -n 's/^client_secret: //p')
    [ -n "$secret" ] || die "$target: no client secret printed"
    cheap_hash "$data" "${@:2}"
    basic=$(cd "$HERE" && python3 -c 'import flows, sys; print(flows.basic_header(*sys.argv[1:]))' bench "$secret")
    port=$(free_port)
    issuer="http://127.0.0.1:$port"
    [ -n "$ISSUER_PID" ] || start_issuer
    printf 'profile_schema:\n  fields:\n    nickname: {type: string, display_name: Nickname}\n' > "$WORK/config.yaml"
    printf 'trusted_issuers:\n  - {issuer: "%s", audiences: [%s], algorithms: [ES256]}\n' \
        "$EXCHANGE_ISSUER" "$EXCHANGE_AUDIENCE" >> "$WORK/config.yaml"
    local -a logging=(--log-level error)
    [ "$ONLY" != phone ] || logging=(--log-level notice --trusted-proxy 127.0.0.1)
    local -a proof_age=()
    [ "$ONLY" != dpop ] || proof_age=(--dpop-proof-max-age 5m) # the proofs are minted before the run
    start_server
    for run in $(seq 1 "$RUNS"); do
        if [ "$ONLY" = dpop ]; then # a server of its own per run: an empty DPoP replay cache
            [ "$run" -eq 1 ] || { stop_server; start_server; }
            dpop_run "$run" "$target" "$issuer"
            continue
        fi
        if [ "$ONLY" = passkey ]; then
            passkey_run "$run" "$target" "$issuer"
            continue
        fi
        if [ "$ONLY" = anonymous ]; then
            anonymous_run "$run" "$target" "$issuer"
            continue
        fi
        if [ "$ONLY" = phone ]; then
            phone_run "$run" "$target" "$issuer"
            continue
        fi
        if [ "$ONLY" = exchange ]; then
            exchange_run "$run" "$target" "$issuer"
            continue
        fi
        native_run "$run" "$target" "$issuer"
        [ -n "$ONLY" ] || anonymous_run "$run" "$target" "$issuer"
        [ "$ONLY" != flows ] || continue
        exchange_run "$run" "$target" "$issuer"
        flows=$(limen_flows "$issuer" "$secret" "$THREADS" "$SIGNINS")
        if [ "$ONLY" != introspect ]; then
            if [ "$SIGNINS" -gt 0 ]; then
                record "$run" "$target" signin "$(echo "$flows" | field 'json.dumps(d["timing_ms"])')"
            fi
            echo "$flows" | field '"\n".join(d["refresh_tokens"])' > "$tokens"
            log "$target run $run: refresh"
            refresh_run "$run" "$target" "$issuer/token" "$basic" "$SERVER_PID" "$tokens"
        fi
        [ "$ONLY" != refresh ] || continue
        log "$target run $run: introspection"
        introspect_run "$run" "$target" "$issuer/introspect" "$basic" "$(echo "$flows" | field 'd["access_token"]')"
        profile_run "$run" "$target" "$issuer" "$(echo "$flows" | field 'd["access_token"]')"
    done
    stop_server
}

bench_glewlwyd() {
    local port peer flows basic pid run tokens="$WORK/tokens"
    GLEWLWYD_DIR="$WORK/glewlwyd"
    port=$(free_port)
    bash "$ROOT/Tests/Peers/glewlwyd/start.sh" --port "$port" --dir "$GLEWLWYD_DIR" > /dev/null
    peer="$GLEWLWYD_DIR/peer.json"
    pid=$(cat "$GLEWLWYD_DIR/glewlwyd.pid")
    for run in $(seq 1 "$RUNS"); do
        flows=$(python3 "$HERE/flows.py" glewlwyd --peer-json "$peer")
        basic=$(echo "$flows" | field 'd["basic"]')
        if [ "$ONLY" != introspect ]; then
            echo "$flows" | field 'd["refresh_tokens"][0]' > "$tokens"
            log "glewlwyd run $run: refresh"
            refresh_run "$run" glewlwyd "http://127.0.0.1:$port/api/oidc/token" "$basic" "$pid" "$tokens"
        fi
        [ "$ONLY" != refresh ] || continue
        log "glewlwyd run $run: introspection"
        introspect_run "$run" glewlwyd "http://127.0.0.1:$port/api/oidc/introspect" "$basic" \
            "$(echo "$flows" | field 'd["access_token"]')"
    done
    bash "$ROOT/Tests/Peers/glewlwyd/stop.sh" "$GLEWLWYD_DIR" >/dev/null 2>&1 || true
    GLEWLWYD_DIR=""
}

main() {
    build
    for target in $TARGETS; do
        case "$target" in
            sqlite) bench_limen SQLite ;;
            postgres)
                POSTGRES_ADMIN_URL=$(bash "$ROOT/Tests/Peers/postgres/start.sh")
                POSTGRES_DATABASE="limen_bench_$$"
                psql -qAt "$POSTGRES_ADMIN_URL" -c "CREATE DATABASE $POSTGRES_DATABASE" >/dev/null
                bench_limen PostgreSQL "$(echo "$POSTGRES_ADMIN_URL" | sed "s#/limen?#/$POSTGRES_DATABASE?#")"
                ;;
            glewlwyd) bench_glewlwyd ;;
            *) die "unknown target $target" ;;
        esac
    done
    python3 "$HERE/report.py" --duration "$DURATION" --threads "$THREADS" "$RESULTS"
}

main
