#!/usr/bin/env bash
# Health checks at scale: the guard's round over 1,000 loopback proxies at concurrency 200
# (target under 5 s), next to the same checks one at a time, and the guard's Redis cost per round
# (commands, longest one from SLOWLOG; target under 1 ms). Everything on 127.0.0.1, started and
# stopped by bench_health_round itself (private redis-server, proxies, target).
# Usage: bench/health_round.sh [rounds, default 3]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build=${POOLSCOPE_BENCH_BUILD:-$top/build-bench}
if [[ ! -x $build/bench/bench_health_round ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" --target bench_health_round >/dev/null
fi
command -v redis-server >/dev/null || { echo "health_round: redis-server is missing (scripts/install-deps.sh)" >&2; exit 1; }
ulimit -n 4096 2>/dev/null || true
"$build/bench/bench_health_round" "${1:-3}"
