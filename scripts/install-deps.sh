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
    libqt6sql6-sqlite                             # recordings: Qt SQL's SQLite driver (a plugin)
    libhiredis-dev                                # Redis client library (0.14.1)
    libssl-dev                                    # TLS (rediss://) through OpenSSL
    libssh-dev                                    # SSH tunnels (--ssh) through libssh 0.10
    libcurl4-openssl-dev                          # proxy health checks (check, guard) through libcurl
    qtkeychain-qt6-dev                            # secrets of saved connections (keychain)
    # The dashboard's translations are built with it (lupdate/lrelease through CMake's
    # Qt6LinguistTools): the program run.sh builds speaks the person's language. About 24 MB,
    # 2 s to download and 3 s to unpack here.
    qt6-tools-dev qt6-l10n-tools
    prometheus-cpp-dev                            # poolscope-cli exporter (Prometheus /metrics)
    redis-server redis-tools                      # embedded server, redis-cli, redis-benchmark
    xvfb xauth fonts-dejavu-core                  # screenshots and GUI tests without a display
)
with_tests=0
if [[ ${1:-} != --run ]]; then
    with_tests=1
    packages+=(
        clang libclang-rt-14-dev                  # sanitizer build and fuzzers
        procps                                    # ps, used by benchmarks
        openssl                                   # certificates for the TLS tests and benchmark
        openssh-server openssh-client             # sshd, ssh-agent, ssh-keygen for the SSH tests
        iproute2                                  # ip: loopback up in a health test's own network namespace
        curl                                      # scrapes the exporter in its tests
        desktop-file-utils appstream groff-base   # validate the desktop entry, metainfo, man pages
        dpkg-dev file                             # the .deb: dpkg-shlibdeps, checks on its files
        debootstrap                               # a fresh bookworm to install the .deb into
        openbox xdotool x11-utils imagemagick     # desktop tests: window manager, input, xwininfo, screenshots
        systemd                                   # systemd-analyze verify for the shipped units
        python3                                   # tests/docs: the documentation's links checked
        dbus-daemon dbus-session-bus-common       # dbus-run-session: a private bus for the notification test
        # The languages in tests and screenshots: Qt's own Chinese strings, fonts for Gurmukhi and
        # Chinese (DejaVu, above, covers Uyghur's Arabic script). run.sh needs none for English.
        qt6-translations-l10n fonts-lohit-guru fonts-wqy-microhei
    )
fi

# promtool checks the exporter's output. It ships in Debian's prometheus package, whose install
# would also set up and start a Prometheus server: take the one tool out of the package instead.
tools=/opt/poolscope-tools
install_promtool() {
    ((with_tests)) || return 0
    if [[ -x $tools/bin/promtool ]] || command -v promtool >/dev/null; then
        return 0
    fi
    if [[ $(id -u) -ne 0 ]]; then
        echo "install-deps: promtool is missing; run as root to install it" >&2
        return 1
    fi
    local work
    work=$(mktemp -d)
    chmod 755 "$work" # apt's download user writes here
    if ! (cd "$work" && apt-get download -q prometheus >/dev/null 2>&1); then
        apt-get update -q
        (cd "$work" && apt-get download -q prometheus >/dev/null)
    fi
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
