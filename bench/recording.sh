#!/usr/bin/env bash
# Recording benchmark: one command, prints markdown tables (size over 24 simulated hours at 1 s,
# write time per poll, opening the day and reading what a chart needs).
# Usage: bench/recording.sh [members] [seconds] [wide-members] [wide-polls]
#        (defaults: 1000 members, 86400 s; 10000 members for 600 polls)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${POOLSCOPE_BENCH_BUILD:-$top/build-bench}
if [[ ! -x $build/bench/bench_recording ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=OFF -DPOOLSCOPE_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" --target bench_recording >/dev/null
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), $(df -T "$work" | awk 'NR == 2 { print $2 }') for the files"
"$build/bench/bench_recording" "$work" "${1:-1000}" "${2:-86400}" "${3:-10000}" "${4:-600}"
