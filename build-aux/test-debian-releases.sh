#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Tries the README's commands as a new user would, on fresh minbase Debian
# machines made with debootstrap: the machine that runs the test suite has
# every package already, so only a fresh one shows a package missing from
# build-aux/install-deps.sh. The release the machine itself runs (Debian 12
# here, or 13) is "this" one, and the other is the one whose suite would
# otherwise never run:
#
#   This release, as a user with sudo: the run command on the sample feed.
#   The other release, as root: the run command on the sample feed, then the
#     whole test command (build-aux/test.sh with LWN_RELEASES=0): the suite
#     with its desktop tests, the cost check, the sanitizers, the fuzzers and
#     the Debian package (built and checked with lintian there: a package
#     built on 12 does not install on 13, whose libraries have new names).
#   A second fresh machine of the other release: apt installs that package,
#     and the installed lwn-tray prints the sample feed.
#
# Usage: build-aux/test-debian-releases.sh [OUTPUT_DIR]
# OUTPUT_DIR (default build-releases) receives results.txt, one line per
# check ("ok NAME" or "FAIL NAME") and "complete" once all ran, each step's
# log, the other release's name (other-release.txt), the closing lines of its
# test command (other-summary.txt), its testlog.json (other-testlog.json) and
# its package (other-deb/). The exit status is 0 when every check passed.
# Where it cannot run at all (inside a container or a chroot, which cannot
# make mounts of their own private), results.txt says "SKIP" and why, and
# the exit status is 0.
#
# Needs root (debootstrap, chroot, mount, unshare) and the network to reach
# the Debian mirror (LWN_DEBIAN_MIRROR, default http://deb.debian.org/debian).
# The minbase tarballs are kept in LWN_CHROOT_CACHE (default
# /var/cache/lwn-tray) and made anew once a week, or kept when the mirror
# cannot be reached for that. The script runs in a mount namespace of its
# own, so that what it mounts into a chroot ends with it, even when it is
# killed; on an ordinary end it removes every chroot, its mounts first.
# shellcheck disable=SC2317 # the functions run from traps and from check
set -eu

here=$(cd "$(dirname "$0")/.." && pwd)
out=$(mkdir -p "${1:-$here/build-releases}" && cd "${1:-$here/build-releases}" && pwd)
cache=${LWN_CHROOT_CACHE:-/var/cache/lwn-tray}
mirror=${LWN_DEBIAN_MIRROR:-http://deb.debian.org/debian}
sample=tests/data/lwn-headlines-2023-07.rdf

# What an earlier run left must not be read as this run's.
rm -rf "$out/results.txt" "$out/other-testlog.json" "$out/other-summary.txt" "$out/other-release.txt" \
  "$out/other-deb"

if [ "$(id -u)" -ne 0 ]; then
  exec sudo env LWN_CHROOT_CACHE="$cache" LWN_DEBIAN_MIRROR="$mirror" sh "$0" "$out"
fi
if [ -z "${LWN_RELEASES_NAMESPACE:-}" ]; then
  # A container or a chroot cannot make its mounts private (its root is no
  # mount point of its own): the chroots' mounts would reach the machine's.
  if ! why=$(unshare --mount --propagation private true 2>&1); then
    printf 'SKIP fresh Debian machines: this machine cannot make a private mount namespace (%s); run this on a machine of its own, not inside a container or a chroot\ncomplete\n' \
      "$why" >"$out/results.txt"
    cat "$out/results.txt"
    exit 0
  fi
  exec env LWN_RELEASES_NAMESPACE=1 unshare --mount --propagation private sh "$0" "$out"
fi

mkdir -p "$cache"
# On disk, not in /tmp: a Debian 13 chroot with the test packages takes 2 GB.
# The path is resolved, as /proc shows mount points and process roots.
work=$(cd "$(mktemp -d /var/tmp/lwn-releases.XXXXXX)" && pwd -P)
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
  rm -rf --one-file-system "$target"
}

