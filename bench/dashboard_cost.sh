#!/usr/bin/env bash
# The dashboard's own cost: CPU share (of one core) and RSS of the real dashboard in a real window,
# watching a pool polled every second while a worker allocates at 500/s, against an idle Qt window
# (bench/idle_window.cpp) measured over the same intervals on the same display.
#
# Everything runs on this machine: a private Xvfb display with openbox as its window manager, a
# redis-server on 127.0.0.1 (a free port), the worker (`poolscope-cli allocate --rate`) and the
# dashboard (`poolscope --url redis://127.0.0.1:PORT/0 --key KEY`); all stopped by PID on exit.
#
# The chart's default window is the last 5 minutes and nothing fills it faster than the clock, so
# each size is measured twice: early (EARLY_AT s after the dashboard started, the window a fifth
# full) and once the window is full (FULL_AT s, default 300). CPU share = the process's
# utime+stime (/proc/PID/stat, all threads) over MEASURE_SECONDS of wall time; RSS at its end.
#
# Usage: bench/dashboard_cost.sh [sizes, default "1000 10000 1000000"]
# Env:   EARLY_AT (20), FULL_AT (300), MEASURE_SECONDS (40), RATE (500)
#        CALLGRIND=DIR: run the dashboard under valgrind --tool=callgrind with instrumentation off
#          until FULL_AT, then count MEASURE_SECONDS and write DIR/callgrind.<members>.out
#          (no idle window, no early measurement; see docs/dashboard-cost.md)
# Exits non-zero only when it could not run.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
sizes=${1:-"1000 10000 1000000"}
early_at=${EARLY_AT:-20} full_at=${FULL_AT:-300} measure=${MEASURE_SECONDS:-40} rate=${RATE:-500}
callgrind=${CALLGRIND:-}
build=${POOLSCOPE_BENCH_GUI_BUILD:-$top/build-bench-gui}
gui=$build/app/gui/poolscope cli=$build/app/poolscope-cli idle=$build/bench/bench_idle_window
if [[ ! -x $gui || ! -x $cli || ! -x $idle ]]; then
    cmake -S "$top" -B "$build" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=ON \
        -DPOOLSCOPE_BUILD_BENCH=ON -DPOOLSCOPE_BUILD_TESTS=OFF >/dev/null
    cmake --build "$build" -j"$(nproc)" --target poolscope poolscope-cli bench_idle_window >/dev/null
fi
tools=(redis-server redis-cli Xvfb openbox)
[[ -n $callgrind ]] && tools+=(valgrind callgrind_control)
for tool in "${tools[@]}"; do
    command -v "$tool" >/dev/null || { echo "dashboard_cost: $tool is missing" >&2; exit 1; }
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
stop_pid() { # pid: stops it and forgets it
    kill "$1" 2>/dev/null || true
    wait "$1" 2>/dev/null || true
    local kept=() p
    for p in "${pids[@]}"; do [[ $p == "$1" ]] || kept+=("$p"); done
    pids=("${kept[@]}")
}

# A redis-server on 127.0.0.1, a free port found by trying (a taken port makes it exit at once).
port=
for _ in $(seq 20); do
    try=$((20000 + RANDOM % 30000))
    redis-server --port "$try" --bind 127.0.0.1 --save "" --appendonly no --dir "$work" \
        --logfile "$work/redis.log" &
    server=$!
    for _ in $(seq 100); do
        redis-cli -h 127.0.0.1 -p "$try" ping >/dev/null 2>&1 && { port=$try; break; }
        kill -0 "$server" 2>/dev/null || break
        sleep 0.05
    done
    if [[ -n $port ]]; then pids+=("$server"); break; fi
    kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true
done
[[ -n $port ]] || { echo "dashboard_cost: no redis-server could start on 127.0.0.1" >&2; exit 1; }
rc() { redis-cli -h 127.0.0.1 -p "$port" "$@"; }
url=redis://127.0.0.1:$port/0

# A private X display (no TCP listener) and a window manager on it.
Xvfb -displayfd 5 -screen 0 1600x1000x24 -nolisten tcp 5>"$work/display" 2>"$work/xvfb.log" &
pids+=($!)
for _ in $(seq 100); do [[ -s $work/display ]] && break; sleep 0.05; done
[[ -s $work/display ]] || { echo "dashboard_cost: Xvfb did not start" >&2; exit 1; }
DISPLAY=:$(head -1 "$work/display")
export DISPLAY QT_QPA_PLATFORM=xcb
# The dashboard's settings, window geometry and recent connections stay in the run's directory.
export XDG_CONFIG_HOME=$work/config XDG_DATA_HOME=$work/data XDG_CACHE_HOME=$work/cache
openbox --sm-disable >"$work/openbox.log" 2>&1 &
pids+=($!)
sleep 1

