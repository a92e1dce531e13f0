#!/usr/bin/env bash
# Allocation throughput of `poolscope-cli allocate` next to redis-benchmark running the same
# script (EVALSHA allocate.lua) against the same private redis-server, alternating, at matching
# settings. Prints a markdown table of medians and checks exact accounting after every
# poolscope run. Exits non-zero only when it could not run. See bench/README.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=${POOLSCOPE_CLI:-$ROOT/build-bench/app/poolscope-cli}
ROUNDS=${ROUNDS:-3}
# "workers pipeline allocations" per setting; override with SETTINGS="1 1 50000;50 32 500000"
SETTINGS=${SETTINGS:-"1 1 100000;50 1 300000;50 32 500000"}
KEY=bench:pool
SCRIPT=$ROOT/resources/lua/allocate.lua

die() {
    echo "throughput.sh: $*" >&2
    exit 2
}

for tool in redis-server redis-cli redis-benchmark awk; do
    command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install redis-server redis-tools)"
done
[[ -r $SCRIPT ]] || die "cannot read $SCRIPT"

if [[ ! -x $CLI ]]; then
    [[ -z ${POOLSCOPE_CLI:-} ]] || die "POOLSCOPE_CLI=$CLI is not an executable"
    echo "building $CLI (Release) ..." >&2
    cmake -S "$ROOT" -B "$ROOT/build-bench" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=OFF >&2 ||
        die "cmake configure failed"
    cmake --build "$ROOT/build-bench" --target poolscope-cli -j"$(nproc)" >&2 || die "build failed"
fi

WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/poolscope-bench.XXXXXX")
SERVER_PID=
cleanup() {
    if [[ -n $SERVER_PID ]]; then
        kill "$SERVER_PID" 2>/dev/null || true
        wait "$SERVER_PID" 2>/dev/null || true
    fi
    rm -rf "$WORKDIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# A private server on a free loopback port, no persistence. A port taken meanwhile makes
# redis-server exit at once: try another.
PORT=
for _ in $(seq 1 20); do
    candidate=$((20000 + RANDOM % 20000))
    redis-server --port "$candidate" --bind 127.0.0.1 --save "" --appendonly no \
        --dir "$WORKDIR" --logfile "$WORKDIR/redis.log" &
    SERVER_PID=$!
    for _ in $(seq 1 50); do
        if redis-cli -p "$candidate" ping >/dev/null 2>&1; then
            PORT=$candidate
            break
        fi
        kill -0 "$SERVER_PID" 2>/dev/null || break
        sleep 0.1
    done
    [[ -n $PORT ]] && break
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
    SERVER_PID=
done
[[ -n $PORT ]] || die "could not start redis-server on a free port"
URL=redis://127.0.0.1:$PORT/0
rcli() { redis-cli -p "$PORT" "$@"; }

# 100 members at count 0.
members=()
for i in $(seq -w 0 99); do members+=(0 "proxy-$i"); done
rcli ZADD "$KEY" "${members[@]}" >/dev/null
[[ $(rcli ZCARD "$KEY") == 100 ]] || die "seeding the pool failed"

# The exact bytes poolscope sends (command substitution would drop the final newline).
SHA=$(rcli -x SCRIPT LOAD <"$SCRIPT")
CLI_SHA=$("$CLI" script-sha) || die "$CLI does not run"
[[ $SHA == "$CLI_SHA" ]] || die "redis-benchmark would run script $SHA, poolscope runs $CLI_SHA"

score_sum() {
    rcli ZRANGE "$KEY" 0 -1 WITHSCORES | awk 'NR % 2 == 0 { sum += $1 } END { printf "%.0f\n", sum }'
}
json_number() { # json_number FIELD < json
    grep -o "\"$1\":[-0-9.eE+]*" | head -1 | cut -d: -f2
}
median() { # median of the arguments
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "nan"; exit }
        if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

SERVER_VERSION=$(redis-server --version | grep -o 'v=[^ ]*' | cut -d= -f2)
CPU_MODEL=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
REVISION=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "machine: $(nproc) CPUs, ${CPU_MODEL:-unknown CPU}, $(uname -sr); redis-server $SERVER_VERSION;" \
    "poolscope $REVISION (+ working tree), $CLI" >&2
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

accounting_failures=0
runs_with_unknown=0
poolscope_runs=0
declare -a rows=()

# Both read $workers, $pipeline, $count; they set $rb and $ps.
run_redis_benchmark() {
    # C clients on one event loop, -P commands per batch.
    local csv
    csv=$(redis-benchmark -p "$PORT" -c "$workers" -n "$count" -P "$pipeline" --csv \
        EVALSHA "$SHA" 1 "$KEY") || die "redis-benchmark failed"
    rb=$(echo "$csv" | tail -1 | awk -F'","' '{ print $2 }')
    rb_rates+=("$rb")
}
run_poolscope() {
    local before after json allocated unknown errors empty rose
    before=$(score_sum)
    # A long command timeout: on a busy machine a stall of a second would otherwise turn the
    # whole window into "unknown" (counted, reconnected; it does not change the speed).
    json=$("$CLI" --url "$URL" --key "$KEY" --command-timeout 10000 --json allocate -n "$count" \
        --workers "$workers" --pipeline "$pipeline") || die "poolscope-cli allocate failed: $json"
    after=$(score_sum)
    ps=$(json_number rate_per_s <<<"$json")
    allocated=$(json_number allocated <<<"$json")
    unknown=$(json_number unknown <<<"$json")
    errors=$(json_number errors <<<"$json")
    empty=$(json_number empty <<<"$json")
    ps_rates+=("$ps")
    poolscope_runs=$((poolscope_runs + 1))
    rose=$((after - before))
    # Every attempt has one outcome, and the scores rose by exactly `allocated`, plus at most
    # the allocations whose reply never came.
    if ((allocated + unknown + errors + empty != count || rose < allocated ||
        rose > allocated + unknown)); then
        accounting_failures=$((accounting_failures + 1))
        echo "ACCOUNTING MISMATCH: $workers workers, pipeline $pipeline: scores rose by $rose," \
            "report: allocated $allocated, unknown $unknown, errors $errors, empty $empty of $count" >&2
    elif ((unknown > 0)); then
        runs_with_unknown=$((runs_with_unknown + 1))
        echo "note: $unknown allocations with unknown outcome (connection lost or timed out);" \
            "scores rose by $rose = allocated $allocated + $((rose - allocated)) of them" >&2
    fi
}
IFS=';' read -r -a settings <<<"$SETTINGS"
for setting in "${settings[@]}"; do
    read -r workers pipeline count <<<"$setting"
    rb_rates=()
    ps_rates=()
    round_ratios=()
    for round in $(seq 1 "$ROUNDS"); do
        # Who goes first alternates, so a machine getting busier or quieter favours neither.
        if ((round % 2 == 0)); then run_poolscope; fi
        run_redis_benchmark
        if ((round % 2 == 1)); then run_poolscope; fi
        round_ratios+=("$(awk -v a="$ps" -v b="$rb" 'BEGIN { printf "%.3f", (b > 0 ? a / b : 0) }')")
        printf '%-24s round %d: redis-benchmark %9.0f/s  poolscope %9.0f/s  ratio %s\n' \
            "$workers workers, pipeline $pipeline" "$round" "$rb" "$ps" "${round_ratios[-1]}" >&2
    done
    rb_median=$(median "${rb_rates[@]}")
    ps_median=$(median "${ps_rates[@]}")
    ratio=$(awk -v a="$ps_median" -v b="$rb_median" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    paired=$(printf '%.2f' "$(median "${round_ratios[@]}")")
    label="$workers, $([[ $pipeline == 1 ]] && echo none || echo "$pipeline")"
    rows+=("$(printf '| %s | %s | %.0f | %.0f | %s | %s |' "$label" "$count" "$rb_median" "$ps_median" "$ratio" "$paired")")
done


echo
echo "Allocations per second, medians of $ROUNDS alternating rounds (EVALSHA allocate.lua, 100-member pool)."
echo "Machine: $(nproc) CPUs, ${CPU_MODEL:-unknown CPU}; redis-server $SERVER_VERSION on loopback TCP; load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| workers/clients, pipeline | allocations per run | redis-benchmark /s | poolscope /s | ratio of medians | median of paired ratios |"
echo "|---|---|---|---|---|---|"
printf '%s\n' "${rows[@]}"
echo
if ((accounting_failures == 0 && runs_with_unknown == 0)); then
    echo "Exact accounting held in all $poolscope_runs poolscope runs (sum of scores rose by exactly 'allocated')."
elif ((accounting_failures == 0)); then
    echo "Accounting held in all $poolscope_runs poolscope runs; $runs_with_unknown had allocations" \
        "of unknown outcome (scores rose by 'allocated' plus at most 'unknown', see above)."
else
    echo "ACCOUNTING MISMATCH in $accounting_failures of $poolscope_runs poolscope runs (see above)."
fi
