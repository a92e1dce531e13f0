#!/usr/bin/env bash
# The dashboard on a real X display with a window manager (Xvfb + openbox), driven by synthetic
# mouse and keyboard input through xdotool, through the paths a person takes:
#   1. start with no arguments (the embedded server and its demo pool);
#   2. type a second server's address (a loopback redis-server started here): nothing may be
#      written there, checked key by key, and no load client may connect to it;
#   3. File > Open recording... with the mouse (the File menu's title, then the item; the file
#      dialog) while connected: the recording is shown and the window stays up;
#   4. a third server's pool: evict a member through the confirmation (its Yes clicked with the
#      mouse), then restore it (checked on the server);
#   5. Tab through the window: Tab leaves the members table (arrow keys pressed after it do not
#      move the table's selection: the member evicted next is the one selected before the Tab)
#      and reaches the Actions toolbar (Space on a button that Tab reached opens its dialog);
#   6. quit with Ctrl+Q and start again with no arguments: the last connection is reopened;
# with a screenshot of each step in $1 (default: a temporary directory).
# Every server it talks to is on 127.0.0.1 and started by it; all are stopped by PID at exit.
# Usage: desktop-test.sh POOLSCOPE POOLSCOPE_CLI [SCREENSHOT_DIR]
set -euo pipefail
app=$1
cli=$2
label=desktop
shots_dir=${3:-}
source "$(dirname "$0")/common.sh"
fail() {
    echo "desktop: FAIL: $*" >&2
    [[ -n ${DISPLAY:-} ]] && import -window root "$shots/failure.png" 2>/dev/null || true
    [[ -f $work/poolscope.log ]] && tail -n 30 "$work/poolscope.log" >&2
    exit 1
}
step() { echo "desktop: $*"; }

