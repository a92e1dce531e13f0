#!/usr/bin/env bash
# The first README command: installs what is missing, builds, and opens the dashboard on an
# embedded redis-server with a live demo pool. Extra arguments go to poolscope
# (e.g. --url redis://host:6379/0 --key proxies).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
"$top/scripts/build.sh"
app="${POOLSCOPE_BUILD_DIR:-$top/build}/app/gui/poolscope"
if [[ -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ]]; then
    exec "$app" "$@"
fi
# No display (a server, a container): show the dashboard on a virtual one and save a picture.
shot=${POOLSCOPE_SHOT:-$top/poolscope-demo.png}
echo "run: no DISPLAY; running the dashboard on a virtual display for 10 s and saving $shot"
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --demo --screenshot "$shot" --after 10 "$@"
echo "run: saved $shot"
