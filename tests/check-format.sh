#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a C source file differs from what .clang-format makes of it.
# Headers keep their hand-aligned prototype columns, which clang-format 14 cannot express.
set -eu
cd "$1"
if ! command -v clang-format >/dev/null 2>&1; then
  echo "clang-format is not installed" >&2
  exit 77
fi
clang-format --dry-run --Werror src/*.c tests/*.c tests/fuzz/*.c bench/*.c
