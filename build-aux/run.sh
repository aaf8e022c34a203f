#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds in ./build and starts lwn-tray from the build tree.
# Only the program writes to standard output, so that
# `sh build-aux/run.sh --json > feed.json` is the feed alone: what apt and
# meson say goes to standard error.
set -eu
cd "$(dirname "$0")/.."

sh build-aux/install-deps.sh >&2
sh build-aux/configure.sh build >&2
# What `meson devenv -C build` sets (icons/ and data/meson.build): the schema
# compiled in the build tree and the icons of the source tree. Set here, since
# meson devenv keeps the program as its child: a SIGTERM would reach meson
# alone, and a Ctrl-C kills the applet a quarter of a second later, shut down
# or not.
export GSETTINGS_SCHEMA_DIR="$PWD/build/data"
export XDG_DATA_DIRS="${XDG_DATA_DIRS:-/usr/local/share:/usr/share}:$PWD"
exec build/src/lwn-tray "$@"
