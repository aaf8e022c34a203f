# shellcheck shell=sh
# SPDX-License-Identifier: GPL-3.0-or-later
# TAP output for the shell tests, sourced by them:
#
#   . "$SOURCE_DIR/tests/package/tap.sh"
#   tap_init NAME [LINES]   makes $tmp, a temporary folder removed on exit (NAME goes in
#                           its name); a failed check shows LINES of its output (all: 0)
#   check DESCRIPTION COMMAND...
#                           runs COMMAND, quiet, and prints "ok N" or "not ok N" with
#                           what it printed
#   tap_done                prints the plan and exits 1 if a check failed

tap_init() {
    tmp=$(mktemp -d "${TMPDIR:-/tmp}/lwn-tray-$1.XXXXXX")
    trap 'rm -rf "$tmp"' EXIT
    tap_lines=${2:-0}
    count=0
    failed=0
}

check() {
    description=$1
    shift
    count=$((count + 1))
    if "$@" >"$tmp/.last" 2>&1; then
        echo "ok $count - $description"
    else
        echo "not ok $count - $description"
        if [ "$tap_lines" -gt 0 ]; then
            head -n "$tap_lines" "$tmp/.last" | sed 's/^/# /'
        else
            sed 's/^/# /' "$tmp/.last"
        fi
        failed=1
    fi
}

tap_done() {
    echo "1..$count"
    exit "$failed"
}
