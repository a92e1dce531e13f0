#!/usr/bin/env bash
# Builds the libFuzzer targets (clang, -DPOOLSCOPE_FUZZ=ON) into build-fuzz/ and runs each one
# for a bounded time on a copy of its seed corpus (tests/fuzz/corpus/<target>/), one after the
# other. Nothing is written into the repository: corpora and crash files go to a work directory.
# Prints per target: seconds run, executions, corpus size, crashes. Exits non-zero on a crash,
# printing the reproducer's path and the command that replays it.
# Usage: scripts/fuzz.sh [--seconds N] [--workdir DIR] [target...]
#   --seconds N    per target (default 60)
#   --workdir DIR  keep corpora there and reuse them on the next run (default: a temp dir,
#                  deleted afterwards unless something crashed)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=60
workdir=
targets=()
while (($#)); do
    case $1 in
    --seconds) seconds=$2; shift 2 ;;
    --workdir) workdir=$2; shift 2 ;;
    -h | --help) sed -n '2,11p' "$0"; exit 0 ;;
    *) targets+=("$1"); shift ;;
    esac
done
((${#targets[@]})) || targets=(fuzz_proxylist fuzz_endpoint fuzz_snapshot_reply)

"$top/scripts/install-deps.sh"
build_dir=${POOLSCOPE_FUZZ_BUILD_DIR:-$top/build-fuzz}
jobs=${POOLSCOPE_JOBS:-$(nproc)}
# -O1 -g without NDEBUG: fast enough, and Q_ASSERTs stay armed.
CC=clang CXX=clang++ cmake -S "$top" -B "$build_dir" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" -DPOOLSCOPE_FUZZ=ON -DPOOLSCOPE_BUILD_GUI=OFF \
    -DPOOLSCOPE_BUILD_TESTS=OFF -DPOOLSCOPE_BUILD_BENCH=OFF >/dev/null
cmake --build "$build_dir" -j"$jobs" --target "${targets[@]}"

keep=1
if [[ -z $workdir ]]; then
    workdir=$(mktemp -d "${TMPDIR:-/tmp}/poolscope-fuzz.XXXXXX")
    keep=0
fi
mkdir -p "$workdir"
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1"
export LSAN_OPTIONS="suppressions=$top/tests/sanitizers/lsan.supp:print_suppressions=0"
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"

# Longest input per target: proxy lists must be able to exceed the 4096-byte line limit.
max_len() {
    case $1 in
    fuzz_proxylist) echo 10000 ;;
    fuzz_endpoint) echo 1024 ;;
    *) echo 4096 ;;
    esac
}

failed=0
printf '%-22s %8s %12s %8s %8s\n' target seconds executions corpus crashes
for target in "${targets[@]}"; do
    binary=$build_dir/tests/fuzz/$target
    corpus=$workdir/corpus/$target
    artifacts=$workdir/artifacts/$target
    mkdir -p "$corpus" "$artifacts"
    cp -n "$top/tests/fuzz/corpus/$target/"* "$corpus/" 2>/dev/null || true
    log=$workdir/$target.log
    start=$(date +%s)
    status=0
    "$binary" -max_total_time="$seconds" -max_len="$(max_len "$target")" -timeout=10 \
        -rss_limit_mb=2048 -print_final_stats=1 -artifact_prefix="$artifacts/" \
        "$corpus" >"$log" 2>&1 || status=$?
    elapsed=$(($(date +%s) - start))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    crashes=$(find "$artifacts" -type f | wc -l)
    printf '%-22s %8s %12s %8s %8s\n' "$target" "$elapsed" "${executions:-?}" \
        "$(find "$corpus" -type f | wc -l)" "$crashes"
    if ((status != 0 || crashes > 0)); then
        failed=1
        keep=1
        echo "  $target failed (exit $status); log: $log" >&2
        grep -m3 -E 'ERROR: |runtime error|invariant broken' "$log" | sed 's/^/  /' >&2 || true
        for reproducer in "$artifacts"/*; do
            [[ -f $reproducer ]] || continue
            echo "  reproducer: $reproducer" >&2
            echo "  replay:     $binary $reproducer" >&2
        done
    fi
done
if ((keep)); then
    echo "fuzz: work directory kept: $workdir"
else
    rm -rf "$workdir"
fi
exit "$failed"
