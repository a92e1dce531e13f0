# Sourced by the benchmarks that need a private redis-server with a pool of members: starts it on
# a unix socket in a temporary directory (no persistence), stops it and every PID in `pids` on
# exit, and defines rc (redis-cli on it), load_pool MEMBERS (key "pool", all at 0) and median
# (of the numbers on standard input).
# Usage: source bench/private-redis.sh; start_private_redis [command prefix, e.g. taskset -c 0]
# Sets: work, sock, pids.

start_private_redis() {
    work=$(mktemp -d)
    sock=$work/redis.sock
    "$@" redis-server --port 0 --unixsocket "$sock" --unixsocketperm 700 --save "" --appendonly no \
        --dir "$work" --logfile "$work/redis.log" --daemonize yes --pidfile "$work/redis.pid"
    pids=()
    trap stop_private_redis EXIT
    for _ in $(seq 100); do redis-cli -s "$sock" ping >/dev/null 2>&1 && break; sleep 0.05; done
}

stop_private_redis() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    if [[ -f $work/redis.pid ]]; then
        local server
        server=$(cat "$work/redis.pid")
        kill "$server" 2>/dev/null || true
        # Gone before its directory is: it writes its log on the way out.
        for _ in $(seq 100); do kill -0 "$server" 2>/dev/null || break; sleep 0.05; done
    fi
    rm -rf "$work"
}

rc() { redis-cli -s "$sock" "$@"; }

load_pool() { # members
    rc DEL pool >/dev/null
    awk -v n="$1" 'BEGIN { for (b = 0; b < n; b += 1000) { line = "ZADD pool";
        for (i = b; i < b + 1000 && i < n; i++) line = line " 0 m" i; print line } }' |
        redis-cli -s "$sock" >/dev/null
    [[ $(rc ZCARD pool) == "$1" ]] || { echo "could not load $1 members" >&2; exit 1; }
}

median() { sort -g | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }'; }