ticks_per_s=$(getconf CLK_TCK)
cpu_ticks() { # pid: utime+stime of all its threads (the fields after the command name)
    sed 's/^.*) //' "/proc/$1/stat" | awk '{ print $12 + $13 }'
}
rss_mib() { awk '/^VmRSS:/ { printf "%.1f", $2 / 1024 }' "/proc/$1/status"; }
# Measures the given PIDs over $measure s; prints "cpu% rss" per PID, one line.
measure_pids() {
    local before=() after=() p i t0 t1 out=
    t0=$(date +%s%N)
    for p in "$@"; do before+=("$(cpu_ticks "$p")"); done
    sleep "$measure"
    t1=$(date +%s%N)
    for p in "$@"; do after+=("$(cpu_ticks "$p")"); done
    for i in "${!after[@]}"; do
        out+=$(awk -v d="$((after[i] - before[i]))" -v hz="$ticks_per_s" -v ns="$((t1 - t0))" \
            'BEGIN { printf "%.2f ", 100 * d / hz / (ns / 1e9) }')
        out+="$(rss_mib "${@:i+1:1}") "
    done
    echo "$out"
}
# Seeds KEY with MEMBERS members at 0: pipelined ZADD batches of 1,000 in the wire protocol.
seed() { # key members
    rc DEL "$1" >/dev/null
    awk -v key="$1" -v n="$2" 'BEGIN {
        for (b = 0; b < n; b += 1000) {
            m = (n - b < 1000) ? n - b : 1000
            printf "*%d\r\n$4\r\nZADD\r\n$%d\r\n%s\r\n", 2 + 2 * m, length(key), key
            for (i = b; i < b + m; i++) { name = sprintf("m%07d", i)
                printf "$1\r\n0\r\n$%d\r\n%s\r\n", length(name), name }
        } }' | rc --pipe >/dev/null
    [[ $(rc ZCARD "$1") == "$2" ]] || { echo "dashboard_cost: could not seed $2 members" >&2; exit 1; }
}
wait_until() { # seconds since $started
    local now
    now=$(date +%s%N)
    local left=$(((started + $1 * 1000000000 - now) / 1000000))
    ((left > 0)) && sleep "$(awk -v ms="$left" 'BEGIN { print ms / 1000 }')"
    return 0
}
fmt() { sed ':a;s/\B[0-9]\{3\}\>/,&/;ta' <<<"$1"; } # 1000000 -> 1,000,000

if [[ -z $callgrind ]]; then
    "$idle" >"$work/idle.log" 2>&1 &
    idle_pid=$!
    pids+=("$idle_pid")
fi
load_before=$(cut -d' ' -f1-3 /proc/loadavg)
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs), redis $(rc INFO server | awk -F: '/redis_version/ { print $2 }' | tr -d '\r'), Xvfb + openbox, load average before: $load_before"
echo "polls every 1 s (the dashboard's default), a worker at $rate allocations/s, measured over $measure s each"
echo
rows=()
for size in $sizes; do
    key=bench:cost:$size
    seed "$key" "$size"
    "$cli" --url "$url" --key "$key" allocate --rate "$rate" --duration $((full_at + measure + 60)) \
        >"$work/worker.log" 2>&1 &
    worker=$!
    pids+=("$worker")
    started=$(date +%s%N)
    if [[ -n $callgrind ]]; then
        mkdir -p "$callgrind"
        valgrind --tool=callgrind --instr-atstart=no --callgrind-out-file="$callgrind/callgrind.$size.out" \
            "$gui" --url "$url" --key "$key" >"$work/dashboard.log" 2>&1 &
        dashboard=$!
        pids+=("$dashboard")
        wait_until "$full_at"
        callgrind_control -i on "$dashboard" >/dev/null 2>&1
        sleep "$measure"
        callgrind_control -i off "$dashboard" >/dev/null 2>&1
        callgrind_control -d "$dashboard" >/dev/null 2>&1
        echo "members $(fmt "$size"): $(rc ZSCORE "$key" m0000000) allocations of m0000000; profile in $callgrind/callgrind.$size.out*"
    else
        "$gui" --url "$url" --key "$key" >"$work/dashboard.log" 2>&1 &
        dashboard=$!
        pids+=("$dashboard")
        for phase in early full; do
            at=$early_at note=
            if [[ $phase == full ]]; then
                at=$full_at
                ((full_at >= 300)) && note=" (window full)" # the chart's default window: 5 minutes
            fi
            wait_until "$at"
            kill -0 "$dashboard" 2>/dev/null || { echo "dashboard_cost: the dashboard exited:" >&2; cat "$work/dashboard.log" >&2; exit 1; }
            read -r dcpu drss icpu irss < <(measure_pids "$dashboard" "$idle_pid")
            rows+=("| $(fmt "$size") | $at-$((at + measure)) s$note | $dcpu | $drss | $icpu | $irss |")
            echo "${rows[-1]}" >&2
        done
    fi
    kill -0 "$worker" 2>/dev/null || { echo "dashboard_cost: the worker stopped early:" >&2; cat "$work/worker.log" >&2; exit 1; }
    stop_pid "$dashboard"
    stop_pid "$worker"
    rc DEL "$key" >/dev/null
done
if [[ -z $callgrind ]]; then
    echo "| members | measured (after start) | dashboard CPU % of a core | RSS MiB | idle Qt window CPU % | RSS MiB |"
    echo "|---|---|---|---|---|---|"
    printf '%s\n' "${rows[@]}"
fi
echo
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
