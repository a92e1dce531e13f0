#!/usr/bin/env bash
# The shipped systemd units (resources/systemd/*.service): `systemd-analyze verify` accepts each
# template with no warning, and no ExecStart puts a secret on the command line.
# Usage: verify-units.sh UNIT_DIR POOLSCOPE_CLI
# verify checks that ExecStart's program exists, so copies of the units point it at the built
# poolscope-cli (the installed path, /usr/bin/poolscope-cli, is not there before installing).
set -euo pipefail
unit_dir=$1
cli=$2
work=$(mktemp -d "${TMPDIR:-/tmp}/poolscope-units.XXXXXX")
trap 'rm -rf "$work"' EXIT
units=()
for unit in "$unit_dir"/poolscope-*@.service; do
    name=$(basename "$unit")
    sed "s#/usr/bin/poolscope-cli#$cli#" "$unit" >"$work/$name"
    units+=("$work/$name")
    # Only the environment file may hold a password: nothing secret-looking in ExecStart.
    if grep -E '^ExecStart=' "$unit" | grep -Eiq 'REDIS_URL|password|passphrase|redis://|rediss://'; then
        echo "$name: ExecStart names a secret or a URL: $(grep -E '^ExecStart=' "$unit")"
        exit 1
    fi
    grep -q '^EnvironmentFile=/etc/poolscope/%i.env$' "$unit" || { echo "$name: no EnvironmentFile"; exit 1; }
    grep -q '^DynamicUser=yes$' "$unit" || { echo "$name: not DynamicUser"; exit 1; }
    grep -q '^NoNewPrivileges=yes$' "$unit" || { echo "$name: not NoNewPrivileges"; exit 1; }
done
((${#units[@]} == 3)) || { echo "expected 3 units in $unit_dir, found ${#units[@]}"; exit 1; }
# The syntax, also where systemd is not installed: sections, Key=value lines, comments.
for unit in "${units[@]}"; do
    bad=$(grep -nvE '^(#.*|\[(Unit|Service|Install)\]|[A-Za-z]+=.*|)$' "$unit" || true)
    [[ -z $bad ]] || { echo "${unit##*/}: not a section, Key=value or comment: $bad"; exit 1; }
done
if ! command -v systemd-analyze >/dev/null; then
    echo "systemd-analyze not found (package systemd): checked the syntax only"
    exit 77 # reported as skipped
fi
# verify exits 0 on an unknown key or a bad value and only prints it: any output is a failure.
output=$(systemd-analyze verify --man=no "${units[@]}" 2>&1) || status=$?
if [[ -n $output || ${status:-0} -ne 0 ]]; then
    printf '%s\n' "$output"
    exit 1
fi
echo "verified: ${units[*]##*/}"
