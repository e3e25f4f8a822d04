#!/usr/bin/env bash
# Builds the SDK's DocC documentation (Limen, LimenOIDC, LimenWire, LimenLoopback, LimenNIOTransport) with warnings as
# errors, so a renamed symbol or a broken link in a doc comment or article fails CI. The archives land in
# .build/plugins/Swift-DocC/outputs/. The articles' Swift examples are compiled and compared with the articles by
# Tests/LimenExamplesTests. A link to another module's symbol is written in single backticks: DocC cannot resolve it.
set -euo pipefail
cd "$(dirname "$0")/.."

swift package generate-documentation \
    --target Limen --target LimenOIDC --target LimenWire --target LimenLoopback --target LimenNIOTransport \
    --warnings-as-errors --disable-indexing "$@"