cleanup() {
  status=$?
  kept=0
  for made in $roots; do
    teardown "$made" || kept=1
  done
  [ "$kept" -ne 0 ] || rm -rf --one-file-system "$work"
  # Run through sudo, the results belong to the person who asked for them.
  if [ -n "${SUDO_UID:-}" ] && [ -n "${SUDO_GID:-}" ]; then
    chown -R "$SUDO_UID:$SUDO_GID" "$out"
  fi
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

  if [ ! -s "$tarball" ] || [ -n "$(find "$tarball" -mtime +6)" ]; then
    rm -rf "$work/tarball-$suite"
    if debootstrap --variant=minbase --make-tarball="$tarball.part" "$suite" "$work/tarball-$suite" "$mirror" >&2; then
      mv "$tarball.part" "$tarball"
    elif [ -s "$tarball" ]; then
      echo "lwn-tray: could not renew $tarball; using it as it is" >&2
    else
      return 1
    fi
    rm -rf "$work/tarball-$suite" "$tarball.part"
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
    (cd "$here" && tar --exclude-vcs --exclude=./build --exclude=./builddir --exclude='./_build*' \
      --exclude=./build-asan --exclude=./build-fuzz --exclude=./build-deb --exclude=./build-releases -cf - .) |
      tar -xf - -C "$1$2"
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

# try_run_command NAME PREFIX ROOT USER HOW: the README's run command on the
# sample feed, in ROOT as USER, from the tree in USER's home; says how many
# packages it installed.
try_run_command() {
  user_home=/root
  [ "$4" = root ] || user_home="/home/$4"
  before=$(packages "$3")
  check "$1: the run command $5" "$2-run.log" in_chroot "$3" "$4" \
    "cd ~/lwn-tray && sh build-aux/run.sh --print --feed-url file://\$HOME/lwn-tray/$sample >../printed.txt &&
     cat ../printed.txt"
  check "$1: the run command printed the sample feed" "$2-printed.log" prints_sample "$3$user_home/printed.txt"
  echo "$1: the run command installed $(($(packages "$3") - before)) packages" | tee -a "$out/results.txt"
}

failed=0

# Debian's release names, and the numbers people know them by.
number() {
  case "$1" in
    bookworm) echo 12 ;;
    trixie) echo 13 ;;
    *) echo "$1" ;;
  esac
}
# shellcheck disable=SC1091 # the machine's own file
this=$(. /etc/os-release && echo "${VERSION_CODENAME:-bookworm}")
case "$this" in
  trixie) other=bookworm ;;
  *)
    this=bookworm
    other=trixie
    ;;
esac
this_name="Debian $(number "$this")"
other_name="Debian $(number "$other")"

# This release, as a person with sudo rights would try the Quick start.
fresh_chroot user "$this"
user_root=$root
check "$this_name: a user with sudo" this-user.log in_chroot "$user_root" root \
  'apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends sudo &&
   useradd --create-home --shell /bin/sh reader &&
   echo "reader ALL=(ALL) NOPASSWD: ALL" >/etc/sudoers.d/reader'
copy_tree "$user_root" /home/reader/lwn-tray
chroot "$user_root" chown -R reader:reader /home/reader/lwn-tray
try_run_command "$this_name" this "$user_root" reader "as a user with sudo"
teardown "$user_root"

# The other release, as root: the run command as a new user tries it first,
# then the whole test command, every part of it (its closing lines are
# counted with this machine's).
fresh_chroot other "$other"
other_root=$root
copy_tree "$other_root" /root/lwn-tray
try_run_command "$other_name" other "$other_root" root "as root"
echo "$other_name" >"$out/other-release.txt"
check "$other_name: the test command" other-test.log in_chroot "$other_root" root \
  "cd ~/lwn-tray && LWN_RELEASES=0 sh build-aux/test.sh"
grep '^Time: ' "$out/other-test.log" | sed "s/^/$other_name: /" | tee -a "$out/results.txt" || :
other_tree="$other_root/root/lwn-tray"
# Its closing lines name the figures that failed its cost check, or what it could not measure:
# kept where CI shows them.
awk 'closing && /^(Cost check failed|check-costs\.sh: )/; /^Time: the whole test command/ { closing = 1 }' \
  "$out/other-test.log" | sed "s/^/$other_name: /" | tee -a "$out/results.txt" || :
cp "$other_tree/build/meson-logs/summary.txt" "$out/other-summary.txt" 2>/dev/null || :
cp "$other_tree/build/meson-logs/testlog.json" "$out/other-testlog.json" 2>/dev/null || :
mkdir -p "$out/other-deb"
cp "$other_tree"/build-deb/*.deb "$other_tree"/build-deb/lintian.txt "$out/other-deb/" 2>/dev/null || :
teardown "$other_root"

# The package on a second fresh machine of the other release, installed as
# the README says.
fresh_chroot install "$other"
install_root=$root
mkdir -p "$install_root/root/lwn-tray-deb"
cp "$out"/other-deb/*.deb "$install_root/root/lwn-tray-deb/" 2>/dev/null || :
cp "$here/$sample" "$install_root/root/sample.rdf"
check "$other_name: apt installs the package" other-install.log in_chroot "$install_root" root \
  'cd && apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q ./lwn-tray-deb/lwn-tray_*.deb'
check "$other_name: the installed lwn-tray prints the sample feed" other-installed.log in_chroot "$install_root" root \
  'cd && lwn-tray --print --feed-url file:///root/sample.rdf >printed.txt && cat printed.txt'
check "$other_name: the installed lwn-tray printed the sample feed" other-installed-printed.log \
  prints_sample "$install_root/root/printed.txt"

echo complete >>"$out/results.txt"
exit "$failed"
