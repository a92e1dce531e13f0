#!/usr/bin/env bash
# Exporter cost: how long a Prometheus scrape of `poolscope-cli exporter` takes at 1k, 100k and 1M
# members, and the longest command it sends (SLOWLOG, by client name; target under 1 ms, as the
# poller), next to the reference in the same run: one naive full read (ZRANGE 0 -1 WITHSCORES),
# which is what an exporter that reads "every member" would send.
#
# A private redis-server on a unix socket; the exporter listens on 127.0.0.1 (free port); scrapes
# with curl. The pool has a steady allocation load from redis-benchmark (4 clients) so counts move.
#
# Usage: bench/exporter_scrape.sh [scrapes per size, default 10] [sizes, default "1000 100000 1000000"]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
scrapes=${1:-10}
sizes=${2:-"1000 100000 1000000"}
build=${POOLSCOPE_BENCH_BUILD:-$top/build-bench}
cli=${POOLSCOPE_CLI:-$build/app/poolscope-cli}
if [[ ! -x $cli || ! -x $build/bench/bench_slowlog_max ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=OFF -DPOOLSCOPE_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" --target poolscope-cli bench_slowlog_max >/dev/null
fi
for tool in redis-server redis-cli redis-benchmark curl; do
    command -v $tool >/dev/null || { echo "exporter_scrape: $tool is missing (scripts/install-deps.sh)" >&2; exit 1; }
done

source "$top/bench/private-redis.sh"
start_private_redis
url="unix://$sock"
sha=$(rc -x SCRIPT LOAD <"$top/resources/lua/allocate.lua")

echo "| members | read mode | scrape p50 (ms) | scrape max (ms) | series served | exporter's longest command (ms) | naive full read, one command (ms) |"
echo "|---|---|---|---|---|---|---|"
for size in $sizes; do
    load_pool "$size"
    redis-benchmark -s "$sock" -c 4 -n 100000000 -q EVALSHA "$sha" 1 pool >/dev/null 2>&1 &
    pids+=($!)
    "$cli" --url "$url" --key pool exporter --listen 127.0.0.1:0 >"$work/exporter.out" 2>"$work/exporter.err" &
    pids+=($!)
    for _ in $(seq 100); do grep -q serving "$work/exporter.out" 2>/dev/null && break; sleep 0.05; done
    endpoint=$(sed -n 's/^serving \(http[^ ]*\).*/\1/p' "$work/exporter.out")
    rc CONFIG SET slowlog-log-slower-than 20 >/dev/null # EVALSHA of the load (~6 µs) stays out
    rc CONFIG SET slowlog-max-len 100000 >/dev/null
    rc SLOWLOG RESET >/dev/null
    : >"$work/times"
    for _ in $(seq "$scrapes"); do
        curl -sS -o "$work/scrape.txt" -w '%{time_total}\n' "$endpoint" | awk '{ print $1 * 1000 }' >>"$work/times"
    done
    longest=$("$build/bench/bench_slowlog_max" "$url" poolscope-exporter 20 | awk '{ print $1 }')
    mode=$(sed -n 's/^poolscope_pool_info{.*read_mode="\([a-z]*\)".*/\1/p' "$work/scrape.txt")
    series=$(grep -vc '^#' "$work/scrape.txt")
    rc SLOWLOG RESET >/dev/null
    printf 'CLIENT SETNAME naive\nZRANGE pool 0 -1 WITHSCORES\n' | redis-cli -s "$sock" >/dev/null
    naive=$("$build/bench/bench_slowlog_max" "$url" naive 20 | awk '{ print $1 }')
    kill "${pids[@]}" 2>/dev/null || true
    wait 2>/dev/null || true
    pids=()
    printf '| %s | %s | %s | %s | %s | %s | %s |\n' "$size" "$mode" \
        "$(median <"$work/times" | xargs printf '%.1f')" "$(sort -g "$work/times" | tail -1 | xargs printf '%.1f')" \
        "$series" "$longest" "$naive"
done
