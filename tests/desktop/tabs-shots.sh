#!/usr/bin/env bash
# Pools side by side in tabs, on a real X display with a window manager: two loopback
# redis-servers started here, one pool each; the dashboard opened on the first through a saved
# production connection (its tab in the production colour, writes locked), a second tab opened
# with Ctrl+Shift+T and pointed at the second by typing, Ctrl+Tab between them, the window closed
# and started again with no arguments: both tabs come back and poll their servers.
# Usage: tabs-shots.sh POOLSCOPE POOLSCOPE_CLI [SCREENSHOT_DIR]
set -euo pipefail
app=$1
cli=$2
label=tabs
shots_dir=${3:-}
source "$(dirname "$0")/common.sh"
fail() {
    echo "tabs: FAIL: $*" >&2
    [[ -n ${DISPLAY:-} ]] && import -window root "$shots/failure.png" 2>/dev/null || true
    [[ -f $work/poolscope.log ]] && tail -n 30 "$work/poolscope.log" >&2
    exit 1
}
step() { echo "tabs: $*"; }
export HOME=$work/home XDG_CONFIG_HOME=$work/home/.config XDG_DATA_HOME=$work/home/.local/share
export XDG_CACHE_HOME=$work/home/.cache XDG_RUNTIME_DIR=$work/runtime
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"

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
window_title() { xdotool getwindowname "$window" 2>/dev/null; }
title_has() { [[ $(window_title) == *"$1"* ]]; }
keys() { alive; xdotool key --clearmodifiers --delay 60 "$@"; sleep 0.3; }
type_text() { alive; xdotool type --clearmodifiers --delay 15 "$1"; sleep 0.2; }
shot() { import -window root "$shots/$1.png" && step "screenshot $shots/$1.png"; }
pollers() { rc "$1" CLIENT LIST | grep -c name=poolscope-poller; }
start_app() {
    "$app" "$@" >>"$work/poolscope.log" 2>&1 &
    app_pid=$!
    pids+=($app_pid)
    window=$(timeout 30 xdotool search --sync --onlyvisible --name '^poolscope' | head -1) ||
        fail "no poolscope window"
    xdotool windowactivate --sync "$window" windowfocus --sync "$window" || true
}

exec 5>"$work/display"
Xvfb -displayfd 5 -screen 0 1600x1000x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
wait_for 10 test -s "$work/display" || fail "Xvfb did not start"
export DISPLAY=:$(head -1 "$work/display")
openbox >"$work/openbox.log" 2>&1 &
pids+=($!)
wait_for 10 xdotool getactivewindow || wait_for 5 pgrep -f openbox || fail "openbox did not start"

first=$(free_port)
start_redis "$first"
second=$(free_port)
while [[ $second == "$first" ]]; do second=$(free_port); done
start_redis "$second"
for i in $(seq 0 11); do rc "$first" ZADD proxies $((i * 3)) "alpha-$i" >/dev/null; done
for i in $(seq 0 7); do rc "$second" ZADD edge $((i * 5 + 40)) "beta-$i" >/dev/null; done

step "the dashboard on the first server, a saved production connection"
"$cli" profile add live --url "redis://127.0.0.1:$first/0" --key proxies --env production >/dev/null ||
    fail "cannot save the production connection"
start_app --profile live
wait_for 30 title_has "live" || fail "the first tab did not connect ($(window_title))"
step "a second tab (Ctrl+Shift+T) on the second server, typed"
keys ctrl+shift+t
keys ctrl+l
keys ctrl+a
type_text "redis://127.0.0.1:$second/0"
keys Tab
keys ctrl+a
type_text edge
keys Return
wait_for 30 title_has "127.0.0.1:$second" || fail "the second tab did not connect ($(window_title))"
wait_for 10 sh -c "[ \$(redis-cli -h 127.0.0.1 -p $first CLIENT LIST | grep -c name=poolscope-poller) -ge 1 ]" ||
    fail "the first tab stopped polling"
sleep 2
shot tabs-second
step "Ctrl+Tab back to the first"
keys ctrl+Tab
wait_for 10 title_has "live" || fail "Ctrl+Tab did not switch ($(window_title))"
sleep 1
shot tabs-first
step "closing, then starting again with no arguments"
keys ctrl+q
wait_for 20 sh -c "! kill -0 $app_pid" || fail "the dashboard did not close"
grep -q edge "$XDG_CONFIG_HOME/poolscope/poolscope.conf" || fail "the tabs were not saved"
start_app
wait_for 30 title_has "live" || fail "the tabs did not come back ($(window_title))"
wait_for 20 sh -c "redis-cli -h 127.0.0.1 -p $second CLIENT LIST | grep -q name=poolscope-poller" ||
    fail "the second tab did not come back"
sleep 2
shot tabs-restored
keys ctrl+q
wait_for 20 sh -c "! kill -0 $app_pid" || fail "the dashboard did not close"
step "PASS"
