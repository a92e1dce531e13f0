#!/usr/bin/env bash
# Allocation throughput over TLS: `poolscope-cli allocate` (the load runner, through poolscope's
# TLS relay) next to `redis-benchmark --tls` running the same script (EVALSHA allocate.lua)
# against the same private redis-server, in the same run; the plain-TCP figures of both beside
# them (the server listens on a TLS port and a plain port). Each round also runs poolscope with one
# shared relay thread for all its TLS connections (POOLSCOPE_TLS_RELAY=1), the alternative to the
# default thread per connection. Prints a markdown table of medians and checks exact accounting after every
# poolscope run. Exits non-zero only when it could not run. See bench/README.md.
set -euo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
CLI=${POOLSCOPE_CLI:-$ROOT/build-bench/app/poolscope-cli}
ROUNDS=${ROUNDS:-3}
WORKERS=${WORKERS:-50}
PIPELINE=${PIPELINE:-32}
COUNT=${COUNT:-300000}
KEY=bench:pool
SCRIPT=$ROOT/resources/lua/allocate.lua

die() {
    echo "tls_throughput.sh: $*" >&2
    exit 2
}

for tool in redis-server redis-cli redis-benchmark openssl awk; do
    command -v "$tool" >/dev/null || die "$tool is not installed (apt-get install redis-server redis-tools openssl)"
done
[[ -r $SCRIPT ]] || die "cannot read $SCRIPT"

if [[ ! -x $CLI ]]; then
    [[ -z ${POOLSCOPE_CLI:-} ]] || die "POOLSCOPE_CLI=$CLI is not an executable"
    echo "building $CLI (Release) ..." >&2
    cmake -S "$ROOT" -B "$ROOT/build-bench" -DCMAKE_BUILD_TYPE=Release -DPOOLSCOPE_BUILD_GUI=OFF >&2 ||
        die "cmake configure failed"
    cmake --build "$ROOT/build-bench" --target poolscope-cli -j"$(nproc)" >&2 || die "build failed"
fi

WORKDIR=$(mktemp -d "${TMPDIR:-/tmp}/poolscope-tlsbench.XXXXXX")
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

# A CA and a server certificate for localhost / 127.0.0.1 (P-256, as the tests make them).
(
    cd "$WORKDIR"
    openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key \
        -out ca.pem -days 2 -subj "/CN=poolscope bench CA"
    openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key \
        -out server.csr -subj "/CN=localhost" -addext "subjectAltName=DNS:localhost,IP:127.0.0.1"
    printf 'subjectAltName=DNS:localhost,IP:127.0.0.1\n' >san.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 \
        -extfile san.ext -out server.pem
) >/dev/null 2>&1 || die "openssl could not make the certificates"

# One private server with a TLS port and a plain port (free loopback ports), no persistence.
PORT=
TLS_PORT=
for _ in $(seq 1 20); do
    candidate=$((20000 + RANDOM % 20000))
    redis-server --port "$candidate" --tls-port $((candidate + 1)) --bind 127.0.0.1 \
        --tls-cert-file "$WORKDIR/server.pem" --tls-key-file "$WORKDIR/server.key" \
        --tls-ca-cert-file "$WORKDIR/ca.pem" --tls-auth-clients no \
        --save "" --appendonly no --dir "$WORKDIR" --logfile "$WORKDIR/redis.log" &
    SERVER_PID=$!
    for _ in $(seq 1 50); do
        if redis-cli -p "$candidate" ping >/dev/null 2>&1; then
            PORT=$candidate
            TLS_PORT=$((candidate + 1))
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
[[ -n $PORT ]] || die "could not start redis-server on free ports"
rcli() { redis-cli -p "$PORT" "$@"; }
redis-cli -p "$TLS_PORT" --tls --cacert "$WORKDIR/ca.pem" ping >/dev/null || die "the TLS port does not answer"

