#!/usr/bin/env bash
# Install glewlwyd (Debian package) non-interactively for Limen's end-to-end tests.
# Idempotent: exits 0 immediately when everything is already installed.
# Usage: install.sh            (must run as root, or with sudo available)
set -euo pipefail

PACKAGES=(glewlwyd dbconfig-no-thanks sqlite3 openssl curl)

log() { echo "glewlwyd/install: $*" >&2; }

# Run as root directly, otherwise through sudo.
as_root() {
    if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

is_installed() {
    dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

missing_packages() {
    local p
    for p in "${PACKAGES[@]}"; do
        is_installed "$p" || echo "$p"
    done
}

main() {
    local missing
    missing=$(missing_packages | tr '\n' ' ')
    if [ -z "${missing// /}" ]; then
        log "already installed"
        exit 0
    fi
    log "installing: $missing"
    # Without this pre-seed the package's postinst asks (and fails) about dbconfig.
    echo "glewlwyd glewlwyd/config_type select No configuration" | as_root debconf-set-selections
    # Only refresh the package lists when glewlwyd itself is not installed yet.
    if ! is_installed glewlwyd; then
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
    fi
    # shellcheck disable=SC2086
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $missing >&2
    command -v glewlwyd >/dev/null || { log "glewlwyd binary not found after install"; exit 1; }
    log "done"
}

main "$@"
