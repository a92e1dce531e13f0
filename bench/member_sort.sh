#!/usr/bin/env bash
# Members-table sort benchmark: one command, prints a markdown table.
# Usage: bench/member_sort.sh [rounds] [sizes]   (defaults: 7 rounds, 10000,100000 members)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${POOLSCOPE_BENCH_GUI_BUILD:-$top/build-bench-gui}
if [[ ! -x $build/bench/bench_member_sort || -n ${POOLSCOPE_BENCH_REBUILD:-} ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j"$(nproc)" --target bench_member_sort >/dev/null
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), Qt $(pkg-config --modversion Qt6Core 2>/dev/null || echo '?')"
QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} "$build/bench/bench_member_sort" "${1:-7}" "${2:-10000,100000}"
