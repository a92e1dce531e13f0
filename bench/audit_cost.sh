#!/usr/bin/env bash
# What the audit trail costs: server time per action and memory per entry.
#
# A private redis-server (bench/private-redis.sh) and a pool of 10,000 members with ids of a
# realistic length. Each round runs, on the same pool, ACTIONS evictions and restores (an evict
# then a restore, policy keep, member after member) and SEEDS seed batches of 200 new members,
# once with the scripts as they are now (each writes its audit entry) and once with the scripts
# from before the audit trail (read from git: the parent of the commit that added XADD to
# evict.lua), the order alternating from round to round. CONFIG RESETSTAT before each run and
# INFO commandstats after it give the server's time per script call (usec_per_call of EVALSHA).
# Then MEMORY USAGE of the trail (SAMPLES 0: every node counted) over XLEN gives the bytes an
# entry takes, for evict/restore entries and for seed entries (200 members each).
#
# Usage: ROUNDS=5 ACTIONS=20000 SEEDS=200 bench/audit_cost.sh
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
rounds=${ROUNDS:-3}
actions=${ACTIONS:-20000}
seeds=${SEEDS:-200}
members=10000
for tool in redis-server redis-cli git awk; do
    command -v $tool >/dev/null || { echo "audit_cost: $tool is missing" >&2; exit 2; }
done
added=$(git -C "$top" log -1 --format=%H -S"'XADD'" -- resources/lua/evict.lua)
[[ -n $added ]] || { echo "audit_cost: no commit adds XADD to evict.lua (no git history?)" >&2; exit 2; }
base=$added^

source "$top/bench/private-redis.sh"
# shellcheck disable=SC2119 # no command prefix for the server
start_private_redis

load() { rc -x SCRIPT LOAD; } # -x: the bytes as they are, final newline included
new_evict=$(load < "$top/resources/lua/evict.lua")
new_restore=$(load < "$top/resources/lua/restore.lua")
new_seed=$(load < "$top/resources/lua/seed.lua")
old_evict=$(git -C "$top" show "$base:resources/lua/evict.lua" | load)
old_restore=$(git -C "$top" show "$base:resources/lua/restore.lua" | load)
old_seed=$(git -C "$top" show "$base:resources/lua/seed.lua" | load)

keys='3 pool {pool}:evicted:pool {pool}:audit:pool'
# Who and why, an operator's with a reason as long as a guard's (guard id empty: an operator's
# evict and restore, so each restore undoes its evict and the pool stays as it was).
who='100000 "2 consecutive failed checks, last: refused (connection refused)" default bench-host "poolscope-cli 0.1.0" 4242 ""'


rc DEL pool >/dev/null
awk -v n=$members 'BEGIN { for (b = 0; b < n; b += 1000) { line = "ZADD pool";
    for (i = b; i < b + 1000 && i < n; i++) line = line " 0 p" i ".proxies.example:8080"; print line } }' |
    redis-cli -s "$sock" >/dev/null

# The command files: evict + restore of members in turn; seed batches of 200 new members.
work_files=$(mktemp -d)
trap 'rm -rf "$work_files"; stop_private_redis' EXIT
awk -v n="$actions" -v m=$members -v e="$new_evict" -v r="$new_restore" -v k="$keys" -v w="$who" \
    'BEGIN { for (i = 0; i < n; i++) { id = "p" (i % m) ".proxies.example:8080";
        print "EVALSHA " e " " k " " w " " id " \"\"";
        print "EVALSHA " r " " k " " w " " id " \"\" keep 0" } }' >"$work_files/new-actions"
awk -v n="$actions" -v m=$members -v e="$old_evict" -v r="$old_restore" \
    'BEGIN { for (i = 0; i < n; i++) { id = "p" (i % m) ".proxies.example:8080";
        print "EVALSHA " e " 2 pool {pool}:evicted:pool " id;
        print "EVALSHA " r " 2 pool {pool}:evicted:pool " id " keep 0 operator" } }' >"$work_files/old-actions"
