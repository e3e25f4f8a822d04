#!/usr/bin/env bash
# Type-checks Limen's Apple-only code on Linux, in Swift 6 with complete concurrency checking, against stand-in
# declarations of Apple's frameworks (Tests/AppleStandIns/<Framework>/, each compiled as the module it is named after).
#
# Checked: the whole of Sources/Limen (so its `#if canImport(Security)` files, the Keychain store among them, compile:
# the stand-in modules make `canImport` true), Sources/LimenApple, Sources/LimenUI (over Sources/LimenUIModel) and the
# documentation's Apple-only examples (Tests/LimenExamplesTests/Examples files naming this script); twice, for the
# two shapes of AuthenticationServices (its presentation and delegate protocols `@MainActor`, as in current SDKs, and
# not, as before Xcode 16: -D LIMEN_STANDIN_NONISOLATED_PRESENTATION).
#
#   bash Scripts/apple-typecheck.sh              # check; exits non-zero on the first error
#   bash Scripts/apple-typecheck.sh --self-test  # plants known mistakes in a copy and checks that each one fails
#
# Needs the package's cross-platform modules: it runs `swift build --target LimenOIDC` and reuses that build's search
# paths (from .build/debug.yaml), so it adds seconds to a CI run that builds anyway.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# LIMEN_APPLE_TYPECHECK: a file using a Foundation API that Linux's Foundation lacks (the stand-ins supply it) compiles
# only on Darwin or here. Cross-import overlays (AuthenticationServices' SwiftUI part, loaded when a file imports both)
# are on by default only on Darwin.
swift_flags=(-swift-version 6 -strict-concurrency=complete -enable-upcoming-feature ExistentialAny -parse-as-library
    -D LIMEN_APPLE_TYPECHECK -Xfrontend -enable-cross-import-overlays)

# The search paths, C module maps and package name SwiftPM used for LimenOIDC, one argument a line.
build_flags() {
    swift build --target LimenOIDC >"$work/build.log" 2>&1 || { cat "$work/build.log" >&2; return 1; }
    python3 - "$root/.build/debug.yaml" >"$work/flags" <<'PY'
import json, re, sys
text = open(sys.argv[1]).read()
at = text.find('"-module-name","LimenOIDC",')
line_start = text.rfind("\n", 0, at) + 1
line = text[line_start:text.find("\n", at)]
args = json.loads(line[line.index("["):])
keep_with_value = {"-I", "-Xcc", "-package-name", "-target", "-sdk", "-module-cache-path", "-resource-dir"}
i = 0
while i < len(args):
    if args[i] in keep_with_value and i + 1 < len(args):
        print(args[i]); print(args[i + 1]); i += 2
    else:
        i += 1
PY
    mapfile -t search <"$work/flags"
}

