#!/usr/bin/env bash
# The second README command: installs what is missing, builds everything (programs, tests,
# benchmarks) and runs the whole test suite (every test starts its own redis-server). Shares
# build/ with scripts/run.sh. .ci/run calls this.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
export POOLSCOPE_BUILD_DIR=${POOLSCOPE_BUILD_DIR:-$top/build}
"$top/scripts/build.sh" -DPOOLSCOPE_WERROR=ON -DPOOLSCOPE_BUILD_TESTS=ON -DPOOLSCOPE_BUILD_BENCH=ON
cd "$POOLSCOPE_BUILD_DIR"
QT_QPA_PLATFORM=offscreen ctest --output-on-failure --timeout 600 -j"$(nproc)"
