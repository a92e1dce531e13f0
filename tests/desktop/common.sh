# Sourced by the desktop tests. Set before: label (the prefix of their messages, e.g. "desktop")
# and shots_dir (where screenshots go; empty: the work folder). Gives: $work, a temporary folder
# kept only when the test failed; $shots; pids, the processes started, stopped by PID at exit;
# wait_for SECONDS COMMAND..., true once COMMAND succeeds within SECONDS.
work=$(mktemp -d "${TMPDIR:-/tmp}/poolscope-$label.XXXXXX")
shots=${shots_dir:-$work/screenshots}
mkdir -p "$shots"
pids=()
cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    if ((status == 0)); then rm -rf "$work"; else echo "$label: kept $work" >&2; fi
}
trap cleanup EXIT
wait_for() {
    local seconds=$1
    shift
    local end=$((SECONDS + seconds))
    while ((SECONDS < end)); do
        "$@" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}
# The person's own server and display are not the test's.
unset REDIS_URL QT_QPA_PLATFORM WAYLAND_DISPLAY
