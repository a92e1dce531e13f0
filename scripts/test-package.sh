#!/usr/bin/env bash
# The .deb on a clean machine: builds it (scripts/package.sh), installs it with apt into a FRESH
# minimal Debian bookworm (a debootstrap chroot) that has nothing but the package's dependencies,
# and there, from the installed paths, runs poolscope-cli --version and poolscope --version,
# checks the desktop entry's Exec and Icon, the metainfo and man pages, lists the monitoring files
# (alert rules, Grafana dashboard, systemd units under share/poolscope and lib/systemd/system),
# and runs the dashboard's screenshot mode on a virtual display (embedded redis-server, demo
# pool), checking the PNG.
# Needs root (debootstrap, mount, chroot). .ci/run calls it after the test suite.
# The base system and the downloaded .debs are cached in $POOLSCOPE_PACKAGE_CACHE (default
# /tmp/poolscope-package-cache), so a second run skips debootstrap and most downloads.
# The screenshot is copied to build/package-test-shot.png.
set -euo pipefail
top=$(cd "$(dirname "$0")/.." && pwd)
start=$SECONDS
if [[ $(id -u) -ne 0 ]]; then
    echo "test-package: needs root (debootstrap, mount, chroot)" >&2
    exit 1
fi
build_dir=${POOLSCOPE_BUILD_DIR:-$top/build}
deb=$("$top/scripts/package.sh" | tail -1)
echo "test-package: built $(basename "$deb") ($(du -k "$deb" | cut -f1) KiB) after $((SECONDS - start)) s"

