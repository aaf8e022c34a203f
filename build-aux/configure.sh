#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Usage: build-aux/configure.sh BUILD_DIR [MESON_OPTION...]
# Sets up BUILD_DIR with the options (the first time, or reconfigures it with
# them) and compiles it. Run from the top of the source tree.
set -eu
build="$1"
shift

if [ -f "$build/build.ninja" ]; then
  meson setup --reconfigure "$build" "$@" >/dev/null
else
  meson setup "$build" "$@"
fi
meson compile -C "$build"
