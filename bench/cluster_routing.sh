#!/usr/bin/env bash
# Allocations per second on one pool of a three-primary Redis Cluster: poolscope's load runner
# through the cluster URL (redis+cluster://, seeds listed with the owner LAST, so the map is
# read from another node and the workers are routed to the owner) next to the same runner with
# a plain URL naming the owner itself (direct), and redis-benchmark (EVALSHA) against the owner,
# in the same run, order rotating. Then runs while the pool's slot migrates to another primary
# and back (ASK, then MOVED): rate, redirections followed, and exact accounting.
# Exits non-zero only when it could not run. See bench/README.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=${POOLSCOPE_CLI:-$ROOT/build-bench/app/poolscope-cli}
ROUNDS=${ROUNDS:-3}
WORKERS=${WORKERS:-50}
PIPELINE=${PIPELINE:-32}
COUNT=${COUNT:-300000}
MIGRATION_SECONDS=${MIGRATION_SECONDS:-4}
KEY='{bench}:pool'
SCRIPT=$ROOT/resources/lua/allocate.lua

die() {
    echo "cluster_routing.sh: $*" >&2
    exit 2
}

for tool in redis-server redis-cli redis-benchmark awk; do
    command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install redis-server redis-tools)"
done
if [[ ! -x $CLI ]]; then
    [[ -z ${POOLSCOPE_CLI:-} ]] || die "POOLSCOPE_CLI=$CLI is not an executable"
    echo "building $CLI (Release) ..." >&2
    cmake -S "$ROOT" -B "$ROOT/build-bench" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=OFF >&2 ||
        die "cmake configure failed"
    cmake --build "$ROOT/build-bench" --target poolscope-cli -j"$(nproc)" >&2 || die "build failed"
fi

WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/poolscope-clusterbench.XXXXXX")
PIDS=()
cleanup() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$WORKDIR"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Three primaries on free loopback ports (the bus port given explicitly: port + 10000 may not
# exist), no persistence.
PORTS=()
for n in 0 1 2; do
    started=
    for _ in $(seq 1 20); do
        port=$((20000 + RANDOM % 20000))
        bus=$((port + 1))
        mkdir -p "$WORKDIR/n$n"
        redis-server --port "$port" --bind 127.0.0.1 --cluster-enabled yes --cluster-port "$bus" \
            --cluster-config-file "$WORKDIR/n$n/nodes.conf" --save "" --appendonly no \
            --dir "$WORKDIR/n$n" --logfile "$WORKDIR/n$n/redis.log" &
        pid=$!
        for _ in $(seq 1 50); do
            redis-cli -p "$port" ping >/dev/null 2>&1 && { started=$port; break; }
            kill -0 "$pid" 2>/dev/null || break
            sleep 0.1
        done
        if [[ -n $started ]]; then
            PIDS+=("$pid")
            break
        fi
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    [[ -n $started ]] || die "could not start node $n"
    PORTS+=("$started")
done
redis-cli --cluster create "127.0.0.1:${PORTS[0]}" "127.0.0.1:${PORTS[1]}" "127.0.0.1:${PORTS[2]}" \
    --cluster-yes >/dev/null || die "redis-cli --cluster create failed"
for port in "${PORTS[@]}"; do
    for _ in $(seq 1 300); do
        redis-cli -p "$port" CLUSTER INFO | grep -q cluster_state:ok && break
        sleep 0.1
    done
done

SLOT=$(redis-cli -p "${PORTS[0]}" CLUSTER KEYSLOT "$KEY")
owner_port() {
    redis-cli -p "${PORTS[0]}" CLUSTER SLOTS | awk -v s="$SLOT" '
        NR % 1 == 0 { lines[NR] = $0 } END {
            for (i = 1; i <= NR; i++) if (lines[i] ~ /^[0-9]+$/ && lines[i+1] ~ /^[0-9]+$/ &&
                lines[i] + 0 <= s && s <= lines[i+1] + 0) { print lines[i+3]; exit } }'
}
OWNER=$(owner_port)
[[ -n $OWNER ]] || die "cannot find the owner of slot $SLOT"
OTHER=
for port in "${PORTS[@]}"; do [[ $port != "$OWNER" ]] && { OTHER=$port; break; }; done
id_of() { redis-cli -p "$1" CLUSTER MYID; }
rowner() { redis-cli -p "$(owner_port)" "$@"; }

