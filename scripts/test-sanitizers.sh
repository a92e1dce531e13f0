#!/usr/bin/env bash
# Builds poolscope with AddressSanitizer + UndefinedBehaviorSanitizer (clang, Debug) into
# build-asan/ (or $POOLSCOPE_ASAN_BUILD_DIR) and runs the whole test suite under them. Any
# sanitizer report stops the test that triggered it and fails the run. Qt itself is not
# instrumented; only our code is checked.
# Usage: scripts/test-sanitizers.sh [extra cmake -D options, e.g. -DPOOLSCOPE_BUILD_GUI=OFF]
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
build_dir=${POOLSCOPE_ASAN_BUILD_DIR:-$top/build-asan}
jobs=${POOLSCOPE_JOBS:-$(nproc)}

CC=clang CXX=clang++ cmake -S "$top" -B "$build_dir" -DCMAKE_BUILD_TYPE=Debug \
    -DPOOLSCOPE_SANITIZE=ON "$@" >/dev/null
cmake --build "$build_dir" -j"$jobs"

# halt_on_error: the first report ends the process, so a test cannot pass over one.
export ASAN_OPTIONS="detect_leaks=1:halt_on_error=1:detect_stack_use_after_return=1:check_initialization_order=1:strict_init_order=1"
export LSAN_OPTIONS="suppressions=$top/tests/sanitizers/lsan.supp:print_suppressions=0"
# Reports name their functions: clang's symbolizer is installed as llvm-symbolizer-14 only.
symbolizer=$(command -v llvm-symbolizer || command -v llvm-symbolizer-14 || true)
[[ -n $symbolizer ]] && export ASAN_SYMBOLIZER_PATH=$symbolizer
export UBSAN_OPTIONS="print_stacktrace=1:halt_on_error=1"
export QT_QPA_PLATFORM=offscreen
# Instrumented clients use 2-3x the CPU, which stretches wall-clock timings on small machines;
# tests that assert on such timings can check this and relax or skip.
export POOLSCOPE_SANITIZERS=1
cd "$build_dir"
# The desktop tests (a real X server, openbox, xdotool) run in the main suite only: here the
# dashboard would load the uninstrumented X, GL and glib stack, whose own allocations LeakSanitizer
# would report, and instrumented code is too slow for the timings of a person at the keyboard.
ctest --output-on-failure --timeout 900 -j"$jobs" -LE desktop
