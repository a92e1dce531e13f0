#!/usr/bin/env bash
# Observer cost: what watching a pool costs the workers.
#
# A private redis-server; steady allocation load from redis-benchmark (8 clients, EVALSHA of the
# same allocate.lua), measured three ways at each pool size, in one run:
#   none      - nobody watching
#   poolscope - `poolscope-cli watch` polling every second (the dashboard's poller: full
#               snapshots up to 10k members, summaries above)
#   naive     - `ZRANGE key 0 -1 WITHSCORES` every second
# Reports throughput and p50/p99/max latency (a closed-loop client hides stalls in p99: look at
# throughput and max), and the longest single command poolscope sent (SLOWLOG, by client name).
#
# Usage: bench/observer_cost.sh [seconds per run, default 12] [sizes, default "1000 100000 1000000"]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
seconds=${1:-12}
sizes=${2:-"1000 100000 1000000"}
build=${POOLSCOPE_BENCH_BUILD:-$top/build-bench}
cli=${POOLSCOPE_CLI:-$build/app/poolscope-cli}
if [[ ! -x $cli || ! -x $build/bench/bench_slowlog_max ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=OFF -DPOOLSCOPE_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" --target poolscope-cli bench_slowlog_max >/dev/null
fi
for tool in redis-server redis-cli redis-benchmark; do
    command -v $tool >/dev/null || { echo "observer_cost: $tool is missing (scripts/install-deps.sh)" >&2; exit 1; }
done

# On a machine with two or more cores the server gets core 0 and the clients (load and observers)
# the others: left to the scheduler, the server and redis-benchmark sometimes share a core and
# sometimes not, and the rates of one setting swung between two levels ~40 % apart. PIN=0 turns
# this off.
server_cpu=() client_cpu=()
if [[ ${PIN:-1} == 1 && $(nproc) -ge 2 ]] && command -v taskset >/dev/null; then
    server_cpu=(taskset -c 0)
    client_cpu=(taskset -c "1-$(($(nproc) - 1))")
fi

source "$top/bench/private-redis.sh"
start_private_redis "${server_cpu[@]}"

sha=$(rc -x SCRIPT LOAD < "$top/resources/lua/allocate.lua") # -x: the bytes as they are, final newline included
[[ $sha == 43144af8cdf336c396cb45b01cd6e0b359e2d9d0 ]] || { echo "unexpected script SHA $sha" >&2; exit 1; }


# Runs redis-benchmark for about $seconds; prints "rps p50 p99 max".
run_load() {
    local n=$((seconds * 30000))
    "${client_cpu[@]}" redis-benchmark -s "$sock" -c 8 -n "$n" --csv EVALSHA "$sha" 1 pool 2>/dev/null |
        awk -F'","' 'NR == 2 { sub(/"$/, "", $8); print $2, $5, $7, $8 }'
}

start_observer() { # mode
    case $1 in
    none) ;;
    poolscope)
        "${client_cpu[@]}" "$cli" --url "unix://$sock" --key pool watch --interval 1000 --duration $((seconds * 3)) >/dev/null &
        pids+=($!) ;;
    naive)
        (while :; do "${client_cpu[@]}" redis-cli -s "$sock" ZRANGE pool 0 -1 WITHSCORES >/dev/null; sleep 1; done) &
        pids+=($!) ;;
    esac
}
# The observer alone (no load, so every command counted is its own or this script's
# bookkeeping) for $share_seconds. Prints two figures:
# - the share of the server's time its commands took, in percent, from INFO commandstats. Unlike
#   the throughput, this does not depend on what else the machine runs. (Under load the allocate
#   script's own ZRANGE and ZINCRBY calls would be counted under the same names, which is why it
#   is measured apart.)
# - for poolscope, its longest command in SLOWLOG (ms; 0 when none took 50 us), with the server
#   otherwise idle: under load SLOWLOG also counts the time the server thread was descheduled in
#   the middle of a command, which on a small shared machine is most of any outlier.
share_seconds=${SHARE_SECONDS:-8}
observer_alone() { # mode
    rc CONFIG SET slowlog-log-slower-than 50 >/dev/null
    rc SLOWLOG RESET >/dev/null
    start_observer "$1"
    sleep 1
    rc CONFIG RESETSTAT >/dev/null
    local started
    started=$(date +%s%N)
    sleep "$share_seconds"
    local stats
    stats=$(rc INFO commandstats)
    local elapsed_us=$((($(date +%s%N) - started) / 1000))
    stop_observers
    local longest=0
    if [[ $1 == poolscope ]]; then
        longest=$("$build/bench/bench_slowlog_max" "unix://$sock" poolscope-poller 50 | awk '{ print ($1 == "<") ? 0 : $1 }')
    fi
    tr -d '\r' <<<"$stats" | awk -F'[:=,]' -v elapsed="$elapsed_us" -v longest="$longest" '
        /^cmdstat_/ {
            name = substr($1, 9)
            if (name !~ /^(info|config|slowlog|ping|client|hello|auth|select|command)$/)
                usec += $5
        }
        END { printf "%.3f %s\n", 100 * usec / elapsed, longest }'
}
stop_observers() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
    pids=()
}

echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), redis $(rc INFO server | awk -F: '/redis_version/ { print $2 }' | tr -d '\r'), ${server_cpu[*]:+server pinned to core 0, clients to the others}"
echo
echo "| members | observer | allocations/s (median) | vs none | vs none, per round | p50 ms | p99 ms | max ms | max over none | observer's share of server time | longest poolscope command: alone / under load |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
rounds=${ROUNDS:-3}
for size in $sizes; do
    load_pool "$size"
    modes=(none poolscope naive)
    : >"$work/results"
    read -r share_poolscope alone_longest < <(observer_alone poolscope)
    read -r share_naive _ < <(observer_alone naive)
    echo "size $size: the observer alone: server time poolscope $share_poolscope %, naive $share_naive %; poolscope's longest command $alone_longest ms" >&2
    for round in $(seq "$rounds"); do
        # Rotate the order each round so drift in the machine's load spreads over all three.
        for i in 0 1 2; do
            mode=${modes[$(((i + round) % 3))]}
            rc CONFIG SET slowlog-log-slower-than 50 >/dev/null
            rc CONFIG SET slowlog-max-len 100000 >/dev/null
            rc SLOWLOG RESET >/dev/null
            start_observer "$mode"
            sleep 2 # let the observer reach its steady state
            read -r r p50 p99 mx < <(run_load)
            stop_observers
            longest=0
            if [[ $mode == poolscope ]]; then
                longest=$("$build/bench/bench_slowlog_max" "unix://$sock" poolscope-poller 50 | awk '{ print ($1 == "<") ? 0 : $1 }')
            fi
            echo "$mode $r $p50 $p99 $mx $longest $round" >>"$work/results"
            echo "size $size round $round $mode: $r/s p50 $p50 p99 $p99 max $mx longest $longest ms" >&2
        done
    done
    col() { awk -v m="$1" -v c="$2" '$1 == m { print $c }' "$work/results" | median; }
    none_rps=$(col none 2)
    none_max=$(col none 5)
    for mode in none poolscope naive; do
        r=$(col "$mode" 2)
        mx=$(col "$mode" 5)
        longest="-"
        if [[ $mode == poolscope ]]; then
            loaded=$(awk '$1 == "poolscope" && $6 > m { m = $6 } END { printf (m > 0) ? "%.2f ms" : "< 0.05 ms", m }' "$work/results")
            alone=$(awk -v m="$alone_longest" 'BEGIN { printf (m > 0) ? "%.2f ms" : "< 0.05 ms", m }')
            longest="$alone / $loaded"
        fi
        ratio=$(awk -v a="$r" -v b="$none_rps" 'BEGIN { printf "%.3f", a / b }')
        # Each run against the no-observer run of the same round: steadier when the load drifts.
        paired=$(awk -v m="$mode" '$1 == "none" { none[$7] = $2 } $1 == m { mine[$7] = $2 }
            END { for (k in mine) if (none[k] > 0) print mine[k] / none[k] }' "$work/results" | median)
        paired=$(awk -v p="$paired" 'BEGIN { printf "%.3f", p }')
        over=$(awk -v a="$mx" -v b="$none_max" 'BEGIN { printf "%+.2f ms", a - b }')
        share="-"
        [[ $mode == poolscope ]] && share="$share_poolscope %"
        [[ $mode == naive ]] && share="$share_naive %"
        echo "| $size | $mode | $r | $ratio | $paired | $(col "$mode" 3) | $(col "$mode" 4) | $mx | $over | $share | $longest |"
    done
done
echo
echo "medians of $rounds rounds of $seconds s each, the order of the three rotating every round;"
echo "server time share and the first longest command: the observer alone for $share_seconds s (INFO commandstats"
echo "usec / wall time; SLOWLOG); the second longest command: SLOWLOG under load, which also counts time the"
echo "server thread spent descheduled in the middle of a command"