members=()
for i in $(seq -w 0 99); do members+=(0 "proxy-$i"); done
rowner ZADD "$KEY" "${members[@]}" >/dev/null
SHA=$(rowner -x SCRIPT LOAD <"$SCRIPT")
[[ $SHA == "$("$CLI" script-sha)" ]] || die "redis-benchmark would run another script than poolscope"

SEEDS=
for port in "${PORTS[@]}"; do [[ $port != "$OWNER" ]] && SEEDS+="127.0.0.1:$port,"; done
SEEDS+="127.0.0.1:$OWNER"
CLUSTER_URL="redis+cluster://$SEEDS"

score_sum() {
    rowner ZRANGE "$KEY" 0 -1 WITHSCORES | awk 'NR % 2 == 0 { sum += $1 } END { printf "%.0f\n", sum }'
}
json_number() { grep -o "\"$1\":[-0-9.eE+]*" | head -1 | cut -d: -f2; }
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "nan"; exit }
        if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}
accounting_failures=0
check_accounting() { # label json before after requested(0 = any)
    local allocated unknown errors empty rose
    allocated=$(json_number allocated <<<"$2")
    unknown=$(json_number unknown <<<"$2")
    errors=$(json_number errors <<<"$2")
    empty=$(json_number empty <<<"$2")
    rose=$(($4 - $3))
    if (($5 > 0 && allocated + unknown + errors + empty != $5)) || ((rose < allocated || rose > allocated + unknown)); then
        accounting_failures=$((accounting_failures + 1))
        echo "ACCOUNTING MISMATCH ($1): scores rose by $rose, report: allocated $allocated, unknown $unknown, errors $errors, empty $empty" >&2
    fi
}

echo "machine: $(nproc) CPUs, $(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo), $(uname -sr);" \
    "redis-server $(redis-server --version | grep -o 'v=[^ ]*' | cut -d= -f2); slot $SLOT on port $OWNER" >&2
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

declare -a rb=() direct=() routed=() ratio=()
run_ps() { # url
    local before after json
    before=$(score_sum)
    json=$("$CLI" --url "$1" --key "$KEY" --command-timeout 10000 --json allocate -n "$COUNT" \
        --workers "$WORKERS" --pipeline "$PIPELINE") || die "poolscope-cli allocate failed: $json"
    after=$(score_sum)
    check_accounting "$1" "$json" "$before" "$after" "$COUNT"
    rate=$(json_number rate_per_s <<<"$json")
}
for round in $(seq 1 "$ROUNDS"); do
    declare -A got=()
    for step in 0 1 2; do
        case $(((step + round - 1) % 3)) in
        0) rate=$(redis-benchmark -h 127.0.0.1 -p "$OWNER" -c "$WORKERS" -n "$COUNT" -P "$PIPELINE" \
            --csv EVALSHA "$SHA" 1 "$KEY" | tail -1 | awk -F'","' '{ print $2 }')
           got[rb]=$rate; rb+=("$rate") ;;
        1) run_ps "redis://127.0.0.1:$OWNER/0"; got[direct]=$rate; direct+=("$rate") ;;
        2) run_ps "$CLUSTER_URL"; got[routed]=$rate; routed+=("$rate") ;;
        esac
    done
    ratio+=("$(awk -v a="${got[routed]}" -v b="${got[direct]}" 'BEGIN { printf "%.3f", a / b }')")
    printf 'round %d: redis-benchmark (owner) %7.0f  poolscope direct %7.0f  poolscope routed %7.0f\n' \
        "$round" "${got[rb]}" "${got[direct]}" "${got[routed]}" >&2
    unset got
