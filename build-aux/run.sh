#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs what is missing, builds in ./build and starts lwn-tray from the build tree.
set -eu
cd "$(dirname "$0")/.."

sh build-aux/install-deps.sh
sh build-aux/configure.sh build
exec build/src/lwn-tray "$@"