members=()
for i in $(seq -w 0 99); do members+=(0 "proxy-$i"); done
rcli ZADD "$KEY" "${members[@]}" >/dev/null
[[ $(rcli ZCARD "$KEY") == 100 ]] || die "seeding the pool failed"
SHA=$(rcli -x SCRIPT LOAD <"$SCRIPT")
CLI_SHA=$("$CLI" script-sha) || die "$CLI does not run"
[[ $SHA == "$CLI_SHA" ]] || die "redis-benchmark would run script $SHA, poolscope runs $CLI_SHA"

score_sum() {
    rcli ZRANGE "$KEY" 0 -1 WITHSCORES | awk 'NR % 2 == 0 { sum += $1 } END { printf "%.0f\n", sum }'
}
json_number() { # json_number FIELD < json
    grep -o "\"$1\":[-0-9.eE+]*" | head -1 | cut -d: -f2
}
median() {
    printf '%s\n' "$@" | sort -g | awk '{ v[NR] = $1 } END {
        if (NR == 0) { print "nan"; exit }
        if (NR % 2) print v[(NR + 1) / 2]; else print (v[NR / 2] + v[NR / 2 + 1]) / 2 }'
}

SERVER_VERSION=$(redis-server --version | grep -o 'v=[^ ]*' | cut -d= -f2)
CPU_MODEL=$(awk -F': ' '/^model name/ { print $2; exit }' /proc/cpuinfo)
REVISION=$(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo unknown)
echo "machine: $(nproc) CPUs, ${CPU_MODEL:-unknown CPU}, $(uname -sr); redis-server $SERVER_VERSION;" \
    "$(openssl version); poolscope $REVISION (+ working tree), $CLI" >&2
echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)" >&2

accounting_failures=0
runs_with_unknown=0
poolscope_runs=0

# Each sets $rate and appends it to the array named after the variant.
declare -a rb_tls=() ps_tls=() ps_tls_shared=() rb_tcp=() ps_tcp=()
run_rb() { # run_rb tls|tcp
    local csv extra=()
    [[ $1 == tls ]] && extra=(--tls --cacert "$WORKDIR/ca.pem")
    local port=$PORT
    [[ $1 == tls ]] && port=$TLS_PORT
    csv=$(redis-benchmark -h 127.0.0.1 -p "$port" "${extra[@]}" -c "$WORKERS" -n "$COUNT" \
        -P "$PIPELINE" --csv EVALSHA "$SHA" 1 "$KEY") || die "redis-benchmark failed"
    rate=$(echo "$csv" | tail -1 | awk -F'","' '{ print $2 }')
}
run_ps() { # run_ps tls|tls-shared|tcp
    local url=redis://127.0.0.1:$PORT/0 extra=() relay=per-connection
    if [[ $1 != tcp ]]; then
        url=rediss://localhost:$TLS_PORT/0
        extra=(--tls-ca "$WORKDIR/ca.pem")
    fi
    [[ $1 == tls-shared ]] && relay=1
    local before after json allocated unknown errors empty rose
    before=$(score_sum)
    json=$(POOLSCOPE_TLS_RELAY=$relay "$CLI" --url "$url" "${extra[@]}" --key "$KEY" \
        --command-timeout 10000 --json allocate -n "$COUNT" --workers "$WORKERS" \
        --pipeline "$PIPELINE") || die "poolscope-cli allocate failed: $json"
    after=$(score_sum)
    rate=$(json_number rate_per_s <<<"$json")
    allocated=$(json_number allocated <<<"$json")
    unknown=$(json_number unknown <<<"$json")
    errors=$(json_number errors <<<"$json")
    empty=$(json_number empty <<<"$json")
    poolscope_runs=$((poolscope_runs + 1))
    rose=$((after - before))
    if ((allocated + unknown + errors + empty != COUNT || rose < allocated ||
        rose > allocated + unknown)); then
        accounting_failures=$((accounting_failures + 1))
        echo "ACCOUNTING MISMATCH ($1): scores rose by $rose, report: allocated $allocated," \
            "unknown $unknown, errors $errors, empty $empty of $COUNT" >&2
    elif ((unknown > 0)); then
        runs_with_unknown=$((runs_with_unknown + 1))
    fi
}

