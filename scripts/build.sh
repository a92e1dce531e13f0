#!/usr/bin/env bash
# Configures and builds poolscope into build/ (or $POOLSCOPE_BUILD_DIR).
# Usage: scripts/build.sh [extra cmake -D options...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${POOLSCOPE_BUILD_DIR:-$top/build}
build_type=${POOLSCOPE_BUILD_TYPE:-RelWithDebInfo}
cmake -S "$top" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" "$@" >/dev/null
cmake --build "$build_dir" -j"$(nproc)"
