#!/usr/bin/env bash
# The overview window and a production window on a real X display (Xvfb + openbox), driven with
# xdotool: three saved connections (a staging server with two pools, a production server, and one
# whose server is down), the dashboard started on the production one (it must open locked and
# write nothing there), then View ▸ Overview… (Ctrl+Shift+V). Screenshots in $3.
# Every server is on 127.0.0.1 and started here; all are stopped by PID at exit.
# Usage: overview-shots.sh POOLSCOPE POOLSCOPE_CLI [SCREENSHOT_DIR]
set -euo pipefail
app=$1
cli=$2
label=overview
shots_dir=${3:-}
source "$(dirname "$0")/common.sh"
fail() {
    echo "overview: FAIL: $*" >&2
    [[ -n ${DISPLAY:-} ]] && import -window root "$shots/overview-failure.png" 2>/dev/null || true
    [[ -f $work/poolscope.log ]] && tail -n 30 "$work/poolscope.log" >&2
    exit 1
}
step() { echo "overview: $*"; }

export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_DATA_HOME=$work/home/.local/share
export XDG_CACHE_HOME=$work/home/.cache XDG_RUNTIME_DIR=$work/runtime
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
unset DBUS_SESSION_BUS_ADDRESS # no keychain

free_port() {
    local port
    while :; do
        port=$((20000 + RANDOM % 20000))
        if ! (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
            echo "$port"
            return
        fi
    done
}
start_redis() {
    redis-server --port "$1" --bind 127.0.0.1 --save '' --appendonly no \
        --dir "$work" --dbfilename "dump-$1.rdb" >"$work/redis-$1.log" 2>&1 &
    pids+=($!)
    for _ in $(seq 100); do
        redis-cli -h 127.0.0.1 -p "$1" PING 2>/dev/null | grep -q PONG && return 0
        sleep 0.1
    done
    fail "redis-server on port $1 did not start"
}
rc() { local port=$1; shift; redis-cli -h 127.0.0.1 -p "$port" "$@"; }
alive() { kill -0 "$app_pid" 2>/dev/null || fail "the dashboard exited"; }
keys() { alive; xdotool key --clearmodifiers --delay 60 "$@"; sleep 0.3; }
shot() { import -window root "$shots/$1.png" && step "screenshot $shots/$1.png"; }

staging=$(free_port)
production=$(free_port)
down=$(free_port) # nothing listens there: the unreachable connection
start_redis "$staging"
start_redis "$production"
for i in $(seq 0 11); do rc "$staging" ZADD proxies $((100 + i % 4)) "m$i" >/dev/null; done
for i in $(seq 0 5); do rc "$staging" ZADD backup $((10 + i)) "b$i" >/dev/null; done
for i in $(seq 0 19); do rc "$production" ZADD proxies $((5000 + i % 7)) "p$i" >/dev/null; done
"$cli" profile add staging --url "redis://127.0.0.1:$staging/0" --key proxies --group eu \
    --env staging >/dev/null
"$cli" profile add production --url "redis://127.0.0.1:$production/0" --key proxies --group eu \
    --env production >/dev/null
"$cli" profile add gone --url "redis://127.0.0.1:$down/0" --key proxies --env development >/dev/null
# Allocations on the staging pool, for its trend.
redis-cli -h 127.0.0.1 -p "$staging" -r 100000 -i 0.02 ZINCRBY proxies 1 m3 >/dev/null 2>&1 &
pids+=($!)
before=$(rc "$production" ZRANGE proxies 0 -1 WITHSCORES | md5sum)

exec 5>"$work/display"
Xvfb -displayfd 5 -screen 0 1600x1000x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
wait_for 10 test -s "$work/display" || fail "Xvfb did not start"
export DISPLAY=:$(head -1 "$work/display")
openbox >"$work/openbox.log" 2>&1 &
pids+=($!)
sleep 1

step "starting $app on the production connection"
"$app" --profile production >"$work/poolscope.log" 2>&1 &
app_pid=$!
pids+=($app_pid)
window=$(timeout 30 xdotool search --sync --onlyvisible --name '^poolscope' | head -1) ||
    fail "no poolscope window"
xdotool windowactivate --sync "$window" windowfocus --sync "$window" || true
sleep 4
shot production-window
# The Delete key (evict) on production while locked: nothing may change.
keys Delete
sleep 1
[[ $(rc "$production" ZRANGE proxies 0 -1 WITHSCORES | md5sum) == "$before" ]] ||
    fail "the production pool changed while writes were locked"

step "View ▸ Overview… (Ctrl+Shift+V)"
keys ctrl+shift+v
overview=$(timeout 20 xdotool search --sync --onlyvisible --name '^Overview' | head -1) ||
    fail "no overview window"
xdotool windowsize "$overview" 1560 400 windowmove "$overview" 20 560 || true
sleep 12 # three readings at the default 5 s: rates and trends
shot overview
rows=$("$cli" overview --json | grep -c '"pool"' || true)
step "the CLI's overview of the same connections: $rows rows"
keys ctrl+f
xdotool type --delay 20 gone
sleep 1
shot overview-filtered
alive
step "done"
