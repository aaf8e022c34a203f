#!/bin/bash
# SPDX-License-Identifier: GPL-3.0-or-later
# Checks lwn-tray on a real KDE Plasma 5.27 session at 1280x800, as a Plasma user sees it: the icon, the menu on the screen, a click on a headline, restarts of plasmashell and kded5, Quit.
#
# Usage, from the top of the source tree: bench/desktop-plasma.sh [BUILD_DIR [OUTDIR]]
#   (defaults: build, and BUILD_DIR/meson-logs/desktop-plasma)
# Builds lwn-tray and its schema, then runs bench/desktop-plasma.py, which prints TAP,
# leaves the menu's screenshots, a screenshot of each failed step and the session's
# logs in OUTDIR, and exits 0 when every step passed, 1 when one failed and 77 when
# Plasma's packages are missing (bench/lwn_plasma.py names them). Not part of the test
# suite: the packages are too heavy for CI.
set -euo pipefail

builddir=${1:-build}
outdir=${2:-$builddir/meson-logs/desktop-plasma}

if [ ! -f meson.build ] || [ ! -d bench ]; then
  echo "desktop-plasma.sh: run me from the top of the source tree" >&2
  exit 2
fi
if [ ! -d "$builddir" ]; then
  meson setup "$builddir" >/dev/null
fi
# gsettings-compile-data: the schema, which the script finds beside the program's folder.
meson compile -C "$builddir" lwn-tray gsettings-compile-data >/dev/null
exec /usr/bin/python3 bench/desktop-plasma.py "$builddir/src/lwn-tray" "$outdir"
