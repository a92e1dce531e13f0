#!/usr/bin/env bash
# The main window and the seed, restore and Connections dialogs in each shipped language, on a
# real X display with a window manager, photographed for a person to look at (nothing clipped or
# overlapping, Uyghur mirrored). The main window is the demo's (the embedded server); the dialogs
# are opened on a pool of a loopback redis-server started here, with one evicted member to
# restore. Nothing is written: each dialog is closed with Escape, and the script checks the pool
# is as it was.
# Screenshots in $2: <code>-main.png, <code>-seed.png, <code>-restore.png,
# <code>-connections.png (each the active window only).
# Usage: language-dialogs.sh POOLSCOPE SCREENSHOT_DIR [CODE...]
set -euo pipefail
app=$1
label=language-dialogs
shots_dir=${2:-}
shift 2 || shift $#
codes=("$@")
((${#codes[@]})) || codes=(en zh_CN ug pa eo)
source "$(dirname "$0")/common.sh"
fail() { echo "$label: FAIL: $*" >&2; exit 1; }

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
port=$(free_port)
redis-server --port "$port" --bind 127.0.0.1 --save '' --appendonly no --dir "$work" \
    >"$work/redis.log" 2>&1 &
pids+=($!)
wait_for 10 sh -c "redis-cli -h 127.0.0.1 -p $port PING | grep -q PONG" || fail "no redis-server"
rc() { redis-cli -h 127.0.0.1 -p "$port" "$@"; }
# Member ids are loopback addresses: nothing here connects to them (no check is asked for).
for i in 1 2 3 4 5 6 7 8; do
    rc ZADD team $((100 + i * 7)) "127.0.0.1:$((10080 + i))" >/dev/null
done
rc HSET '{team}:evicted:team' 127.0.0.1:10099 42 >/dev/null
before=$(rc --no-raw DUMP team | md5sum)

exec 5>"$work/display"
Xvfb -displayfd 5 -screen 0 1600x1000x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
wait_for 10 test -s "$work/display" || fail "Xvfb did not start"
exec 5>&-
export DISPLAY=:$(head -1 "$work/display")
openbox >"$work/openbox.log" 2>&1 &
pids+=($!)
sleep 1

# Starts the dashboard with ARGS in a private home; sets dashboard and window.
start() {
    local home=$work/home-$code
    mkdir -p "$home/runtime"
    chmod 700 "$home/runtime"
    HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
        XDG_RUNTIME_DIR=$home/runtime "$app" --lang "$code" "$@" >>"$work/$code.log" 2>&1 &
    dashboard=$!
    pids+=($dashboard)
    window=$(timeout 30 xdotool search --sync --onlyvisible --pid "$dashboard" | head -1) ||
        fail "$code: no window"
    xdotool windowactivate --sync "$window" || true
}
stop() {
    kill "$dashboard" 2>/dev/null || true
    wait "$dashboard" 2>/dev/null || true
}
keys() { xdotool key --clearmodifiers --delay 60 "$@"; sleep 0.4; }
# The active window, once it is another than the main one (a dialog opened), as NAME.png.
shot_dialog() {
    local name=$1 active=
    for _ in $(seq 50); do
        active=$(xdotool getactivewindow 2>/dev/null || true)
        [[ -n $active && $active != "$window" ]] && break
        sleep 0.2
    done
    [[ -n $active && $active != "$window" ]] || fail "$code: no $name dialog"
    sleep 0.8
    import -window "$active" "$shots/$code-$name.png"
    echo "$label: $shots/$code-$name.png"
    keys Escape
}

for code in "${codes[@]}"; do
    start --demo
    sleep 6 # the demo seeds and draws a few seconds of lines
    import -window "$window" "$shots/$code-main.png"
    echo "$label: $shots/$code-main.png"
    stop

    start --url "redis://127.0.0.1:$port/0" --key team
    sleep 3
    keys ctrl+n
    shot_dialog seed
    keys ctrl+shift+o
    shot_dialog connections
    keys ctrl+f # the members filter
    xdotool type --clearmodifiers --delay 15 127.0.0.1:10099
    sleep 0.5
    keys Tab Tab Down Up # into the table: the evicted member selected
    keys ctrl+r
    shot_dialog restore
    stop
done
[[ $(rc --no-raw DUMP team | md5sum) == "$before" ]] || fail "the pool changed"
echo "$label: passed (screenshots in $shots)"