seed_lines() { # new|old round
    awk -v n="$seeds" -v s="$([[ $1 == new ]] && echo "$new_seed" || echo "$old_seed")" \
        -v new="$1" -v round="$2" -v k="$keys" -v w="$who" \
        'BEGIN { for (b = 0; b < n; b++) {
            line = new == "new" ? "EVALSHA " s " " k " " w " 0 0 0" : "EVALSHA " s " 2 pool {pool}:evicted:pool 0 0 0";
            for (i = 0; i < 200; i++) { id = "s" new round "-" b "-" i ".proxies.example:8080";
                line = line " " id (new == "new" ? " \"\"" : "") }
            print line } }'
}

# usec_per_call of EVALSHA after running the file. A run of the new scripts starts with an empty
# trail, and the old scripts never touch it: after both, it holds the new run's entries alone.
run() { # file
    [[ $1 == */new-* ]] && rc DEL '{pool}:audit:pool' >/dev/null
    rc CONFIG RESETSTAT >/dev/null
    redis-cli -s "$sock" <"$1" | grep -v -x -e evicted -e restored -e 0 -e '[0-9]*' -e '' |
        sort | uniq -c | sed 's/^/unexpected replies: /' >&2 || true
    rc INFO commandstats | awk -F'[,=]' '/^cmdstat_evalsha:/ { print $6 }' | tr -d '\r'
}

declare -a new_action old_action new_seed_us old_seed_us
for ((round = 0; round < rounds; round++)); do
    seed_lines new "$round" >"$work_files/new-seeds"
    seed_lines old "$round" >"$work_files/old-seeds"
    if ((round % 2 == 0)); then
        o=$(run "$work_files/old-actions"); n=$(run "$work_files/new-actions")
    else
        n=$(run "$work_files/new-actions"); o=$(run "$work_files/old-actions")
    fi
    new_action+=("$n") old_action+=("$o")
    echo "round $((round + 1)): evict/restore $o us per call before the trail, $n us with it" >&2
    action_entries=$(rc XLEN '{pool}:audit:pool')
    ((action_entries == 2 * actions)) || echo "expected $((2 * actions)) entries, found $action_entries" >&2
    action_bytes=$(rc MEMORY USAGE '{pool}:audit:pool' SAMPLES 0)
    if ((round % 2 == 0)); then
        o=$(run "$work_files/old-seeds"); n=$(run "$work_files/new-seeds")
    else
        n=$(run "$work_files/new-seeds"); o=$(run "$work_files/old-seeds")
    fi
    new_seed_us+=("$n") old_seed_us+=("$o")
    seed_entries=$(rc XLEN '{pool}:audit:pool')
    seed_bytes=$(rc MEMORY USAGE '{pool}:audit:pool' SAMPLES 0)
    echo "round $((round + 1)): seed batch $o us per call before the trail, $n us with it" >&2
    ((seed_entries == seeds)) || echo "expected $seeds seed entries, found $seed_entries" >&2
done
med() { printf '%s\n' "$@" | median; }
echo "machine: $(nproc) CPUs, $(awk -F': ' '/model name/ { print $2; exit }' /proc/cpuinfo)," \
    "redis $(redis-server --version | awk '{ print $3 }' | cut -d= -f2), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "| per script call (median of $rounds rounds) | before the trail | with its entry | difference |"
echo "|---|---|---|---|"
awk -v a="$(med "${old_action[@]}")" -v b="$(med "${new_action[@]}")" \
    'BEGIN { printf "| evict or restore (%d of each a round) | %.2f us | %.2f us | +%.2f us |\n", '"$actions"', a, b, b - a }'
awk -v a="$(med "${old_seed_us[@]}")" -v b="$(med "${new_seed_us[@]}")" \
    'BEGIN { printf "| seed batch of 200 new members (%d a round) | %.1f us | %.1f us | +%.1f us (%.2f us a member) |\n", '"$seeds"', a, b, b - a, (b - a) / 200 }'
echo
awk -v e="$action_entries" -v b="$action_bytes" -v s="$seed_entries" -v sb="$seed_bytes" \
    'BEGIN { printf "memory: %d evict/restore entries take %d bytes (%.0f a entry); %d seed entries of 200 members %d bytes (%.0f an entry, %.1f a member)\n", e, b, b / e, s, sb, sb / s, sb / s / 200 }'