# Compiles every stand-in folder as a module into $1; passes repeat so that a module importing another (AuthenticationServices
# imports UIKit, SwiftUI may import UIKit and Combine) is compiled after it. Extra arguments go to swiftc.
standins() {
    local out=$1; shift
    mkdir -p "$out"
    local pending=() next=() progress folder name
    for folder in "$root"/Tests/AppleStandIns/*/; do pending+=("$folder"); done
    while [ ${#pending[@]} -gt 0 ]; do
        progress=0; next=()
        for folder in "${pending[@]}"; do
            name=$(basename "$folder")
            # The search paths too: CryptoKit's stand-in re-exports swift-crypto, as Crypto re-exports CryptoKit on Apple's.
            if swiftc -emit-module -module-name "$name" -swift-version 5 -parse-as-library -I "$out" "${search[@]}" "$@" \
                -emit-module-path "$out/$name.swiftmodule" "$folder"*.swift 2>"$work/standin-$name.log"; then
                progress=1
            else
                next+=("$folder")
            fi
        done
        if [ $progress -eq 0 ]; then
            for folder in "${next[@]}"; do cat "$work/standin-$(basename "$folder").log" >&2; done
            echo "apple-typecheck: stand-ins do not compile" >&2
            return 1
        fi
        pending=("${next[@]}")
    done
    # _AuthenticationServices_SwiftUI is the overlay a file importing AuthenticationServices and SwiftUI gets, as on
    # Apple's SDKs: declared beside AuthenticationServices, as they declare it.
    if [ -f "$out/_AuthenticationServices_SwiftUI.swiftmodule" ]; then
        mkdir -p "$out/AuthenticationServices.swiftcrossimport"
        cp "$root/Tests/AppleStandIns/_AuthenticationServices_SwiftUI/SwiftUI.swiftoverlay" \
            "$out/AuthenticationServices.swiftcrossimport/"
    fi
}

# Emits module $1 from the Swift files under $2 into $3, seeing the stand-ins in $4 and the modules in $3.
emit() {
    local name=$1 sources=$2 out=$3 shims=$4
    mapfile -t files < <(find "$sources" -name '*.swift' | sort)
    # $out and the stand-ins first: a developer's .build also holds a Limen module, older than the one emitted here.
    swiftc -emit-module -module-name "$name" "${swift_flags[@]}" -I "$out" -I "$shims" "${search[@]}" \
        -emit-module-path "$out/$name.swiftmodule" "${files[@]}"
}

# Checks the sources under $1 (a copy of Sources/ or Sources/ itself) in the shapes named by $2 (default: both). $3 is
# a Limen module to use instead of emitting one (for a mistake planted outside Limen). Limen does not import
# AuthenticationServices, so the second shape reuses the first one's.
check() {
    local sources=$1 shapes=${2:-"current nonisolated"} limen=${3:-} shape out
    for shape in $shapes; do
        out="$work/$shape"
        if [ ! -d "$out/standins" ]; then
            if [ "$shape" = current ]; then standins "$out/standins" || return 1; else
                standins "$out/standins" -D LIMEN_STANDIN_NONISOLATED_PRESENTATION || return 1
            fi
        fi
        echo "apple-typecheck: $shape shape of AuthenticationServices"
        rm -rf "$out/sdk"; mkdir -p "$out/sdk"
        if [ -z "$limen" ]; then
            emit Limen "$sources/Limen" "$out/sdk" "$out/standins" || return 1
            limen="$work/limen-$shape.swiftmodule"
            cp "$out/sdk/Limen.swiftmodule" "$limen"
        else
            cp "$limen" "$out/sdk/Limen.swiftmodule"
        fi
        emit LimenApple "$sources/LimenApple" "$out/sdk" "$out/standins" || return 1
        emit LimenUIModel "$sources/LimenUIModel" "$out/sdk" "$out/standins" || return 1
        emit LimenUI "$sources/LimenUI" "$out/sdk" "$out/standins" || return 1
        examples "$out/sdk" "$out/standins" || return 1
    done
}

# Type-checks the documentation's Apple-only examples: the files of Tests/LimenExamplesTests/Examples that name this
# script (compiled to nothing on Linux by the test target), against the modules in $1 and the stand-ins in $2.
examples() {
    local out=$1 shims=$2
    mapfile -t files < <(grep -l 'Scripts/apple-typecheck.sh' "$root"/Tests/LimenExamplesTests/Examples/*.swift)
    [ ${#files[@]} -eq 0 ] && return 0
    swiftc -typecheck -module-name LimenAppleExamples "${swift_flags[@]}" -I "$out" -I "$shims" "${search[@]}" \
        "${files[@]}"
}

# Plants each mistake in a fresh copy of Sources/ and requires the check, in the shape named, to fail on it.
self_test() {
    check "$root/Sources"
    local baseline="$work/limen-baseline.swiftmodule" failures=0 label file from to shape copy limen
    cp "$work/limen-current.swiftmodule" "$baseline"
    while IFS='|' read -r label shape file from to; do
        copy="$work/planted"
        rm -rf "$copy"; cp -R "$root/Sources" "$copy"
        python3 - "$copy/$file" "$from" "$to" <<'PY'
import sys
path, old, new = sys.argv[1:]
new = new.replace("\\n", "\n")
text = open(path).read()
if old not in text:
    sys.exit(f"self-test: the text to replace is no longer in {path}: {old}")
open(path, "w").write(text.replace(old, new, 1))
PY
        limen=$baseline
        case "$file" in Limen/*) limen= ;; esac
        if check "$copy" "$shape" "$limen" >"$work/planted.log" 2>&1; then
            echo "apple-typecheck self-test: the planted mistake passed: $label" >&2
            failures=$((failures + 1))
        else
            echo "apple-typecheck self-test: fails as it should: $label ($(grep -m1 -oE '[A-Za-z+]+\.swift:[0-9]+:[0-9]+: error: .*' "$work/planted.log"))"
        fi
    done <<'MISTAKES'
a wrong argument label|current|LimenApple/WebAuthenticationSessionUserAgent.swift|callbackURLScheme: scheme, completionHandler|callbackScheme: scheme, completionHandler
a missing await|current|LimenApple/WebAuthenticationSessionUserAgent.swift|let result = await PresentationAttempt<URL>.run|let result = PresentationAttempt<URL>.run
a non-Sendable capture|current|LimenApple/WebAuthenticationSessionUserAgent.swift|            let completion: @Sendable (URL?, (any Error)?) -> Void = { callbackURL, error in|            final class Scratch { var uses = 0 }\n            let scratch = Scratch()\n            let completion: @Sendable (URL?, (any Error)?) -> Void = { callbackURL, error in\n                scratch.uses += 1
a main-actor conformance without @preconcurrency on an SDK whose protocol is not isolated|nonisolated|LimenApple/WebAuthenticationSessionUserAgent.swift|@preconcurrency ASWebAuthenticationPresentationContextProviding|ASWebAuthenticationPresentationContextProviding
a Keychain call with a wrong type|current|Limen/Storage/Keychain/KeychainStore.swift|SecItemDelete(baseQuery(account: account) as CFDictionary)|SecItemDelete(baseQuery(account: account))
a trust evaluation without its error pointer|current|Limen/HTTP/Pinning/URLSessionTransport+Pinning.swift|SecTrustEvaluateWithError(trust, &error)|SecTrustEvaluateWithError(trust, error)
the completion-handler open where the async one answers|current|LimenApple/UIApplicationUniversalLinkOpener.swift|await UIApplication.shared.open(url, options:|UIApplication.shared.open(url, options:
a certificate's data taken as bytes|current|Limen/HTTP/Pinning/URLSessionTransport+Pinning.swift|SecCertificateCopyData($0) as Data|SecCertificateCopyData($0) as [UInt8]
MISTAKES
    [ $failures -eq 0 ]
}

build_flags
if [ "${1:-}" = --self-test ]; then
    self_test
else
    check "$root/Sources"
    echo "apple-typecheck: the Apple-only code type-checks against the stand-ins"
fi
