#!/usr/bin/env bash
# Window responsiveness benchmark: one command, prints a markdown table.
# Usage: bench/window_responsiveness.sh [seconds] [members] [rate] [workers] [member|count]
#        (defaults: 60 s, 10,000 members, 2,000 allocations/s over 2 workers, table sorted by
#        member; "count" sorts it by count, which re-sorts every row on every poll)
# Exits non-zero only when it could not run; a missed target is printed, not an error.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${POOLSCOPE_BENCH_GUI_BUILD:-$top/build-bench-gui}
if [[ ! -x $build/bench/bench_window_responsiveness ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j"$(nproc)" --target bench_window_responsiveness >/dev/null
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} \
    "$build/bench/bench_window_responsiveness" "${1:-60}" "${2:-10000}" "${3:-2000}" "${4:-2}" "${5:-member}"
