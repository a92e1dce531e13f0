#!/usr/bin/env bash
# Installs the Debian bookworm packages poolscope needs, and only those that are missing.
# Safe to run again: with everything present it does nothing (no apt-get update either).
set -euo pipefail

packages=(
    build-essential cmake pkg-config git          # toolchain
    qt6-base-dev qt6-charts-dev libgl-dev         # Qt 6 Widgets + Charts
    libqt6opengl6-dev                             # Qt6Charts' CMake config requires Qt6OpenGL
    libhiredis-dev                                # Redis client library (0.14.1)
    redis-server redis-tools                      # embedded server, redis-cli, redis-benchmark
    xvfb xauth fonts-dejavu-core                  # screenshots and GUI tests without a display
    clang libclang-rt-14-dev                      # sanitizer build and fuzzers
    procps                                        # ps, used by benchmarks
    prometheus-cpp-dev curl                       # the Prometheus exporter; scrapes in its tests
)

# promtool checks the exporter's output. It ships in Debian's prometheus package, whose install
# would also set up and start a Prometheus server: take the one tool out of the package instead.
tools=/opt/poolscope-tools
install_promtool() {
    [[ -x $tools/bin/promtool ]] || command -v promtool >/dev/null && return 0
    if [[ $(id -u) -ne 0 ]]; then
        echo "install-deps: promtool is missing; run as root to install it" >&2
        return 1
    fi
    local work
    work=$(mktemp -d)
    (cd "$work" && apt-get download -q prometheus >/dev/null) || { apt-get update -q && (cd "$work" && apt-get download -q prometheus >/dev/null); }
    dpkg-deb -x "$work"/prometheus_*.deb "$work/root"
    install -D -m 755 "$work/root/usr/bin/promtool" "$tools/bin/promtool"
    rm -rf "$work"
    echo "install-deps: promtool in $tools/bin"
}

missing=()
for package in "${packages[@]}"; do
    if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
        missing+=("$package")
    fi
done

if ((${#missing[@]} == 0)); then
    install_promtool
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
install_promtool