cache=${POOLSCOPE_PACKAGE_CACHE:-${TMPDIR:-/tmp}/poolscope-package-cache}
base_tar=$cache/bookworm-minbase.tar
mkdir -p "$cache/archives/partial"
if [[ ! -f $base_tar ]]; then
    # The machine's own Debian mirror, as apt is configured here.
    mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/debian.sources 2>/dev/null ||
        true)
    if [[ -z $mirror ]]; then
        mirror=$(awk '$1 == "deb" && $3 == "bookworm" {print $2; exit}' /etc/apt/sources.list \
            2>/dev/null || true)
    fi
    mirror=${mirror:-http://deb.debian.org/debian}
    base=$(mktemp -d "${TMPDIR:-/tmp}/poolscope-debootstrap.XXXXXX")
    echo "test-package: debootstrap --variant=minbase bookworm from $mirror (cached afterwards)"
    if ! debootstrap --variant=minbase bookworm "$base" "$mirror" >"$cache/debootstrap.log" 2>&1; then
        tail -20 "$cache/debootstrap.log" >&2
        rm -rf --one-file-system "$base"
        exit 1
    fi
    tar -C "$base" -cf "$base_tar.partial" . && mv "$base_tar.partial" "$base_tar"
    rm -rf --one-file-system "$base"
fi

root=$(mktemp -d "${TMPDIR:-/tmp}/poolscope-package-test.XXXXXX")
mounts=()
# Processes this test started inside the chroot (Xvfb, redis-server, still exiting): by PID.
chroot_pids() {
    local entry
    for entry in /proc/[0-9]*; do
        [[ $(readlink "$entry/root" 2>/dev/null) == "$root" ]] && echo "${entry#/proc/}"
    done
    return 0
}
cleanup() {
    local status=$? failed=0 pids
    for _ in 1 2 3 4 5 6 7 8 9 10; do
        pids=$(chroot_pids)
        [[ -z $pids ]] && break
        kill $pids 2>/dev/null || true
        sleep 0.5
    done
    pids=$(chroot_pids)
    [[ -z $pids ]] || kill -9 $pids 2>/dev/null || true
    # A busy mount is detached lazily, so nothing below can reach through it.
    for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do
        umount "${mounts[i]}" 2>/dev/null || umount -l "${mounts[i]}" 2>/dev/null || true
    done
    # Never delete through a mount that is still there (the bind-mounted /dev above all).
    for mount in "${mounts[@]}"; do
        if mountpoint -q "$mount"; then
            echo "test-package: $mount is still mounted; leaving $root in place" >&2
            failed=1
        fi
    done
    ((failed)) || rm -rf --one-file-system "$root"
    exit "$status"
}
trap cleanup EXIT
tar -C "$root" -xf "$base_tar"
# apt as configured on this machine (same mirror, same snapshot), and its name resolution.
rm -f "$root/etc/apt/sources.list"
if [[ -f /etc/apt/sources.list.d/debian.sources ]]; then
    cp /etc/apt/sources.list.d/debian.sources "$root/etc/apt/sources.list.d/"
else
    cp /etc/apt/sources.list "$root/etc/apt/sources.list"
fi
cp /etc/resolv.conf "$root/etc/resolv.conf"
# No service starts inside the chroot: redis-server's package would otherwise start a daemon.
printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
chmod +x "$root/usr/sbin/policy-rc.d"
# Downloaded packages are kept between runs.
echo 'Binary::apt::APT::Keep-Downloaded-Packages "true";' >"$root/etc/apt/apt.conf.d/90keep"
mount_at() { # mount_at TARGET MOUNT-ARGUMENTS...: mounts, and remembers it for the cleanup
    local target=$1
    shift
    mount "$@" "$target"
    mounts+=("$target")
}
mount_at "$root/proc" -t proc proc
mount_at "$root/dev" --bind /dev
mount_at "$root/tmp" -t tmpfs tmpfs
mount_at "$root/var/cache/apt/archives" --bind "$cache/archives"
cp "$deb" "$root/tmp/"

echo "test-package: installing $(basename "$deb") with apt into a fresh bookworm at $root"
chroot "$root" /usr/bin/env -i HOME=/root LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
    PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin /bin/bash -c '
set -euo pipefail
cd /tmp
apt-get update -q >/tmp/apt.log 2>&1 || { cat /tmp/apt.log; exit 1; }
# No recommends: what the package declares must be enough. xvfb and xauth only for the test.
apt-get install -y -q --no-install-recommends ./poolscope_*.deb xvfb xauth >>/tmp/apt.log 2>&1 ||
    { tail -40 /tmp/apt.log; exit 1; }
echo "installed: $(dpkg-query -W -f="\${Package} \${Version}" poolscope), $(grep -c "^Unpacking " /tmp/apt.log) packages unpacked"
for program in poolscope poolscope-cli; do
    [[ $(command -v "$program") == /usr/bin/$program ]] || { echo "$program is not in /usr/bin"; exit 1; }
done
cli_version=$(poolscope-cli --version)
gui_version=$(poolscope --version)
echo "$cli_version; $gui_version"
[[ ${cli_version#poolscope-cli } == "${gui_version#poolscope }" ]] || { echo "versions differ"; exit 1; }
entry=/usr/share/applications/poolscope.desktop
exec_line=$(sed -n "s/^Exec=//p" "$entry")
icon=$(sed -n "s/^Icon=//p" "$entry")
command -v "${exec_line%% *}" >/dev/null || { echo "Exec=$exec_line is not a program"; exit 1; }
[[ -f /usr/share/icons/hicolor/scalable/apps/$icon.svg ]] || { echo "Icon=$icon not installed"; exit 1; }
for file in /usr/share/metainfo/io.github.poolscope.poolscope.metainfo.xml \
    /usr/share/man/man1/poolscope-cli.1 /usr/share/man/man1/poolscope.1; do
    [[ -s $file ]] || { echo "$file is missing"; exit 1; }
done
echo "desktop entry: Exec=$exec_line, Icon=$icon; metainfo and man pages present"
# Monitoring: the alert rules, their promtool tests, the Grafana dashboard and the systemd units
# templated by pool (also where systemd finds them), each owned by the package.
monitoring=(/usr/share/poolscope/prometheus/poolscope-alerts.yml
    /usr/share/poolscope/prometheus/poolscope-alerts.test.yml
    /usr/share/poolscope/grafana/poolscope-dashboard.json
    /usr/share/poolscope/systemd/example.env)
for unit in poolscope-exporter@.service poolscope-record@.service poolscope-guard@.service; do
    monitoring+=("/usr/share/poolscope/systemd/$unit" "/usr/lib/systemd/system/$unit")
done
owned=$(dpkg -L poolscope)
for file in "${monitoring[@]}"; do
    [[ -s $file ]] || { echo "$file is missing"; exit 1; }
    grep -qxF "$file" <<<"$owned" || { echo "$file is not in the package"; exit 1; }
    echo "monitoring: $file"
done
xvfb-run -a poolscope --demo --screenshot /tmp/shot.png --after 5 >/tmp/shot.log 2>&1 ||
    { cat /tmp/shot.log; exit 1; }
# The translations are in the program: Uyghur, right to left, with nothing else installed.
xvfb-run -a poolscope --demo --lang ug --screenshot /tmp/shot-ug.png --after 3 >/tmp/shot.log 2>&1 ||
    { cat /tmp/shot.log; exit 1; }
'
shot=$root/tmp/shot.png
size=$(stat -c %s "$shot" 2>/dev/null || echo 0)
description=$(file -b "$shot" 2>/dev/null || true)
cp "$shot" "$build_dir/package-test-shot.png" 2>/dev/null || true
# A window of the dashboard with a chart, a table and panels compresses to well over 20 kB; a
# blank or failed grab to a few kB.
if [[ $description != "PNG image data, "* ]] || ((size < 20000)); then
    echo "test-package: the screenshot is not a picture of the dashboard: $description, $size bytes" >&2
    exit 1
fi
echo "test-package: screenshot from the installed dashboard: $description, $size bytes" \
    "(copied to $build_dir/package-test-shot.png)"
cp "$root/tmp/shot-ug.png" "$build_dir/package-test-shot-ug.png" 2>/dev/null || true
if (($(stat -c %s "$root/tmp/shot-ug.png" 2>/dev/null || echo 0) < 20000)); then
    echo "test-package: no screenshot of the dashboard in Uyghur (--lang ug)" >&2
    exit 1
fi
# The languages' fonts and Qt's Chinese strings are recommended (installed by apt by default).
recommends=$(dpkg-deb -f "$deb" Recommends)
for package in qt6-translations-l10n fonts-lohit-guru fonts-wqy-microhei; do
    [[ $recommends == *"$package"* ]] ||
        { echo "test-package: the .deb does not recommend $package: $recommends" >&2; exit 1; }
done
echo "test-package: in Uyghur too (build/package-test-shot-ug.png); recommends $recommends"
echo "test-package: passed after $((SECONDS - start)) s"
