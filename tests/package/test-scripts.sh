#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# The first-contact scripts, with stand-ins for apt, sudo and meson:
# build-aux/run.sh keeps standard output for the program (`run.sh --json` is
# JSON), and build-aux/install-deps.sh hands DEBIAN_FRONTEND through sudo and
# asks for the test toolchain only with --test.
#
# Needs SOURCE_DIR and BINARY (the built lwn-tray).
# shellcheck disable=SC2016 # the sh -c scripts take their file as $1
set -eu

# shellcheck source=tests/package/tap.sh
. "$(dirname "$0")/tap.sh"
tap_init scripts

# A copy of run.sh whose install and build steps talk on standard output, as apt and meson do.
tree="$tmp/tree"
mkdir -p "$tree/build-aux" "$tree/build/src"
cp "$SOURCE_DIR/build-aux/run.sh" "$tree/build-aux/"
for step in install-deps.sh configure.sh; do
    printf 'echo "%s: Reading package lists... ninja: no work to do."\n' "$step" >"$tree/build-aux/$step"
done
ln -s "$BINARY" "$tree/build/src/lwn-tray"
feed="file://$SOURCE_DIR/tests/data/lwn-headlines-2023-07.rdf"
sh "$tree/build-aux/run.sh" --json --feed-url "$feed" >"$tmp/feed.json" 2>"$tmp/run.err" || :

check "run.sh --json > FILE writes the feed alone" \
    python3 -c 'import json, sys; feed = json.load(open(sys.argv[1])); assert len(feed["items"]) == 15' "$tmp/feed.json"
check "run.sh sends the install and build steps' output to standard error" \
    grep -q 'configure.sh: Reading package lists' "$tmp/run.err"

# install-deps.sh as a user with sudo on a system that has none of the packages.
bin="$tmp/bin"
mkdir -p "$bin"
cat >"$bin/dpkg-query" <<'STUB'
#!/bin/sh
exit 1
STUB
cat >"$bin/id" <<'STUB'
#!/bin/sh
echo 1000
STUB
# sudo's env_reset: the command gets a fresh environment.
cat >"$bin/sudo" <<'STUB'
#!/bin/sh
exec env -i PATH="$PATH" APT_LOG="$APT_LOG" "$@"
STUB
cat >"$bin/apt-get" <<'STUB'
#!/bin/sh
echo "DEBIAN_FRONTEND=${DEBIAN_FRONTEND:-} $*" >>"$APT_LOG"
STUB
chmod +x "$bin"/*

install_deps() {
    log=$1
    shift
    env PATH="$bin:$PATH" APT_LOG="$log" sh "$SOURCE_DIR/build-aux/install-deps.sh" "$@" >/dev/null 2>&1 || :
    touch "$log"
}

install_deps "$tmp/apt-run.log"
install_deps "$tmp/apt-test.log" --test

check "install-deps.sh passes DEBIAN_FRONTEND=noninteractive through sudo" \
    sh -c '! grep -v "^DEBIAN_FRONTEND=noninteractive " "$1" && grep -q " install " "$1"' sh "$tmp/apt-run.log"
check "install-deps.sh installs what building and running need" \
    grep -q ' install .* libgtk-3-dev ' "$tmp/apt-run.log"
check "install-deps.sh leaves the test toolchain out without --test" \
    sh -c '! grep -E " (xvfb|clang|clang-format|appstream|python3-dbusmock)( |\$)" "$1"' sh "$tmp/apt-run.log"
check "install-deps.sh --test adds the test toolchain" \
    sh -c 'grep -q " install .* libgtk-3-dev .* xvfb .* clang-format" "$1"' sh "$tmp/apt-test.log"
install_deps "$tmp/apt-all.log" --test --deb
# Debian 12 and 13 ship different versions of the toolchains (clang 14 and
# 19): a name that carries one, such as libclang-rt-14-dev, exists on one
# release only.
check "install-deps.sh names no package by one release's version" \
    sh -c 'grep -q " install " "$1" && ! grep -E " [a-z0-9.+-]*-[0-9][0-9]+(-[a-z]+)*( |\$)" "$1"' sh "$tmp/apt-all.log"
# meson's install step runs these programs (meson.build, gnome.post_install),
# and the applet's icons are SVG: without GTK's SVG loader a window of
# Debian 13 finds no icon at all.
check "install-deps.sh installs what the install step runs, and the SVG loader" \
    sh -c 'for name in libglib2.0-bin gtk-update-icon-cache librsvg2-common; do
             grep -qE " install .* $name( |\$)" "$1" || exit 1
           done' sh "$tmp/apt-run.log"

tap_done
