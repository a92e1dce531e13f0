#!/usr/bin/env bash
# Builds the Debian package poolscope_<version>_<arch>.deb with CPack in build/ (or
# $POOLSCOPE_BUILD_DIR) and prints its path as the last line. Its dependencies come from
# dpkg-shlibdeps, plus redis-server and the Qt SVG plugin (cmake/Packaging.cmake).
# A new build directory is configured like scripts/run.sh does (no tests, no benchmarks); an
# existing one is used as it is, so after scripts/test.sh nothing is compiled again.
# Install it with: apt-get install ./poolscope_<version>_<arch>.deb
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
"$top/scripts/install-deps.sh"
build_dir=${POOLSCOPE_BUILD_DIR:-$top/build}
options=()
if [[ ! -f $build_dir/CMakeCache.txt ]]; then
    options=(-DPOOLSCOPE_WERROR=ON -DPOOLSCOPE_BUILD_TESTS=OFF -DPOOLSCOPE_BUILD_BENCH=OFF)
fi
POOLSCOPE_BUILD_DIR=$build_dir "$top/scripts/build.sh" "${options[@]}" >&2
rm -f "$build_dir"/poolscope_*.deb
(cd "$build_dir" && cpack -G DEB >&2)
deb=$(ls "$build_dir"/poolscope_*.deb)
dpkg-deb --field "$deb" Package Version Architecture Depends >&2
echo "$deb"
