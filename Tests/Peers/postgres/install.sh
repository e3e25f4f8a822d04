#!/usr/bin/env bash
# Install PostgreSQL (Debian package) for Limen Server's store tests and scale test. Idempotent.
set -euo pipefail
log() { echo "postgres/install: $*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if command -v pg_ctlcluster >/dev/null && ls /etc/postgresql/*/main >/dev/null 2>&1; then
    log "already installed"
    exit 0
fi
as_root apt-get update -qq
DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends postgresql >/dev/null
log "done"