done

# During a migration: a run of MIGRATION_SECONDS through the cluster URL; one second in, the
# slot moves to another primary (IMPORTING / MIGRATING, MIGRATE, SETSLOT NODE everywhere).
move_slot() { # from_port to_port
    local from_id to_id
    from_id=$(id_of "$1")
    to_id=$(id_of "$2")
    redis-cli -p "$2" CLUSTER SETSLOT "$SLOT" IMPORTING "$from_id" >/dev/null
    redis-cli -p "$1" CLUSTER SETSLOT "$SLOT" MIGRATING "$to_id" >/dev/null
    redis-cli -p "$1" MIGRATE 127.0.0.1 "$2" "" 0 5000 KEYS "$KEY" >/dev/null
    sleep 0.5 # allocations meet ASK meanwhile
    # The target first, as the cluster specification recommends, then the others.
    redis-cli -p "$2" CLUSTER SETSLOT "$SLOT" NODE "$to_id" >/dev/null
    for port in "${PORTS[@]}"; do
        [[ $port == "$2" ]] || redis-cli -p "$port" CLUSTER SETSLOT "$SLOT" NODE "$to_id" >/dev/null
    done
}
declare -a migrating=() moved=() asked=()
from=$OWNER
to=$OTHER
for round in $(seq 1 "$ROUNDS"); do
    before=$(score_sum)
    "$CLI" --url "$CLUSTER_URL" --key "$KEY" --command-timeout 10000 --json allocate -n 1000000000 \
        --duration "$MIGRATION_SECONDS" --workers "$WORKERS" --pipeline "$PIPELINE" >"$WORKDIR/run.json" &
    run=$!
    sleep 1
    move_slot "$from" "$to"
    wait "$run" || die "the run during the migration failed: $(cat "$WORKDIR/run.json")"
    json=$(cat "$WORKDIR/run.json")
    after=$(score_sum)
    check_accounting "migration" "$json" "$before" "$after" 0
    migrating+=("$(json_number rate_per_s <<<"$json")")
    moved+=("$(json_number moved <<<"$json")")
    asked+=("$(json_number ask <<<"$json")")
    printf 'migration round %d (%s -> %s): %7.0f allocations/s, MOVED %s, ASK %s\n' "$round" "$from" \
        "$to" "${migrating[-1]}" "${moved[-1]}" "${asked[-1]}" >&2
    tmp=$from; from=$to; to=$tmp
done

m() { printf '%.0f' "$(median "$@")"; }
echo
echo "Allocations per second on one pool of a 3-primary cluster, medians of $ROUNDS rounds (order rotating)," \
    "$WORKERS workers/clients, pipeline $PIPELINE, $COUNT allocations per run, 100-member pool."
echo "Machine: $(nproc) CPUs; load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| run | allocations/s | vs poolscope direct |"
echo "|---|---|---|"
echo "| redis-benchmark, EVALSHA to the owner | $(m "${rb[@]}") | $(awk -v a="$(median "${rb[@]}")" -v b="$(median "${direct[@]}")" 'BEGIN { printf "%.2f", a / b }') |"
echo "| poolscope, plain URL of the owner (direct) | $(m "${direct[@]}") | 1.00 |"
echo "| poolscope, redis+cluster:// (routed; median of per-round ratios) | $(m "${routed[@]}") | $(printf '%.2f' "$(median "${ratio[@]}")") |"
echo "| poolscope, routed, slot migrating during a ${MIGRATION_SECONDS} s run (MOVED $(median "${moved[@]}"), ASK $(median "${asked[@]}") per run) | $(m "${migrating[@]}") | $(awk -v a="$(median "${migrating[@]}")" -v b="$(median "${direct[@]}")" 'BEGIN { printf "%.2f", a / b }') |"
echo
echo "accounting mismatches: $accounting_failures"
