#!/usr/bin/env bash
# Install headless Chromium, its WebDriver, Selenium and axe-core-python for the hosted-pages browser tests. Idempotent.
set -euo pipefail
log() { echo "chromium/install: $*" >&2; }
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

if command -v chromium >/dev/null && [ -x /usr/bin/chromedriver ]; then
    log "chromium and chromedriver already installed"
else
    as_root apt-get update -qq
    DEBIAN_FRONTEND=noninteractive as_root apt-get install -y -qq --no-install-recommends chromium chromium-driver \
        >/dev/null
fi
if python3 -c "import selenium, axe_core_python" 2>/dev/null; then
    log "selenium and axe-core-python already installed"
else
    python3 -m pip install --quiet selenium axe-core-python
fi
log "done"
