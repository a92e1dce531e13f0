#!/usr/bin/env bash
# The dashboard's window on real X displays with a window manager: at scale 2 on a 2560x1600
# screen it must fit the screen (a fresh start, no saved size), and at 1024x700 and at the
# default size it is photographed for a person to look at. Screenshots in $3.
# Every server is the dashboard's own embedded one (--demo); nothing else is contacted.
# Usage: window-sizes.sh POOLSCOPE SCREENSHOT_DIR
set -euo pipefail
app=$1
label=sizes
shots_dir=${2:-}
source "$(dirname "$0")/common.sh"
fail() { echo "sizes: FAIL: $*" >&2; exit 1; }

# One display of WIDTHxHEIGHT, the dashboard on it with SCALE; NAME.png of the whole screen.
# Prints the window's outer size in screen pixels.
run_at() {
    local name=$1 size=$2 scale=$3
    local home=$work/$name
    mkdir -p "$home/runtime"
    chmod 700 "$home/runtime"
    : >"$work/$name.display"
    exec 5>"$work/$name.display"
    Xvfb -displayfd 5 -screen 0 "${size}x24" -nolisten tcp >"$work/$name.xvfb.log" 2>&1 &
    local xvfb=$!
    pids+=($xvfb)
    wait_for 10 test -s "$work/$name.display" || fail "Xvfb $size did not start"
    exec 5>&-
    local display=:$(head -1 "$work/$name.display")
    DISPLAY=$display openbox >"$work/$name.openbox.log" 2>&1 &
    local wm=$!
    pids+=($wm)
    sleep 1
    HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
        XDG_RUNTIME_DIR=$home/runtime DISPLAY=$display QT_SCALE_FACTOR=$scale \
        "$app" --demo >"$work/$name.log" 2>&1 &
    local dashboard=$!
    pids+=($dashboard)
    local window
    window=$(DISPLAY=$display timeout 30 xdotool search --sync --onlyvisible --name '^poolscope' | head -1) ||
        fail "$name: no window"
    sleep 6 # the demo seeds and draws a few seconds of lines
    kill -0 "$dashboard" || fail "$name: the dashboard exited"
    DISPLAY=$display import -window root "$shots/window-$name.png"
    # The frame's outer size: the client area plus the decorations openbox added around it.
    local client extents
    client=$(DISPLAY=$display xwininfo -id "$window" | awk '/Width:/ {w=$2} /Height:/ {h=$2} END {print w, h}')
    extents=$(DISPLAY=$display xprop -id "$window" _NET_FRAME_EXTENTS | sed 's/.*= //; s/,//g')
    [[ $extents == *[0-9]* ]] || extents="0 0 0 0"
    local geometry
    geometry=$(echo "$client $extents" | awk '{print $1 + $3 + $4 "x" $2 + $5 + $6}')
    kill "$dashboard" 2>/dev/null || true
    wait "$dashboard" 2>/dev/null || true
    kill "$wm" "$xvfb" 2>/dev/null || true
    echo "$geometry"
}

scaled=$(run_at scale2-2560x1600 2560x1600 2)
echo "sizes: at scale 2 on 2560x1600 the window is $scaled (screenshot $shots/window-scale2-2560x1600.png)"
width=${scaled%x*}
height=${scaled#*x}
((width <= 2560 && height <= 1600)) || fail "at scale 2 the window ($scaled) is larger than the 2560x1600 screen"
small=$(run_at small-1024x700 1024x700 1)
echo "sizes: on a 1024x700 screen the window is $small"
width=${small%x*}
height=${small#*x}
((width <= 1024 && height <= 700)) || fail "the window ($small) is larger than the 1024x700 screen"
default=$(run_at default-1600x1000 1600x1000 1)
echo "sizes: default size on 1600x1000: $default"
echo "sizes: passed (screenshots in $shots)"
