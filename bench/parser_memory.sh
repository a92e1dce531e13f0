#!/usr/bin/env bash
# Proxy-list parser memory benchmark: one command, prints a markdown table.
# Usage: bench/parser_memory.sh [repeated-list bytes] [distinct entries]
#        (defaults: a 52,000,000-byte list of one repeated entry, 1,000,000 distinct entries)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${POOLSCOPE_BENCH_BUILD:-$top/build-bench}
if [[ ! -x $build/bench/bench_parser_memory || -n ${POOLSCOPE_BENCH_REBUILD:-} ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=OFF -DPOOLSCOPE_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" --target bench_parser_memory >/dev/null
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), Qt $(pkg-config --modversion Qt6Core 2>/dev/null || echo '?')"
"$build/bench/bench_parser_memory" "${1:-52000000}" "${2:-1000000}"
