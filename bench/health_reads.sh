#!/usr/bin/env bash
# The dashboard's health reads at 10,000 members, 1 s polls, over DURATION (default 120 s) each:
# every member at every poll (the schedule before) next to PoolHealth's (every member once a
# minute or after the audit trail moved, the chart's members at every poll). HMGETs and server
# time from INFO commandstats of a private redis-server that bench_health_reads starts and stops.
# Usage: DURATION=120 bench/health_reads.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${POOLSCOPE_BENCH_BUILD:-$top/build-bench}
if [[ ! -x $build/bench/bench_health_reads ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_BENCH=ON >/dev/null
    cmake --build "$build" -j"$(nproc)" --target bench_health_reads >/dev/null
fi
command -v redis-server >/dev/null || { echo "health_reads: redis-server is missing (scripts/install-deps.sh)" >&2; exit 1; }
QT_QPA_PLATFORM=offscreen "$build/bench/bench_health_reads"
