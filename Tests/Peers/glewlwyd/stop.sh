#!/usr/bin/env bash
# Stop a glewlwyd started by start.sh.  Usage: stop.sh DIR
# Sends SIGTERM to the PID in DIR/glewlwyd.pid, waits up to 5 s, then SIGKILL.
# Exits 0 if the server is (now) stopped, also when it was not running.
set -euo pipefail

TIMEOUT=5
log() { echo "glewlwyd/stop: $*" >&2; }

wait_for_exit() { # pid timeout-seconds
    local deadline=$((SECONDS + $2))
    while kill -0 "$1" 2>/dev/null; do
        [ "$SECONDS" -lt "$deadline" ] || return 1
        sleep 0.05
    done
}

main() {
    [ $# -eq 1 ] || { echo "usage: $0 DIR" >&2; exit 2; }
    local pidfile="$1/glewlwyd.pid" pid
    if [ ! -f "$pidfile" ]; then
        log "no $pidfile, nothing to stop"
        exit 0
    fi
    pid=$(cat "$pidfile")
    [[ "$pid" =~ ^[0-9]+$ ]] || { log "bad pid file $pidfile"; exit 1; }
    # Only signal the process if it really is a glewlwyd (the PID may have been reused).
    if kill -0 "$pid" 2>/dev/null && grep -q glewlwyd "/proc/$pid/comm" 2>/dev/null; then
        kill "$pid"
        if ! wait_for_exit "$pid" "$TIMEOUT"; then
            log "pid $pid did not exit after ${TIMEOUT}s, sending SIGKILL"
            kill -9 "$pid" 2>/dev/null || true
            wait_for_exit "$pid" 2 || { log "pid $pid still alive"; exit 1; }
        fi
        log "stopped pid $pid"
    else
        log "pid $pid not running"
    fi
    rm -f "$pidfile"
}

main "$@"
