#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Builds the Debian package from a clean copy of the source tree and checks it
# with lintian.
#
# Usage: build-aux/build-deb.sh [OUTPUT_DIR]
# Installs what is missing (dpkg-dev, debhelper, lintian, then the build
# dependencies of debian/control), copies the files git tracks, as they are in
# the work tree (nothing git does not track: no build folders, no file a
# command wrote into the tree), into a temporary folder, builds there
# with dpkg-buildpackage -us -uc -b, and leaves the .deb, .buildinfo, .changes
# and lintian's report (lintian.txt) in OUTPUT_DIR (default: build-deb in the
# source tree).
# DEB_BUILD_OPTIONS and DEB_BUILD_PROFILES pass through: DEB_BUILD_OPTIONS=nocheck
# skips the unit tests (DEB_BUILD_PROFILES=nocheck also their build and their
# build dependencies), parallel=N builds with N jobs. Exits non-zero when the
# build fails or lintian finds an error or a warning.
set -eu
cd "$(dirname "$0")/.."
source_dir=$(pwd)
output="${1:-build-deb}"

sh build-aux/install-deps.sh --deb

# The build dependencies as debian/control lists them, asked of apt only when one is missing.
if ! dpkg-checkbuilddeps >/dev/null 2>&1; then
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  profiles=$(echo "${DEB_BUILD_PROFILES:-}" | tr ' ' ',')
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get build-dep -y -q --no-install-recommends \
    ${profiles:+-P "$profiles"} "$source_dir"
fi

package=$(dpkg-parsechangelog -S Source)
version=$(dpkg-parsechangelog -S Version)
work=$(mktemp -d "${TMPDIR:-/tmp}/$package-deb.XXXXXX")
trap 'rm -rf "$work"' EXIT
tree="$work/$package-$version"
mkdir -p "$tree"

if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  # A file git does not track goes into no package: say which were left out.
  untracked=$(git ls-files --others --exclude-standard | head -n 10 | tr '\n' ' ')
  if [ -n "$untracked" ]; then
    echo "build-deb.sh: left out, as git does not track them: $untracked" >&2
  fi
  # shellcheck disable=SC2016
  git ls-files -z --cached |
    xargs -0 sh -c 'for f do if [ -e "$f" ] || [ -L "$f" ]; then printf "%s\0" "$f"; fi; done' sh |
    tar --null --no-recursion -T - -cf - | tar -xf - -C "$tree"
else
  echo "build-deb.sh: no git, or git refuses this repository: copying the tree as it is, without its build folders" >&2
  # The build folders that .gitignore names.
  tar --exclude-vcs --exclude=./build --exclude=./builddir --exclude='./_build*' \
    --exclude=./build-asan --exclude=./build-fuzz --exclude=./build-deb -cf - . | tar -xf - -C "$tree"
fi

# The source package first, from the untouched copy: lintian checks
# debian/control, debian/copyright and debian/tests only there.
(cd "$work" && dpkg-source --build "$package-$version" >/dev/null)
(cd "$tree" && dpkg-buildpackage -us -uc -b)

mkdir -p "$output"
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
changes="$work/${package}_${version}_$arch.changes"
dsc="$work/${package}_$version.dsc"
rm -f "$output/${package}_"* "$output/${package}-dbgsym_"*
for file in "$work/"*; do
  case "$file" in
    *.deb | *.ddeb | *.buildinfo | *.changes) cp "$file" "$output/" ;;
  esac
done

# As root (a container, CI), lintian would start its report with a warning about it.
allow_root=""
[ "$(id -u)" -ne 0 ] || allow_root="--allow-root"
status=0
lintian --fail-on error,warning $allow_root "$changes" "$dsc" >"$output/lintian.txt" 2>&1 || status=$?
cat "$output/lintian.txt"
if [ "$status" -eq 0 ]; then
  echo "lintian: no errors, no warnings"
else
  echo "lintian: errors or warnings above (exit status $status)" >&2
fi
ls -l "$output"/*.deb
exit "$status"