variants=(rb_tls ps_tls ps_tls_shared rb_tcp ps_tcp)
declare -a ratio_tls=() ratio_tls_shared=() ratio_tcp=()
for round in $(seq 1 "$ROUNDS"); do
    # The order rotates each round, so a machine getting busier or quieter favours no variant.
    declare -A got=()
    for step in 0 1 2 3 4; do
        variant=${variants[$(((step + round - 1) % 5))]}
        case $variant in
        rb_tls) run_rb tls ;;
        ps_tls) run_ps tls ;;
        ps_tls_shared) run_ps tls-shared ;;
        rb_tcp) run_rb tcp ;;
        ps_tcp) run_ps tcp ;;
        esac
        got[$variant]=$rate
        eval "$variant+=(\"$rate\")"
    done
    ratio_tls+=("$(awk -v a="${got[ps_tls]}" -v b="${got[rb_tls]}" 'BEGIN { printf "%.3f", a / b }')")
    ratio_tls_shared+=("$(awk -v a="${got[ps_tls_shared]}" -v b="${got[rb_tls]}" 'BEGIN { printf "%.3f", a / b }')")
    ratio_tcp+=("$(awk -v a="${got[ps_tcp]}" -v b="${got[rb_tcp]}" 'BEGIN { printf "%.3f", a / b }')")
    printf 'round %d: TLS redis-benchmark %7.0f  poolscope %7.0f (one shared relay thread %7.0f)   TCP redis-benchmark %7.0f  poolscope %7.0f\n' \
        "$round" "${got[rb_tls]}" "${got[ps_tls]}" "${got[ps_tls_shared]}" "${got[rb_tcp]}" "${got[ps_tcp]}" >&2
    unset got
done

m() { printf '%.0f' "$(median "$@")"; }
r() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
pr() { printf '%.2f' "$(median "$@")"; }
echo
echo "Allocations per second, medians of $ROUNDS rounds (order rotating), $WORKERS workers/clients," \
    "pipeline $PIPELINE, $COUNT allocations per run, EVALSHA allocate.lua, 100-member pool, one redis-server."
echo "Machine: $(nproc) CPUs, ${CPU_MODEL:-unknown CPU}; redis-server $SERVER_VERSION; $(openssl version | cut -d' ' -f1-2); load average after: $(cut -d' ' -f1-3 /proc/loadavg)."
echo
echo "| transport | redis-benchmark /s | poolscope /s | ratio of medians | median of per-round ratios |"
echo "|---|---|---|---|---|"
echo "| TLS (a relay thread per connection, the default) | $(m "${rb_tls[@]}") | $(m "${ps_tls[@]}") | $(r "$(median "${ps_tls[@]}")" "$(median "${rb_tls[@]}")") | $(pr "${ratio_tls[@]}") |"
echo "| TLS (one shared relay thread, POOLSCOPE_TLS_RELAY=1) | $(m "${rb_tls[@]}") | $(m "${ps_tls_shared[@]}") | $(r "$(median "${ps_tls_shared[@]}")" "$(median "${rb_tls[@]}")") | $(pr "${ratio_tls_shared[@]}") |"
echo "| plain TCP | $(m "${rb_tcp[@]}") | $(m "${ps_tcp[@]}") | $(r "$(median "${ps_tcp[@]}")" "$(median "${rb_tcp[@]}")") | $(pr "${ratio_tcp[@]}") |"
echo
if ((accounting_failures == 0 && runs_with_unknown == 0)); then
    echo "Exact accounting held in all $poolscope_runs poolscope runs (sum of scores rose by exactly 'allocated')."
elif ((accounting_failures == 0)); then
    echo "Accounting held in all $poolscope_runs poolscope runs; $runs_with_unknown had allocations of unknown outcome."
else
    echo "ACCOUNTING MISMATCH in $accounting_failures of $poolscope_runs poolscope runs (see above)."
fi
