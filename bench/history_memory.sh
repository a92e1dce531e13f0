#!/usr/bin/env bash
# History memory benchmark: one command, prints a markdown table.
# Usage: bench/history_memory.sh [members] [seconds]   (defaults: 1000 members, 24 h)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${POOLSCOPE_BENCH_BUILD:-$top/build-bench}
if [[ ! -x $build/bench/bench_history_memory ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=OFF -DPOOLSCOPE_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" --target bench_history_memory >/dev/null
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
"$build/bench/bench_history_memory" "${1:-1000}" "${2:-86400}"
