#!/usr/bin/env bash
# Configures and builds poolscope into build/ (or $POOLSCOPE_BUILD_DIR): everything, or only the
# targets named with --target (the programs, for scripts/run.sh).
# Usage: scripts/build.sh [--target NAME]... [extra cmake -D options...]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
build_dir=${POOLSCOPE_BUILD_DIR:-$top/build}
# -O2 without debug info, and a unity build (the files of each library compiled in batches of
# 8): together they take the first build of the two programs from 238 s (file by file, -O3) to
# 96 s here (docs/building.md, "Time to the first screenshot"). The sanitizer and fuzzing builds
# keep one file per compile, so each file still builds on its own.
build_type=${POOLSCOPE_BUILD_TYPE:-Release}
unity=${POOLSCOPE_UNITY_BUILD:-ON}
targets=()
options=()
while (($#)); do
    case $1 in
    --target) targets+=("$2"); shift 2 ;;
    *) options+=("$1"); shift ;;
    esac
done
cmake -S "$top" -B "$build_dir" -DCMAKE_BUILD_TYPE="$build_type" -DCMAKE_UNITY_BUILD="$unity" \
    -DCMAKE_CXX_FLAGS_RELEASE="-O2 -DNDEBUG" "${options[@]}" >/dev/null
if ((${#targets[@]})); then
    cmake --build "$build_dir" -j"$(nproc)" --target "${targets[@]}"
else
    cmake --build "$build_dir" -j"$(nproc)"
fi
