#!/usr/bin/env bash
# Builds the SDK's DocC documentation (Limen, LimenOIDC, LimenLoopback) with warnings as errors, so a renamed symbol
# or a broken link in a doc comment or article fails CI. The archives land in .build/plugins/Swift-DocC/outputs/.
# The articles' Swift examples are compiled and compared with the articles by Tests/LimenExamplesTests.
# LimenWire is not built yet: its UnverifiedJWT links to LimenOIDC's IDTokenValidator, which DocC cannot resolve.
set -euo pipefail
cd "$(dirname "$0")/.."

swift package generate-documentation \
    --target Limen --target LimenOIDC --target LimenWire --target LimenLoopback \
    --warnings-as-errors --disable-indexing "$@"
