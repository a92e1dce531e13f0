#!/usr/bin/env bash
# What a Sentinel failover costs a load run, with no WAIT and with WAIT 1 after each window:
# allocations per second without a failover and across one, and the acknowledged allocations
# each failover lost (poolscope-cli's loss check: the pool read before and after the run,
# compared with the allocations acknowledged per member). One primary, one replica and three
# sentinels (down-after-milliseconds 1000) on loopback, started here; each round kills the
# primary with kill -9 one second into a run and brings it back as a replica of the new one.
# Prints a markdown table. Exits non-zero only when it could not run. See bench/README.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=${POOLSCOPE_CLI:-$ROOT/build/app/poolscope-cli}
FAILOVERS=${FAILOVERS:-3}  # per mode
WORKERS=${WORKERS:-4}
PIPELINE=${PIPELINE:-8}
SECONDS_PER_RUN=${SECONDS_PER_RUN:-6}
KEY=bench:pool
MASTER=benchmaster

die() {
    echo "sentinel_failover.sh: $*" >&2
    exit 2
}
for tool in redis-server redis-cli awk; do
    command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install redis-server redis-tools)"
done
[[ -x $CLI ]] || die "no poolscope-cli at $CLI (build it, or set POOLSCOPE_CLI)"

WORK=$(mktemp -d "${TMPDIR:-/tmp}/poolscope-sentinelbench.XXXXXX")
declare -A PID
cleanup() {
    for pid in "${PID[@]}"; do kill -9 "$pid" 2>/dev/null || true; done
    rm -rf "$WORK"
}
trap cleanup EXIT

