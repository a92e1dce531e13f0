#!/usr/bin/env bash
# Configures and builds poolscope into build/ (or $POOLSCOPE_BUILD_DIR): everything, or only the
# targets named with --target (the programs, for scripts/run.sh).
# Usage: scripts/build.sh [--target NAME]... [extra cmake -D options...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${POOLSCOPE_BUILD_DIR:-$top/build}
build_type=${POOLSCOPE_BUILD_TYPE:-RelWithDebInfo}
targets=()
options=()
while (($#)); do
    case $1 in
    --target) targets+=("$2"); shift 2 ;;
    *) options+=("$1"); shift ;;
    esac
done
cmake -S "$top" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" "${options[@]}" >/dev/null
if ((${#targets[@]})); then
    cmake --build "$build_dir" -j"$(nproc)" --target "${targets[@]}"
else
    cmake --build "$build_dir" -j"$(nproc)"
fi
