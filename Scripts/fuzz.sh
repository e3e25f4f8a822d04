#!/usr/bin/env bash
# Builds and runs Limen's libFuzzer harnesses (FUZZING.md). Exits non-zero when a harness finds a crash.
#
#   Scripts/fuzz.sh [TARGET|sdk|server|all] [SECONDS] [libFuzzer options…]
#
# TARGET is a harness (a folder of Fuzz or Server/Fuzz with a main.swift), or sdk / server for those of one package, or
# all (the default); SECONDS is how long each runs (default 60; 0 = no limit, for example with -runs=10000000). Each harness starts from its seed corpus in the repository (Fuzz/Corpus/TARGET or
# Server/Fuzz/Corpus/TARGET) and keeps what it finds in .build-fuzz-runs/corpus/TARGET; a crash is written to
# .build-fuzz-runs/artifacts/TARGET/ and printed (outside the scratch folders, which SwiftPM manages).
#
# The sanitizer flags are given here, on the command line, in a scratch folder of their own: flags written into
# Package.swift would be unsafe flags, which would stop apps from depending on Limen by version.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

# A harness is a folder with a main.swift in Fuzz (the SDK's) or Server/Fuzz (the server's); its package lists it too.
harnesses_in() {
    local folder
    for folder in "$1"/Fuzz/*/; do
        [ -f "$folder/main.swift" ] && basename "$folder"
    done
    return 0
}
# Linked with all of LimenServer: run by name only, never by `all` or `server` (CI).
server_by_name_harnesses=(ProfileData)
mapfile -t sdk_harnesses < <(harnesses_in .)
mapfile -t server_harnesses < <(harnesses_in Server | grep -vxF "${server_by_name_harnesses[@]/#/-e}")

usage() {
    echo "usage: Scripts/fuzz.sh [TARGET|sdk|server|all] [SECONDS] [libFuzzer options…]" >&2
    echo "targets: ${sdk_harnesses[*]} ${server_harnesses[*]} ${server_by_name_harnesses[*]}" >&2
    exit 64
}

target=${1:-all}
seconds=${2:-60}
shift $(($# < 2 ? $# : 2))
[[ "$seconds" =~ ^[0-9]+$ ]] || usage

# The package that holds a harness: . (the SDK) or Server.
package_of() {
    local name
    for name in "${sdk_harnesses[@]}"; do [ "$name" = "$1" ] && { echo .; return; }; done
    for name in "${server_harnesses[@]}" "${server_by_name_harnesses[@]}"; do
        [ "$name" = "$1" ] && { echo Server; return; }
    done
    return 1
}

case "$target" in
    all) targets=("${sdk_harnesses[@]}" "${server_harnesses[@]}") ;;
    sdk) targets=("${sdk_harnesses[@]}") ;;
    server) targets=("${server_harnesses[@]}") ;;
    *)
        package_of "$target" >/dev/null || usage
        targets=("$target")
        ;;
esac

build() {
    local package=$1 harness=$2
    echo "== building Fuzz$harness (package $package)"
    swift build --package-path "$package" --scratch-path "$package/.build-fuzz" -c release --product "Fuzz$harness" \
        -Xswiftc -DFUZZING -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld -Xswiftc -g
}

run() {
    local package=$1 harness=$2
    shift 2
    local binary="$package/.build-fuzz/release/Fuzz$harness"
    local corpus="$root/.build-fuzz-runs/corpus/$harness" artifacts="$root/.build-fuzz-runs/artifacts/$harness/"
    local seeds="$package/Fuzz/Corpus/$harness"
    mkdir -p "$corpus" "$artifacts"
    echo "== running Fuzz$harness for ${seconds}s"
    local status=0
    # Leak detection is off: the Swift runtime keeps metadata caches alive for the process's life, which LeakSanitizer
    # reports; a real crash, overflow or use-after-free is still reported.
    "$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -detect_leaks=0 -print_final_stats=1 \
        -artifact_prefix="$artifacts" "$@" "$corpus" "$seeds" || status=$?
    if [ "$status" -ne 0 ]; then
        echo "!! Fuzz$harness failed (status $status); its input is in $artifacts:" >&2
        ls -l "$artifacts" >&2
        return "$status"
    fi
}

failed=()
for harness in "${targets[@]}"; do
    package=$(package_of "$harness")
    build "$package" "$harness"
    run "$package" "$harness" "$@" || failed+=("$harness")
done
if [ "${#failed[@]}" -gt 0 ]; then
    echo "!! crashes in: ${failed[*]}" >&2
    exit 1
fi
echo "== no crash in: ${targets[*]}"
