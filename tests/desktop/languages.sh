#!/usr/bin/env bash
# The dashboard in each shipped language on a real X display with a window manager (--lang, the
# embedded demo server only): it starts, draws, and is photographed for a person to look at, with
# Uyghur's View > Language menu open (right to left, the languages in their own names). The test
# set-up must bring a font for each script: Uyghur's Arabic letters, Gurmukhi, Chinese.
# Screenshots in $2: language-<code>.png.
# Usage: languages.sh POOLSCOPE SCREENSHOT_DIR
set -euo pipefail
app=$1
label=languages
shots_dir=${2:-}
source "$(dirname "$0")/common.sh"
fail() { echo "languages: FAIL: $*" >&2; exit 1; }

# fontconfig's own test of a language's letters (ug: ۆ ۈ ۋ ې ى and the rest of its alphabet).
for lang in ug pa zh-cn; do
    font=$(fc-list ":lang=$lang" family | head -1)
    [[ -n $font ]] || fail "no font covers $lang (scripts/install-deps.sh installs them)"
    echo "languages: $lang is drawn with ${font%%,*}"
done

: >"$work/display"
exec 5>"$work/display"
Xvfb -displayfd 5 -screen 0 1600x1000x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
wait_for 10 test -s "$work/display" || fail "Xvfb did not start"
exec 5>&-
export DISPLAY=:$(head -1 "$work/display")
openbox >"$work/openbox.log" 2>&1 &
pids+=($!)
sleep 1

for code in en zh_CN ug pa eo; do
    home=$work/$code
    mkdir -p "$home/runtime"
    chmod 700 "$home/runtime"
    HOME=$home XDG_CONFIG_HOME=$home/.config XDG_DATA_HOME=$home/.local/share \
        XDG_RUNTIME_DIR=$home/runtime "$app" --demo --lang "$code" >"$work/$code.log" 2>&1 &
    dashboard=$!
    pids+=($dashboard)
    window=$(timeout 30 xdotool search --sync --onlyvisible --name '^poolscope' | head -1) ||
        fail "$code: no window"
    sleep 5 # the demo seeds and draws a few seconds of lines
    kill -0 "$dashboard" || fail "$code: the dashboard exited: $(tail -3 "$work/$code.log")"
    if [[ $code == ug ]]; then
        # View, then its Language submenu (its accelerator is L in every language).
        xdotool windowactivate --sync "$window" key --clearmodifiers alt+v
        sleep 0.5
        xdotool key l
        sleep 0.5
    fi
    import -window root "$shots/language-$code.png"
    size=$(stat -c %s "$shots/language-$code.png")
    ((size > 20000)) || fail "$code: the screenshot is $size bytes, not a picture of the dashboard"
    kill "$dashboard" 2>/dev/null || true
    wait "$dashboard" 2>/dev/null || true
    echo "languages: $code: $shots/language-$code.png ($size bytes)"
done
echo "languages: passed (screenshots in $shots)"
