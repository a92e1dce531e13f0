#!/usr/bin/env bash
# The overview's cost: an overview of 100 pools over 10 servers on loopback polled every 5 s,
# against one poller watching one pool at the dashboard's default interval (1 s), in the same run.
#
# Everything runs on this machine: SERVERS+1 redis-servers on 127.0.0.1 (free ports, no
# persistence), each overview server seeded with POOLS pools of MEMBERS members (counts spread
# 0..6) and a health record for every member (so every health hash is walked one page a poll,
# the bounded path), a guard lease on pool0; a worker per server allocating RATE/s on pool0
# (`poolscope-cli allocate --rate`); saved connections under a private HOME; then
#   overview: `poolscope-cli overview --group bench --watch INTERVAL` (the core's OverviewPoller:
#             one connection and one worker thread per server; the dashboard's overview window
#             does not exist yet, so the poller is measured through the CLI, which also formats
#             and prints the table every INTERVAL s)
#   one pool: `poolscope-cli watch --interval 1000` on its own server (the dashboard's PoolMonitor
#             at its default interval, full snapshots up to 10,000 members)
# After WARMUP s both are measured over MEASURE_SECONDS: CPU share of one core (utime+stime of
# all threads, /proc/PID/stat) and RSS (VmRSS at the end, VmHWM peak); each server's time spent
# on the poller's commands and its longest command, from SLOWLOG with a threshold of 0 filtered
# by client name (poolscope-overview, poolscope-poller): only that client's commands, whatever
# the workers do. At the end one `overview --json` checks that every pool was listed and read.
#
# Usage: bench/overview_cost.sh [sizes, default "1000 10000"]
# Env:   SERVERS (10), POOLS (10 per server), INTERVAL (5), WARMUP (15), MEASURE_SECONDS (60),
#        RATE (50 allocations/s per server; 0: none), POOLSCOPE_BENCH_BUILD, POOLSCOPE_CLI
# Exits non-zero only when it could not run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
sizes=${1:-"1000 10000"}
servers=${SERVERS:-10} pools=${POOLS:-10} interval=${INTERVAL:-5}
warmup=${WARMUP:-15} measure=${MEASURE_SECONDS:-60} rate=${RATE:-50}
build=${POOLSCOPE_BENCH_BUILD:-$top/build-bench}
cli=${POOLSCOPE_CLI:-$build/app/poolscope-cli}
slowlog=$build/bench/bench_slowlog_max
if [[ ! -x $cli || ! -x $slowlog ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=OFF \
        -DPOOLSCOPE_BUILD_TESTS=OFF -DPOOLSCOPE_BUILD_BENCH=ON >/dev/null
    cmake --build "$build" -j"$(nproc)" --target poolscope-cli bench_slowlog_max >/dev/null
fi
for tool in redis-server redis-cli python3; do
    command -v $tool >/dev/null || { echo "overview_cost: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d)
pids=()
stop_all() {
    local i
    for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
        kill "${pids[i]}" 2>/dev/null || true
        wait "${pids[i]}" 2>/dev/null || true
    done
    rm -rf "$work"
}
trap stop_all EXIT
stop_pids() { # pids...: stops them and forgets them
    local p kept=() q
    for p in "$@"; do kill "$p" 2>/dev/null || true; wait "$p" 2>/dev/null || true; done
    for q in "${pids[@]}"; do
        for p in "$@"; do [[ $q == "$p" ]] && continue 2; done
        kept+=("$q")
    done
    pids=("${kept[@]}")
}
# The saved connections stay in the run's directory; no keychain.
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_DATA_HOME=$work/home/.local/share
export XDG_CACHE_HOME=$work/home/.cache
unset DBUS_SESSION_BUS_ADDRESS REDIS_URL
mkdir -p "$XDG_CONFIG_HOME"

# A redis-server on 127.0.0.1, a free port found by trying (a taken port makes it exit at once).
start_server() { # index; sets started_port
    local try server
    started_port=
    mkdir -p "$work/s$1"
    for _ in $(seq 20); do
        try=$((20000 + RANDOM % 30000))
        redis-server --port "$try" --bind 127.0.0.1 --save "" --appendonly no --dir "$work/s$1" \
            --logfile "$work/s$1/redis.log" &
        server=$!
        for _ in $(seq 100); do
            redis-cli -h 127.0.0.1 -p "$try" ping >/dev/null 2>&1 && { started_port=$try; break; }
            kill -0 "$server" 2>/dev/null || break
            sleep 0.05
        done
        if [[ -n $started_port ]]; then pids+=("$server"); return; fi
        kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
    done
    echo "overview_cost: no redis-server could start on 127.0.0.1" >&2
    exit 1
}
rc() { redis-cli -h 127.0.0.1 -p "$@"; }
ports=()
for i in $(seq 0 $((servers - 1))); do start_server "$i"; ports+=("$started_port"); done
start_server watch
wport=$started_port

# Pipelined ZADD batches of 1,000 members (counts 0..6), and one HSET of a health record per
# member, in the wire protocol.
seed() { # port key members
    awk -v key="$2" -v n="$3" 'function bulk(s) { printf "$%d\r\n%s\r\n", length(s), s }
    BEGIN {
        health = "{" key "}:health:" key
        record = "{\"t\":1,\"o\":\"ok\",\"l\":12,\"s\":200,\"up\":3,\"down\":0,\"e\":\"\"}"
        for (b = 0; b < n; b += 1000) {
            m = (n - b < 1000) ? n - b : 1000
            printf "*%d\r\n", 2 + 2 * m; bulk("ZADD"); bulk(key)
            for (i = b; i < b + m; i++) { bulk(i % 7); bulk(sprintf("m%07d", i)) }
            printf "*%d\r\n", 2 + 2 * m; bulk("HSET"); bulk(health)
            for (i = b; i < b + m; i++) { bulk(sprintf("m%07d", i)); bulk(record) }
        } }' | rc "$1" --pipe >/dev/null
    [[ $(rc "$1" ZCARD "$2") == "$3" ]] || { echo "overview_cost: could not seed $2" >&2; exit 1; }
}
ticks_per_s=$(getconf CLK_TCK)
cpu_ticks() { sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'; }
status_mib() { awk -v f="$2:" '$1 == f { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
field() { tr ' ' '\n' <<<"$1" | sed -n "s/^$2=//p"; } # "a=1 b=2" b -> 2
fmt() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; } # 1000000 -> 1,000,000

for i in "${!ports[@]}"; do
    "$cli" profile add "bench$i" --url "redis://127.0.0.1:${ports[i]}/0" --key pool0 \
        --group bench --replace >/dev/null
done
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), redis $(rc "$wport" INFO server | awk -F: '/redis_version/ { print $2 }' | tr -d '\r'), load average before: $load_before"
echo "overview: $servers servers x $pools pools every $interval s; one pool: every 1 s; workers: $rate allocations/s per server; measured over $measure s after $warmup s"
echo
rows=()
for size in $sizes; do
    for port in "${ports[@]}" "$wport"; do rc "$port" FLUSHALL >/dev/null; done
    for port in "${ports[@]}"; do
        for p in $(seq 0 $((pools - 1))); do seed "$port" "pool$p" "$size"; done
        rc "$port" SET "{pool0}:guard-lease:pool0" "bench-guard:1:0" >/dev/null
    done
    seed "$wport" pool0 "$size"
    for port in "${ports[@]}" "$wport"; do
        rc "$port" CONFIG SET slowlog-log-slower-than 0 >/dev/null
        rc "$port" CONFIG SET slowlog-max-len 1000000 >/dev/null
    done
    workers=()
    if ((rate > 0)); then
        for port in "${ports[@]}" "$wport"; do
            "$cli" --url "redis://127.0.0.1:$port/0" --key pool0 allocate -n 1000000000 \
                --rate "$rate" --duration $((warmup + measure + 60)) >/dev/null 2>&1 &
            pids+=($!)
            workers+=($!)
        done
    fi
    "$cli" overview --group bench --watch "$interval" >"$work/overview.out" 2>&1 &
    overview=$!
    pids+=("$overview")
    "$cli" --url "redis://127.0.0.1:$wport/0" --key pool0 watch --interval 1000 \
        >"$work/watch.out" 2>&1 &
    watcher=$!
    pids+=("$watcher")
    sleep "$warmup"
    for port in "${ports[@]}" "$wport"; do rc "$port" SLOWLOG RESET >/dev/null; done
    t0=$(date +%s%N)
    o0=$(cpu_ticks "$overview") w0=$(cpu_ticks "$watcher")
    sleep "$measure"
    o1=$(cpu_ticks "$overview") w1=$(cpu_ticks "$watcher")
    t1=$(date +%s%N)
    wall_s=$(awk -v ns="$((t1 - t0))" 'BEGIN { print ns / 1e9 }')
    share() { awk -v d="$1" -v hz="$ticks_per_s" -v s="$wall_s" 'BEGIN { printf "%.2f", 100 * d / hz / s }'; }
    o_cpu=$(share $((o1 - o0))) w_cpu=$(share $((w1 - w0)))
    o_rss=$(status_mib "$overview" VmRSS) o_hwm=$(status_mib "$overview" VmHWM)
    w_rss=$(status_mib "$watcher" VmRSS) w_hwm=$(status_mib "$watcher" VmHWM)
    # Each server: the poller's share of its time, its longest command and the 99th percentile
    # (SLOWLOG, threshold 0). Under load SLOWLOG also counts time the server thread spent
    # descheduled in the middle of a command: measured again below with the servers idle.
    : >"$work/shares"
    : >"$work/p99"
    longest=0 longest_text="-"
    for port in "${ports[@]}"; do
        line=$("$slowlog" "redis://127.0.0.1:$port/0" poolscope-overview 0)
        [[ $(rc "$port" SLOWLOG LEN) -lt 1000000 ]] || { echo "overview_cost: SLOWLOG overflowed" >&2; exit 1; }
        field "$line" total_us | awk -v s="$wall_s" '{ printf "%.4f\n", 100 * $1 / 1e6 / s }' >>"$work/shares"
        field "$line" p99_us >>"$work/p99"
        ms=$(awk '{ print ($1 == "<") ? 0 : $1 }' <<<"$line")
        if awk -v a="$ms" -v b="$longest" 'BEGIN { exit !(a > b) }'; then
            longest=$ms
            longest_text=$(awk '{ print $1 " ms " $3 }' <<<"$line")
        fi
    done
    s_min=$(sort -g "$work/shares" | head -1) s_max=$(sort -g "$work/shares" | tail -1)
    s_med=$(median <"$work/shares")
    p99_max=$(sort -g "$work/p99" | tail -1)
    wline=$("$slowlog" "redis://127.0.0.1:$wport/0" poolscope-poller 0)
    w_share=$(field "$wline" total_us | awk -v s="$wall_s" '{ printf "%.4f", 100 * $1 / 1e6 / s }')
    w_longest=$(awk '{ print $1 " ms " $3 }' <<<"$wline")
    w_p99=$(field "$wline" p99_us)
    stop_pids "$overview" "$watcher" "${workers[@]}"

    # With the servers otherwise idle: one overview of all of them (which also checks that every
    # pool was listed and read, and says how long a reading of each server took); then three of
    # one server alone, so that no other server competes for the CPU during its commands; and
    # 3 s of `watch`.
    "$cli" overview --group bench --json >"$work/check.json"
    rc "${ports[0]}" SLOWLOG RESET >/dev/null
    rc "$wport" SLOWLOG RESET >/dev/null
    for _ in 1 2 3; do "$cli" overview --profile bench0 --interval 200 >/dev/null; done
    "$cli" --url "redis://127.0.0.1:$wport/0" --key pool0 watch --interval 1000 --duration 3 >/dev/null
    idle_text=$("$slowlog" "redis://127.0.0.1:${ports[0]}/0" poolscope-overview 0 |
        awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^p99_us=/) p = substr($i, 8); print $1 " ms " $3 "; p99 " p " µs" }')
    w_idle=$("$slowlog" "redis://127.0.0.1:$wport/0" poolscope-poller 0 |
        awk '{ for (i = 1; i <= NF; i++) if ($i ~ /^p99_us=/) p = substr($i, 8); print $1 " ms " $3 "; p99 " p " µs" }')
    read -r listed okrows reading_med reading_max < <(python3 -c '
import json, statistics, sys
o = json.load(open(sys.argv[1]))
rows = [r for r in o["rows"] if r["pool"] is not None]
ok = sum(1 for r in rows if r["state"] == "ok")
times = [s["last_reading_ms"] for s in o["servers"] if "last_reading_ms" in s]
print(len(rows), ok, round(statistics.median(times), 1), round(max(times), 1))' "$work/check.json")
    expected=$((servers * pools))
    [[ $listed == "$expected" && $okrows == "$expected" ]] ||
        echo "overview_cost: the overview listed $listed pools ($okrows read), expected $expected" >&2
    echo "size $size: overview CPU $o_cpu %, RSS $o_rss MiB (peak $o_hwm); server share min/median/max $s_min/$s_med/$s_max %, longest $longest_text (p99 at most $p99_max us), idle $idle_text; one reading of a server: median $reading_med ms, max $reading_max ms; watch CPU $w_cpu %, RSS $w_rss MiB, server share $w_share %, longest $w_longest (p99 $w_p99 us), idle $w_idle" >&2
    rows+=("| overview: $((servers * pools)) pools of $(fmt "$size") members on $servers servers, every $interval s | $o_cpu % | $o_rss ($o_hwm) | $s_min / $s_med / $s_max % | $longest_text; p99 $p99_max µs | $idle_text | $reading_med ms (max $reading_max) |")
    rows+=("| one pool of $(fmt "$size") members on 1 server, every 1 s (\`watch\`, the dashboard's poller) | $w_cpu % | $w_rss ($w_hwm) | $w_share % | $w_longest; p99 $w_p99 µs | $w_idle | - |")
done
echo "| poller | CPU (share of one core) | RSS MiB (peak) | its share of each server's time (min / median / max) | longest command under load; 99th percentile (worst server) | longest command, one server read alone; 99th percentile | one reading of a server, idle (median) |"
echo "|---|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
