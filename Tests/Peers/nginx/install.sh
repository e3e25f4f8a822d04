#!/usr/bin/env bash
# Install nginx (Debian package) as the reverse proxy of Limen Server's scale test. Idempotent.
# The test writes its own configuration and starts nginx itself; the system service is not used.
set -euo pipefail
log() { echo "nginx/install: $*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if command -v nginx >/dev/null || [ -x /usr/sbin/nginx ]; then
    log "already installed"
    exit 0
fi
as_root apt-get update -qq
# policy-rc.d 101: the package must not start the system nginx (port 80) on this machine.
POLICY=/usr/sbin/policy-rc.d
if [ ! -e "$POLICY" ]; then
    printf '#!/bin/sh\nexit 101\n' | as_root tee "$POLICY" >/dev/null
    as_root chmod 755 "$POLICY"
    trap 'as_root rm -f "$POLICY"' EXIT
fi
DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends nginx-light >/dev/null \
    || DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends nginx >/dev/null
log "done"
