#!/usr/bin/env bash
# Opening a recording benchmark: one command, prints a markdown table.
# Usage: bench/recording_open.sh [members] [hours]   (defaults: 1,000 members, 24 h)
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${POOLSCOPE_BENCH_GUI_BUILD:-$top/build-bench-gui}
if [[ ! -x $build/bench/bench_recording_open ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release >/dev/null
    cmake --build "$build" -j"$(nproc)" --target bench_recording_open >/dev/null
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
QT_QPA_PLATFORM=${QT_QPA_PLATFORM:-offscreen} "$build/bench/bench_recording_open" "${1:-1000}" "${2:-24}"
