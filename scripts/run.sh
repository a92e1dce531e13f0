#!/usr/bin/env bash
# The first README command: installs what is missing to build and run the programs, builds only
# the dashboard and the CLI, and opens the dashboard on an embedded redis-server with a live demo
# pool. Extra arguments go to poolscope (e.g. --url redis://host:6379/0 --key proxies).
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh" --run
build_dir=${POOLSCOPE_BUILD_DIR:-$top/build}
# A new build directory gets the test script's flags but no tests or benchmarks, so that
# scripts/test.sh later adds them and reuses every object built here; an existing one keeps its
# options (tests stay configured after scripts/test.sh).
options=()
if [[ ! -f $build_dir/CMakeCache.txt ]]; then
    options=(-DPOOLSCOPE_WERROR=ON -DPOOLSCOPE_BUILD_TESTS=OFF -DPOOLSCOPE_BUILD_BENCH=OFF)
fi
POOLSCOPE_BUILD_DIR=$build_dir "$top/scripts/build.sh" --target poolscope --target poolscope-cli \
    "${options[@]}"
app="$build_dir/app/gui/poolscope"
# No arguments: the demo on the embedded server (the dashboard alone would reopen the connection
# watched last).
(($#)) || set -- --demo
if [[ -n ${DISPLAY:-} || -n ${WAYLAND_DISPLAY:-} ]]; then
    exec "$app" "$@"
fi
# No display (a server, a container): show the dashboard on a virtual one and save a picture.
shot=${POOLSCOPE_SHOT:-$top/poolscope-demo.png}
echo "run: no DISPLAY; running the dashboard on a virtual display for 10 s and saving $shot"
xvfb-run -a -s "-screen 0 1600x1000x24" "$app" --screenshot "$shot" --after 10 "$@"
echo "run: saved $shot"
