#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Fails when a C source file differs from what .clang-format makes of it.
# Headers keep their hand-aligned prototype columns, which clang-format 14 cannot express.
#
# The tree is formatted with clang-format 14 (Debian 12). Each major version
# lays out some constructs differently (19, in Debian 13, among them), so the
# check runs only with that version: elsewhere it says how many files another
# version would change and is skipped, rather than fail on code that is right.
set -eu
cd "$1"
pinned=14
files="src/*.c tests/unit/*.c tests/fuzz/*.c bench/*.c"

for candidate in "clang-format-$pinned" clang-format; do
  if command -v "$candidate" >/dev/null 2>&1; then
    major=$("$candidate" --version | sed -n 's/.*clang-format version \([0-9]*\).*/\1/p')
    if [ "$major" = "$pinned" ]; then
      # shellcheck disable=SC2086
      exec "$candidate" --dry-run --Werror $files
    fi
  fi
done

if ! command -v clang-format >/dev/null 2>&1; then
  echo "clang-format is not installed" >&2
  exit 77
fi
# shellcheck disable=SC2086
differing=$(for file in $files; do
  clang-format --dry-run "$file" 2>&1 | grep -q . && echo "$file"
done | wc -l)
echo "clang-format $major, not $pinned: it would change $differing files; the style is checked with clang-format $pinned" >&2
exit 77
