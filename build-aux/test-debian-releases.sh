#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Tries the README's commands as a new user would, on fresh minbase Debian
# machines made with debootstrap: the machine that runs the test suite has
# every package already, so only a fresh one shows a package missing from
# build-aux/install-deps.sh.
#
#   Debian 12, as a user with sudo: the run command on the sample feed.
#   Debian 13, as root: the run command on the sample feed, the test
#     command's install step, the normal test suite, and the Debian package
#     (built and checked with lintian there: a package built on 12 does not
#     install on 13, whose libraries have new names).
#   A second fresh Debian 13: apt installs that package, and the installed
#     lwn-tray prints the sample feed.
#
# Usage: build-aux/test-debian-releases.sh [OUTPUT_DIR]
# OUTPUT_DIR (default build-releases) receives results.txt, one line per
# check ("ok NAME" or "FAIL NAME") and "complete" once all ran, each step's
# log, the Debian 13 suite's testlog.json and the Debian 13 package. The exit
# status is 0 when every check passed.
#
# Needs root (debootstrap, chroot, mount) and the network to reach the Debian
# mirror (LWN_DEBIAN_MIRROR, default http://deb.debian.org/debian). The
# minbase tarballs are kept in LWN_CHROOT_CACHE (default /var/cache/lwn-tray)
# and made anew after a week; every chroot is removed at the end, its mounts
# first, whether the checks passed or not.
# shellcheck disable=SC2317 # the functions run from traps and from check
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$here/build-releases}" && cd "${1:-$here/build-releases}" && pwd)
cache=${LWN_CHROOT_CACHE:-/var/cache/lwn-tray}
mirror=${LWN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
sample=tests/data/lwn-headlines-2023-07.rdf

if [ "$(id -u)" -ne 0 ]; then
  exec sudo env LWN_CHROOT_CACHE="$cache" LWN_DEBIAN_MIRROR="$mirror" sh "$0" "$out"
fi

mkdir -p "$cache"
# On disk, not in /tmp: a Debian 13 chroot with the test packages takes 2 GB.
work=$(mktemp -d /var/tmp/lwn-releases.XXXXXX)
roots=""
: >"$out/results.txt"

is_mounted_below() {
  awk -v root="$1" '$2 == root || index($2, root "/") == 1 { found = 1 } END { exit !found }' /proc/self/mounts
}

# Ends what a test left running inside the chroot, then unmounts what was
# mounted into it, deepest first. Only a chroot with nothing mounted any more
# is removed: removing one with /dev bound into it would empty the host's /dev.
teardown() {
  target=$1
  [ -d "$target" ] || return 0
  for proc in /proc/[0-9]*; do
    if [ "$(readlink "$proc/root" 2>/dev/null)" = "$target" ]; then
      kill -9 "${proc#/proc/}" 2>/dev/null || :
    fi
  done
  for mount in dev/shm dev/pts dev sys proc; do
    if is_mounted_below "$target/$mount"; then
      umount "$target/$mount" 2>/dev/null || umount -l "$target/$mount" || :
    fi
  done
  if is_mounted_below "$target"; then
    echo "lwn-tray: $target is still mounted; left in place" >&2
    return 1
  fi
  rm -rf "$target"
}

cleanup() {
  status=$?
  kept=0
  for made in $roots; do
    teardown "$made" || kept=1
  done
  [ "$kept" -ne 0 ] || rm -rf "$work"
  exit "$status"
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# fresh_chroot NAME SUITE: a minbase SUITE in $work/NAME, with /proc, /sys,
# /dev, /dev/pts and a /dev/shm of its own mounted; its path in $root. (Not
# printed for a command substitution: $roots must grow in this shell.)
fresh_chroot() {
  name=$1
  suite=$2
  tarball="$cache/$suite-minbase.tgz"
  root="$work/$name"

  if [ ! -s "$tarball" ] || [ -n "$(find "$tarball" -mtime +7)" ]; then
    rm -rf "$work/tarball-$suite"
    debootstrap --variant=minbase --make-tarball="$tarball.part" "$suite" "$work/tarball-$suite" "$mirror" >&2
    mv "$tarball.part" "$tarball"
    rm -rf "$work/tarball-$suite"
  fi
  roots="$roots $root"
  debootstrap --variant=minbase --unpack-tarball="$tarball" "$suite" "$root" "$mirror" >&2
  mount -t proc proc "$root/proc"
  mount --bind /sys "$root/sys"
  mount --make-private "$root/sys"
  mount --bind /dev "$root/dev"
  mount --make-private "$root/dev"
  mount --bind /dev/pts "$root/dev/pts"
  mount --make-private "$root/dev/pts"
  mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
  cp /etc/resolv.conf "$root/etc/resolv.conf"
}

# copy_tree ROOT DIR: the source tree (tracked files and new ones that git
# does not ignore, as they are in the working tree) into ROOT/DIR.
copy_tree() {
  mkdir -p "$1$2"
  if git -C "$here" rev-parse --git-dir >/dev/null 2>&1; then
    git -C "$here" ls-files -z --cached --others --exclude-standard |
      (cd "$here" && tar --null -T - -cf - --ignore-failed-read 2>/dev/null) | tar -xf - -C "$1$2"
  else
    (cd "$here" && tar --exclude='./build*' -cf - .) | tar -xf - -C "$1$2"
  fi
}

# in_chroot ROOT USER COMMAND: runs COMMAND with sh in ROOT as USER, with a
# clean environment, as a login would have it.
in_chroot() {
  home=/root
  [ "$2" = root ] || home="/home/$2"
  chroot --userspec="$2:$2" "$1" env -i PATH=/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin \
    HOME="$home" USER="$2" LANG=C.UTF-8 TERM=dumb sh -c "$3"
}

# check NAME LOG COMMAND...: runs COMMAND with its output in $out/LOG and
# records the result.
check() {
  name=$1
  log="$out/$2"
  shift 2
  started=$(date +%s)
  if "$@" >"$log" 2>&1; then
    result=ok
  else
    result=FAIL
    failed=1
  fi
  echo "$result $name ($(($(date +%s) - started)) s)" | tee -a "$out/results.txt"
  [ "$result" = ok ] || tail -n 40 "$log"
}

packages() {
  # shellcheck disable=SC2016 # dpkg-query's format, not the shell's
  chroot "$1" dpkg-query -W -f '${db:Status-Status}\n' | grep -c '^installed$'
}

# prints_sample OUTPUT: the sample feed printed as "title<TAB>full-article URL".
prints_sample() {
  [ "$(grep -c "	https://lwn.net/Articles/[0-9]*/$" "$1")" -ge 10 ]
}

failed=0

# Debian 12, as a person with sudo rights would try the Quick start.
fresh_chroot bookworm bookworm
bookworm=$root
check "Debian 12: a user with sudo" debian12-user.log in_chroot "$bookworm" root \
  'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends sudo &&
   useradd --create-home --shell /bin/sh reader &&
   echo "reader ALL=(ALL) NOPASSWD: ALL" >/etc/sudoers.d/reader'
copy_tree "$bookworm" /home/reader/lwn-tray
chroot "$bookworm" chown -R reader:reader /home/reader/lwn-tray
base=$(packages "$bookworm")
check "Debian 12: the run command as a user with sudo" debian12-run.log in_chroot "$bookworm" reader \
  "cd ~/lwn-tray && sh build-aux/run.sh --print --feed-url file://\$HOME/lwn-tray/$sample >../printed.txt &&
   cat ../printed.txt"
check "Debian 12: the run command printed the sample feed" debian12-printed.log prints_sample "$bookworm/home/reader/printed.txt"
echo "Debian 12: the run command installed $(($(packages "$bookworm") - base)) packages" | tee -a "$out/results.txt"
teardown "$bookworm"

# Debian 13, as root: everything the test command does but the sanitizer and
# fuzz passes, which need no second release.
fresh_chroot trixie trixie
trixie=$root
base=$(packages "$trixie")
copy_tree "$trixie" /root/lwn-tray
check "Debian 13: the run command as root" debian13-run.log in_chroot "$trixie" root \
  "cd ~/lwn-tray && sh build-aux/run.sh --print --feed-url file://\$HOME/lwn-tray/$sample >../printed.txt &&
   cat ../printed.txt"
check "Debian 13: the run command printed the sample feed" debian13-printed.log prints_sample "$trixie/root/printed.txt"
echo "Debian 13: the run command installed $(($(packages "$trixie") - base)) packages" | tee -a "$out/results.txt"
check "Debian 13: the test command's install step" debian13-deps.log in_chroot "$trixie" root \
  "cd ~/lwn-tray && sh build-aux/install-deps.sh --test --deb"
check "Debian 13: the normal test suite" debian13-suite.log in_chroot "$trixie" root \
  "cd ~/lwn-tray && sh build-aux/configure.sh build -Dwerror=true &&
   meson test -C build --print-errorlogs --num-processes 2"
cp "$trixie/root/lwn-tray/build/meson-logs/testlog.json" "$out/debian13-testlog.json" 2>/dev/null || :
rm -rf "$out/debian13-deb"
check "Debian 13: the Debian package builds, lintian clean" debian13-deb.log in_chroot "$trixie" root \
  "cd ~/lwn-tray && DEB_BUILD_OPTIONS='nocheck parallel=2' DEB_BUILD_PROFILES=nocheck sh build-aux/build-deb.sh build-deb"
mkdir -p "$out/debian13-deb"
cp "$trixie"/root/lwn-tray/build-deb/*.deb "$trixie"/root/lwn-tray/build-deb/lintian.txt "$out/debian13-deb/" 2>/dev/null || :
teardown "$trixie"

# The package on a second fresh Debian 13, installed as the README says.
fresh_chroot trixie-install trixie
installed=$root
mkdir -p "$installed/root/lwn-tray-deb"
cp "$out"/debian13-deb/*.deb "$installed/root/lwn-tray-deb/" 2>/dev/null || :
cp "$here/$sample" "$installed/root/sample.rdf"
check "Debian 13: apt installs the package" debian13-install.log in_chroot "$installed" root \
  'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./lwn-tray-deb/lwn-tray_*.deb'
check "Debian 13: the installed lwn-tray prints the sample feed" debian13-installed.log in_chroot "$installed" root \
  'lwn-tray --print --feed-url file:///root/sample.rdf >printed.txt && cat printed.txt'
check "Debian 13: the installed lwn-tray printed the sample feed" debian13-installed-printed.log \
  prints_sample "$installed/root/printed.txt"

echo complete >>"$out/results.txt"
exit "$failed"
