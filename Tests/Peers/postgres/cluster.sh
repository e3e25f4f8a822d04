#!/usr/bin/env bash
# A PostgreSQL cluster of one test's own, which that test may stop and start again (the cluster start.sh prepares,
# which every other test shares, is never restarted): TCP on 127.0.0.1 only, a superuser `limen` that logs in with a
# password (scram-sha-256, as the server's URL needs), its files, log included, in a folder the test gives.
#
# Usage: cluster.sh create DIR PORT   makes the cluster in DIR/data, the password read from DIR/password, and starts it
#        cluster.sh start DIR         starts it; returns once it accepts connections
#        cluster.sh stop DIR MODE     stops it with pg_ctl -m MODE (fast: as an administrator's restart; immediate)
#
# PostgreSQL refuses to run as root, and CI runs as root: then initdb and pg_ctl run as the postgres user (install.sh's
# package makes it), who is given DIR.
set -euo pipefail
log() { echo "postgres/cluster: $*" >&2; }
as_server() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

# The newest Debian version's programs, else those on PATH.
BIN=$(find /usr/lib/postgresql -mindepth 2 -maxdepth 2 -name bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$BIN" ] || [ ! -x "$BIN/pg_ctl" ]; then
    command -v pg_ctl >/dev/null || { log "error: initdb and pg_ctl are missing (run install.sh)"; exit 1; }
    BIN=$(dirname "$(command -v pg_ctl)")
fi

COMMAND=${1:?usage: cluster.sh create DIR PORT | start DIR | stop DIR MODE}
DIR=${2:?the folder of the cluster}
case "$COMMAND" in
create)
    PORT=${3:?the port}
    if [ "$(id -u)" -eq 0 ]; then chown -R postgres: "$DIR"; fi
    as_server "$BIN/initdb" -D "$DIR/data" -U limen --pwfile="$DIR/password" --auth=scram-sha-256 -E UTF8 --no-sync \
        >/dev/null
    # Room for two nodes' pools and the test's own stores.
    cat >>"$DIR/data/postgresql.conf" <<CONF

port = $PORT
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
max_connections = 40
CONF
    exec "$0" start "$DIR"
    ;;
start)
    # pg_ctl leaves postgres running with every descriptor this script inherited; a caller that watches one of them to
    # learn when the script exits (Foundation's Process does) would wait for the database to stop. Close them first.
    for fd in /proc/self/fd/*; do
        n=${fd##*/}
        if [ "$n" -gt 2 ]; then eval "exec $n>&-" 2>/dev/null || true; fi
    done
    as_server "$BIN/pg_ctl" -D "$DIR/data" -l "$DIR/postgres.log" -w -t 60 start >/dev/null
    ;;
stop)
    as_server "$BIN/pg_ctl" -D "$DIR/data" -m "${3:?the shutdown mode}" -w -t 60 stop >/dev/null
    ;;
*)
    log "error: unknown command $COMMAND"
    exit 2
    ;;
esac