# A private home: no saved settings, connections or recordings of the person running this.
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
start_redis() { # PORT: a redis-server on 127.0.0.1 without persistence
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
alive() { kill -0 "$app_pid" 2>/dev/null || fail "the dashboard exited (status: $(wait "$app_pid"; echo $?))"; }
window_title() { xdotool getwindowname "$window" 2>/dev/null; }
title_has() { [[ $(window_title) == *"$1"* ]]; }
keys() { alive; xdotool key --clearmodifiers --delay 60 "$@"; sleep 0.3; }
type_text() { alive; xdotool type --clearmodifiers --delay 15 "$1"; sleep 0.2; }
shot() { import -window root "$shots/$1.png" && step "screenshot $shots/$1.png"; }
# Where to click is found on the screen itself, so that fonts, style and menu widths may change:
# geometry ID prints "X Y WIDTH HEIGHT" of a window on the screen (xwininfo's absolute corner,
# right for a window the window manager framed); dark_runs rows|columns X Y W H prints where the
# dark pixels (text) of that rectangle are, as runs of rows ("top bottom") or of columns ("left
# right"), one a line, in screen pixels. Runs less than 5 pixels apart are one (an underlined
# mnemonic, the dot of an i); runs under 4 pixels (separators, frames) are left out.
geometry() {
    xwininfo -id "$1" | awk '/Absolute upper-left X/ {x = $NF} /Absolute upper-left Y/ {y = $NF}
        /^ *Width:/ {w = $NF} /^ *Height:/ {h = $NF} END {print x, y, w, h}'
}
dark_runs() {
    local axis=$1 x=$2 y=$3 w=$4 h=$5 scale origin
    if [[ $axis == rows ]]; then scale="1x$h!" origin=$y; else scale="${w}x1!" origin=$x; fi
    import -window root -crop "${w}x$h+$x+$y" png:- 2>/dev/null |
        convert - +repage -colorspace gray -threshold 40% -negate -scale "$scale" -depth 16 txt:- |
        awk -v axis="$axis" -v origin="$origin" -F'[,:( ]+' '
            function flush() { if (start != "" && end - start >= 3) print origin + start, origin + end }
            !/^#/ { i = axis == "rows" ? $2 : $1
                    if ($3 == 0) next
                    if (start != "" && i - end > 4) { flush(); start = "" }
                    if (start == "") start = i
                    end = i }
            END { flush() }'
}
# nth_run N RUNS: the middle of the Nth run (1: the first; -1: the last), or nothing.
nth_run() {
    local runs
    mapfile -t runs <<<"$2"
    local n=$1
    ((n < 0)) && n=$((${#runs[@]} + n + 1))
    ((n >= 1 && n <= ${#runs[@]})) && [[ -n ${runs[n - 1]} ]] || return 1
    read -r a b <<<"${runs[n - 1]}"
    echo $(((a + b) / 2))
}
click() { alive; xdotool mousemove --sync "$1" "$2" click 1; sleep 0.3; }
# The dashboard's popup menu on screen: a visible window of the dashboard that is not $window.
popup_window() { xdotool search --onlyvisible --class poolscope 2>/dev/null | grep -vx "$window" | head -1; }
# A snapshot of a server's data: every key with its type and its value, dumped.
snapshot() {
    local port=$1 key
    rc "$port" --scan | sort | while read -r key; do
        printf '%s %s %s\n' "$key" "$(rc "$port" TYPE "$key")" "$(rc "$port" --no-raw DUMP "$key" | md5sum)"
    done
}

# The display, with a window manager so that focus and dialogs behave as on a desktop.
exec 5>"$work/display"
Xvfb -displayfd 5 -screen 0 1600x1000x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
wait_for 10 test -s "$work/display" || fail "Xvfb did not start"
export DISPLAY=:$(head -1 "$work/display")
openbox >"$work/openbox.log" 2>&1 &
pids+=($!)
wait_for 10 xdotool getactivewindow || wait_for 5 pgrep -f openbox || fail "openbox did not start"

# 1. No arguments: the demo on the embedded server.
step "starting $app with no arguments"
"$app" >"$work/poolscope.log" 2>&1 &
app_pid=$!
pids+=($app_pid)
window=$(timeout 30 xdotool search --sync --onlyvisible --name '^poolscope' | head -1) ||
    fail "no poolscope window"
wait_for 30 title_has proxies || fail "the demo did not connect (title: $(window_title))"
xdotool windowactivate --sync "$window" windowfocus --sync "$window" || true
sleep 3 # the demo seeds and its load starts
shot 1-demo

# 2. A second server, the person's own: an empty "proxies" and keys of its own.
users=$(free_port)
start_redis "$users"
rc "$users" SET settings:colour blue >/dev/null
rc "$users" HSET team:oncall name ada phone 1234 >/dev/null
rc "$users" RPUSH jobs one two three >/dev/null
before=$(snapshot "$users")
writes() { rc "$users" INFO commandstats | grep -E 'cmdstat_(evalsha|eval|zadd|zincrby|zrem|hset|hdel|del|set|xadd|rpush|expire|rename|script)[:|]' | cut -d, -f1 || true; }
writes_before=$(writes)
step "switching to the second server on port $users"
keys ctrl+l
type_text "redis://127.0.0.1:$users/0"
keys Return
wait_for 20 title_has "127.0.0.1:$users" || fail "did not switch to port $users (title: $(window_title))"
wait_for 20 sh -c "redis-cli -h 127.0.0.1 -p $users CLIENT LIST | grep -q name=poolscope-poller" ||
    fail "the dashboard's poller never reached port $users"
sleep 5 # several polls: time for a seed or a load to start, were it to
alive
after=$(snapshot "$users")
[[ $before == "$after" ]] || fail "the second server's data changed:
before:
$before
after:
$after"
[[ $(rc "$users" EXISTS proxies) == 0 ]] || fail "a pool was written to the second server"
if rc "$users" CLIENT LIST | grep -q 'name=poolscope-demo-load'; then
    fail "the demo's load connected to the second server"
fi
[[ $(writes) == "$writes_before" ]] || fail "commands that write ran on the second server:
before: $writes_before
after:  $(writes)"
step "second server: $(echo "$after" | wc -l) keys unchanged, no write command ran"
shot 2-second-server

# 3. File > Open recording... while connected. The recording: a third server's pool, recorded
# by the CLI (which only reads).
third=$(free_port)
start_redis "$third"
for i in 1 2 3 4 5; do rc "$third" ZADD team $((i * 10)) "192.0.2.$i:8080" >/dev/null; done
recording=$work/team.sqlite
"$cli" record --url "redis://127.0.0.1:$third/0" --key team --db "$recording" --interval 200 \
    --duration 1.5 >"$work/record.log" 2>&1 || fail "poolscope-cli record failed: $(cat "$work/record.log")"
step "opening $recording from the File menu, with the mouse"
xdotool windowactivate --sync "$window" || true
# The menu bar is the window's first row of text, and File its first title.
read -r wx wy _ _ <<<"$(geometry "$window")"
bar_y=$(nth_run 1 "$(dark_runs rows "$wx" "$wy" 200 60)") || fail "no menu bar at the window's top"
file_x=$(nth_run 1 "$(dark_runs columns "$wx" $((bar_y - 3)) 200 7)") || fail "no File menu title"
click "$file_x" "$bar_y"
wait_for 5 popup_window || fail "clicking the File menu's title at $file_x,$bar_y opened no menu"
menu=$(popup_window)
read -r mx my mw mh <<<"$(geometry "$menu")"
# Its items' text, in the left half (the shortcuts are on the right); painted a moment after the
# window appears. Open recording... is the fourth item, after New tab, Close tab, Connections...:
# the file dialog's title below proves the click hit it.
items() { dark_runs rows $((mx + 4)) $((my + 3)) $((mw / 2)) $((mh - 6)); }
painted() { nth_run 4 "$(items)"; }
wait_for 5 painted || true
item_y=$(nth_run 4 "$(items)") || fail "the File menu shows fewer than 4 items: $(items | tr '\n' ' ')"
shot 3-file-menu
click $((mx + 40)) "$item_y"
dialog=$(timeout 10 xdotool search --sync --onlyvisible --name 'Open recording' | head -1) ||
    fail "no file dialog after clicking the File menu's fourth item (File's items changed?)"
sleep 0.5
shot 3-file-dialog
type_text "$recording"
keys Return
wait_for 20 title_has "recording team.sqlite" || fail "the recording was not shown (title: $(window_title))"
sleep 2 # the whole recording is read in the background
alive
shot 3-recording

# 4. The third server's pool, live: evict with the confirmation, then restore.
step "watching pool team on port $third"
xdotool windowactivate --sync "$window" || true
keys ctrl+l
type_text "redis://127.0.0.1:$third/0"
keys alt+o ctrl+a
type_text team
keys Return
wait_for 20 title_has "team · redis://127.0.0.1:$third" || fail "did not open pool team (title: $(window_title))"
sleep 1
keys ctrl+f # the members filter
type_text "192.0.2.3:8080"
keys Tab Tab # out of the filter, past the health filter, into the table
keys Down Up # the first row is selected on entering the table; the arrows keep it
shot 4-selected
keys Delete # Evict: asks first
confirm=$(timeout 10 xdotool search --sync --onlyvisible --name 'Evict' | head -1) ||
    fail "no confirmation before evicting"
sleep 0.5
shot 4-confirm
# Yes, clicked: the dialog's last row of text is its buttons (Yes, then Cancel), and the first run
# of text in that row is Yes's.
read -r cx cy cw ch <<<"$(geometry "$confirm")"
buttons=$(dark_runs rows $((cx + 4)) $((cy + 4)) $((cw - 8)) $((ch - 8)))
button_y=$(nth_run -1 "$buttons") || fail "no text in the confirmation"
yes_x=$(nth_run 1 "$(dark_runs columns $((cx + 4)) $((button_y - 4)) $((cw - 8)) 9)") ||
    fail "no buttons in the confirmation's last row"
click "$yes_x" "$button_y"
wait_for 10 sh -c "[ \"\$(redis-cli -h 127.0.0.1 -p $third HGET '{team}:evicted:team' 192.0.2.3:8080)\" = 30 ]" ||
    fail "192.0.2.3:8080 was not evicted with its count 30"
[[ $(rc "$third" ZSCORE team 192.0.2.3:8080) == "" ]] || fail "the evicted member is still in the pool"
step "evicted 192.0.2.3:8080 (count 30 saved)"
sleep 1
keys ctrl+r # Restore…
restore=$(timeout 10 xdotool search --sync --onlyvisible --name 'Restore' | head -1) ||
    fail "no restore dialog"
sleep 0.5
shot 4-restore-dialog
keys Return
wait_for 10 sh -c "[ -n \"\$(redis-cli -h 127.0.0.1 -p $third ZSCORE team 192.0.2.3:8080)\" ]" ||
    fail "192.0.2.3:8080 was not restored"
step "restored 192.0.2.3:8080 at $(rc "$third" ZSCORE team 192.0.2.3:8080)"
[[ $(rc "$third" HEXISTS '{team}:evicted:team' 192.0.2.3:8080) == 0 ]] || fail "still marked evicted"
shot 4-restored

# 5. Tab through the window. Tab leaves the members table: with Tab walking the table's cells
# (the fault this guards against) the arrows after it would move the selection, and Delete would
# evict another member. Delete is the window's shortcut, so it evicts the table's selection from
# wherever the focus went.
keys ctrl+f ctrl+a
type_text 8080 # the five members, sorted by id
keys Tab Tab Up Up Up Up Up # into the table, up to its first row: 192.0.2.1:8080 selected
shot 5-first-row
keys Tab Down Down
keys Delete
confirm=$(timeout 10 xdotool search --sync --onlyvisible --name 'Evict' | head -1) ||
    fail "no confirmation after Tab, Down, Down, Delete"
keys alt+y
wait_for 10 sh -c "[ \"\$(redis-cli -h 127.0.0.1 -p $third HGET '{team}:evicted:team' 192.0.2.1:8080)\" = 10 ]" ||
    fail "192.0.2.1:8080 was not the member evicted: the arrows after Tab moved the table's selection (evicted: $(rc "$third" HKEYS '{team}:evicted:team' | tr '\n' ' '))"
for member in 192.0.2.2:8080 192.0.2.3:8080; do
    [[ -n $(rc "$third" ZSCORE team "$member") ]] || fail "$member was evicted: Tab did not leave the table"
done
step "Tab left the members table: the arrows after it did not move its selection"
# Tab reaches the Actions toolbar: from the table, the events list, the two dock tab bars,
# Refresh, then Seed... (tst_scripteddashboard checks the whole order); Space on it opens the Seed
# dialog, which Space on anything else would not.
keys ctrl+f Tab Tab # back in the table
keys Tab Tab Tab Tab Tab
shot 5-tabbed
keys space
timeout 10 xdotool search --sync --onlyvisible --name 'Seed pool' >/dev/null ||
    fail "Space after five Tabs from the members table did not press Seed...: the toolbar is not in the Tab order"
shot 5-seed-dialog
keys Escape
wait_for 5 sh -c "! xdotool search --onlyvisible --name 'Seed pool'" || fail "the Seed dialog did not close on Esc"
[[ $(rc "$third" ZCARD team) == 4 ]] || fail "the pool changed: $(rc "$third" ZCARD team) members"
step "Tab reached the Actions toolbar's Seed... button"
# And round the whole window, both ways, without a trap or a crash.
for _ in $(seq 40); do keys Tab; done
keys shift+Tab shift+Tab shift+Tab
alive

# The window closes as a person would close it (Ctrl+Q); the demo's server goes with it.
keys ctrl+q
for _ in $(seq 100); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$app_pid" 2>/dev/null; then fail "the dashboard did not quit on Ctrl+Q"; fi
wait "$app_pid" || fail "the dashboard exited with status $?"

# 6. Started again with no arguments: the connection watched last is reopened (not the demo).
step "starting $app again with no arguments"
"$app" >>"$work/poolscope.log" 2>&1 &
app_pid=$!
pids+=($app_pid)
window=$(timeout 30 xdotool search --sync --onlyvisible --name '^poolscope' | head -1) ||
    fail "no poolscope window at the second start"
wait_for 20 title_has "team · redis://127.0.0.1:$third" ||
    fail "the last connection was not reopened (title: $(window_title))"
wait_for 10 sh -c "redis-cli -h 127.0.0.1 -p $third CLIENT LIST | grep -q name=poolscope-poller" ||
    fail "the reopened dashboard does not poll port $third"
sleep 1
shot 6-reopened
xdotool windowactivate --sync "$window" || true
keys ctrl+q
for _ in $(seq 100); do kill -0 "$app_pid" 2>/dev/null || break; sleep 0.1; done
if kill -0 "$app_pid" 2>/dev/null; then fail "the dashboard did not quit on Ctrl+Q"; fi
wait "$app_pid" || fail "the dashboard exited with status $? at the second start"
echo "desktop: passed (screenshots in $shots)"
