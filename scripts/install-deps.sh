#!/usr/bin/env bash
# Installs the Debian bookworm packages poolscope needs, and only those that are missing.
# Safe to run again: with everything present it does nothing (no apt-get update either).
# Usage: scripts/install-deps.sh [--run]
#   --run   only what building and running the two programs needs (scripts/run.sh); without it,
#           also the tools of the test, sanitizer, fuzzing and packaging scripts.
set -euo pipefail

packages=(
    build-essential cmake pkg-config git          # toolchain
    qt6-base-dev qt6-charts-dev libgl-dev         # Qt 6 Widgets + Charts
    libqt6opengl6-dev                             # Qt6Charts' CMake config requires Qt6OpenGL
    libqt6svg6                                    # draws the SVG window icon (a Qt plugin)
    libhiredis-dev                                # Redis client library (0.14.1)
    redis-server redis-tools                      # embedded server, redis-cli, redis-benchmark
    xvfb xauth fonts-dejavu-core                  # screenshots and GUI tests without a display
)
if [[ ${1:-} != --run ]]; then
    packages+=(
        clang libclang-rt-14-dev                  # sanitizer build and fuzzers
        procps                                    # ps, used by benchmarks
        desktop-file-utils appstream groff-base   # validate the desktop entry, metainfo, man pages
        dpkg-dev file                             # the .deb: dpkg-shlibdeps, checks on its files
        debootstrap                               # a fresh bookworm to install the .deb into
    )
fi

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if ((${#missing[@]} == 0)); then
    echo "install-deps: all ${#packages[@]} packages present"
    exit 0
fi

if [[ $(id -u) -ne 0 ]]; then
    echo "install-deps: missing packages: ${missing[*]}" >&2
    echo "install-deps: run as root, or: sudo apt-get install ${missing[*]}" >&2
    exit 1
fi

echo "install-deps: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -q
apt-get install -y -q --no-install-recommends "${missing[@]}"
