#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the source tree twice, in two build folders, and checks that both installs are byte for byte the same.
#
# Needs SOURCE_DIR. The builds are made as a distribution makes them: buildtype
# plain, "-O2 -g", and the build folder mapped away in the debug information
# (as dpkg-buildflags does with -ffile-prefix-map), since the debug information
# also decides the build id of a stripped binary. Both folders sit at the same
# depth: the compiler names the sources relative to the build folder (in
# __FILE__ and the debug line table), which a distribution keeps fixed too.
# shellcheck disable=SC2016 # the sh -c script takes its strings as $1, $2, $3
set -eu

# shellcheck source=tests/package/tap.sh
. "$(dirname "$0")/tap.sh"
# A failed build says what went wrong at its start; the rest would be pages.
tap_init reproducible 40

# Without ccache: the second build must compile for itself. Called through check.
# shellcheck disable=SC2317
build_and_install() {
    build=$1
    destdir=$2
    CFLAGS="-O2 -g -ffile-prefix-map=$build=." LDFLAGS='' CCACHE_DISABLE=1 \
        meson setup "$build" "$SOURCE_DIR" --prefix=/usr --buildtype=plain -Dtests=false &&
        meson compile -C "$build" &&
        meson install -C "$build" --destdir "$destdir" --no-rebuild --quiet
}

# Names of different lengths, so that no path can hide in padding.
first=$tmp/a
second=$tmp/second-build
check "build and install in $first" build_and_install "$first" "$tmp/install-a"
check "build and install in $second" build_and_install "$second" "$tmp/install-b"

binary=usr/bin/lwn-tray
check "$binary names neither build folder" \
    sh -c '! grep -a -o -F -e "$1" -e "$2" "$3" | sort -u | grep .' sh "$first" "$second" "$tmp/install-a/$binary"
check "$binary is the same from both folders" cmp "$tmp/install-a/$binary" "$tmp/install-b/$binary"
check "every installed file is the same from both folders" diff -r "$tmp/install-a" "$tmp/install-b"

tap_done