free_port() { # a free loopback port at most 55535 (redis-server's cluster bus rule, kept simple)
    local port
    while :; do
        port=$((20000 + RANDOM % 30000))
        (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { echo "$port"; return; }
    done
}
wait_until() { # seconds command...: polls a condition of a process started here
    local deadline=$((SECONDS + $1))
    shift
    until "$@" >/dev/null 2>&1; do
        ((SECONDS < deadline)) || return 1
        sleep 0.1
    done
}
start_server() { # name port [replicaof-port]
    local args=(--port "$2" --bind 127.0.0.1 --save "" --appendonly no --dir "$WORK"
        --logfile "$WORK/$1.log" --daemonize no)
    [[ -n ${3:-} ]] && args+=(--replicaof 127.0.0.1 "$3")
    redis-server "${args[@]}" &
    PID[$1]=$!
    disown
    wait_until 10 redis-cli -p "$2" ping || die "$1 did not start"
}
start_sentinel() { # index port primary-port
    mkdir -p "$WORK/s$1"
    cat >"$WORK/s$1/sentinel.conf" <<CONF
port $2
bind 127.0.0.1
dir $WORK/s$1
logfile $WORK/s$1/sentinel.log
sentinel monitor $MASTER 127.0.0.1 $3 2
sentinel down-after-milliseconds $MASTER 1000
sentinel failover-timeout $MASTER 2000
CONF
    redis-server "$WORK/s$1/sentinel.conf" --sentinel &
    PID[s$1]=$!
    disown
    wait_until 10 redis-cli -p "$2" ping || die "sentinel $1 did not start"
}
primary_port() { redis-cli -p "${SPORT[0]}" SENTINEL get-master-addr-by-name "$MASTER" | sed -n 2p; }
replica_ready() { # port: linked to its primary, and every sentinel sees it as a healthy replica
    redis-cli -p "$1" INFO replication | grep -q 'master_link_status:up' || return 1
    local s
    for s in "${SPORT[@]}"; do
        redis-cli -p "$s" SENTINEL replicas "$MASTER" | grep -A1 -x flags | grep -qx slave || return 1
        redis-cli -p "$s" SENTINEL ckquorum "$MASTER" | grep -q OK || return 1
    done
}
field() { grep -o "\"$1\": *[0-9.e+-]*" | head -1 | sed 's/.*: *//'; }

PORT_A=$(free_port)
PORT_B=$(free_port)
start_server a "$PORT_A"
start_server b "$PORT_B" "$PORT_A"
SPORT=()
for i in 0 1 2; do
    SPORT[i]=$(free_port)
    start_sentinel "$i" "${SPORT[i]}" "$PORT_A"
done
wait_until 30 replica_ready "$PORT_B" || die "the sentinels did not see the replica and each other"
URL="redis+sentinel://127.0.0.1:${SPORT[0]},127.0.0.1:${SPORT[1]},127.0.0.1:${SPORT[2]}/$MASTER"

redis-cli -p "$PORT_A" DEL "$KEY" >/dev/null
redis-cli -p "$PORT_A" ZADD "$KEY" $(for i in $(seq 0 99); do echo "0 m$i"; done) >/dev/null
redis-cli -p "$PORT_A" WAIT 1 2000 >/dev/null

run() { # extra CLI options...: one run, its JSON on standard output
    "$CLI" --url "$URL" --key "$KEY" --connect-timeout 500 --command-timeout 500 allocate \
        --workers "$WORKERS" --pipeline "$PIPELINE" --duration "$SECONDS_PER_RUN" --json "$@"
}

# Bytes of replication stream the replica had not yet taken in, read just before the kill.
replica_lag() { # primary-port
    redis-cli -p "$1" INFO replication | tr -d '\r' | awk -F'[:=,]' '
        /^master_repl_offset:/ { primary = $2 }
        /^slave0:/ { for (i = 1; i < NF; i++) if ($i == "offset") replica = $(i + 1) }
        END { print primary - replica }'
}

declare -A STEADY RATE LOST UNKNOWN LAG SHORT
for mode in none wait1; do
    extra=()
    [[ $mode == wait1 ]] && extra=(--wait-replicas 1 --wait-timeout 1000)
    STEADY[$mode]=$(run "${extra[@]}" | field rate_per_s)
    for round in $(seq "$FAILOVERS"); do
        primary=$(primary_port)
        [[ $primary == "$PORT_A" ]] && { victim=a other=$PORT_B; } || { victim=b other=$PORT_A; }
        run "${extra[@]}" >"$WORK/run.json" &
        runner=$!
        sleep 1
        lag=$(replica_lag "$primary")
        kill -9 "${PID[$victim]}"
        wait "$runner" || true
        json=$(cat "$WORK/run.json")
        failovers=$(field failovers <<<"$json")
        [[ $failovers == 1 ]] || die "round $round ($mode): the run saw $failovers failovers: $json"
        RATE[$mode]+="$(field rate_per_s <<<"$json") "
        LOST[$mode]+="$(field lost_in_failover <<<"$json") "
        UNKNOWN[$mode]+="$(field unknown <<<"$json") "
        LAG[$mode]+="$lag "
        SHORT[$mode]+="$(field waits_short <<<"$json")/$(field waits <<<"$json") "
        echo "$mode, failover $round: $(field allocated <<<"$json") allocated," \
            "$(field lost_in_failover <<<"$json") lost in failover," \
            "$(field unknown <<<"$json") unknown, replica $lag bytes behind at the kill" >&2
        # The old primary comes back as a replica of the new one, ready for the next round
        # (a second failover of the same master waits for 2 x failover-timeout).
        if [[ $victim == a ]]; then start_server a "$PORT_A" "$other"; else start_server b "$PORT_B" "$other"; fi
        back=$([[ $victim == a ]] && echo "$PORT_A" || echo "$PORT_B")
        wait_until 30 replica_ready "$back" || die "the old primary did not come back as a replica"
        sleep 4
    done
done

mean() { awk '{ s = 0; for (i = 1; i <= NF; i++) s += $i; printf "%.0f", NF ? s / NF : 0 }'; }
whole() { awk '{ for (i = 1; i <= NF; i++) printf "%s%.0f", (i > 1 ? ", " : ""), $i }'; }
echo
echo "| mode | allocations/s, no failover | allocations/s, runs with a failover (each) | acknowledged allocations lost per failover | unknown | replica behind at the kill (bytes) | WAITs short / answered |"
echo "|---|---|---|---|---|---|---|"
for mode in none wait1; do
    label=$([[ $mode == none ]] && echo "no WAIT" || echo "WAIT 1 after each window of $PIPELINE")
    printf '| %s | %.0f | %s (%s) | %s | %s | %s | %s |\n' "$label" "${STEADY[$mode]}" \
        "$(mean <<<"${RATE[$mode]}")" "$(whole <<<"${RATE[$mode]}")" "$(whole <<<"${LOST[$mode]}")" \
        "$(whole <<<"${UNKNOWN[$mode]}")" "$(whole <<<"${LAG[$mode]}")" "${SHORT[$mode]% }"
done
echo
echo "$WORKERS workers, pipeline $PIPELINE, $SECONDS_PER_RUN s runs, primary killed 1 s in; $FAILOVERS failovers per mode."
