#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs, on Debian 12 or 13, the packages lwn-tray needs, skipping the apt
# round-trip when all of them are already there. Every name is one that both
# releases carry (no version in a name), and every program that the build,
# its install step or a test runs comes from a package listed here.
#
# Usage: build-aux/install-deps.sh [--test] [--deb]
#   (none)   what building and running it need (build-aux/run.sh)
#   --test   also what the test suite (build-aux/test.sh) and the benchmarks need
#   --deb    also what building and checking the Debian package needs
#            (build-aux/build-deb.sh; its build dependencies come from debian/control)
set -eu

# librsvg2-common is GTK's SVG loader: the applet's icons and Adwaita's
# (SVG only from Debian 13 on) need it. libglib2.0-bin and
# gtk-update-icon-cache are the install step's glib-compile-schemas and
# gtk-update-icon-cache.
build_packages="
  build-essential meson ninja-build pkg-config gettext
  libglib2.0-dev libgtk-3-dev libayatana-appindicator3-dev libdbusmenu-glib-dev libnotify-dev
  libcurl4-openssl-dev libxml2-dev libjson-glib-dev
  libglib2.0-bin gtk-update-icon-cache librsvg2-common
  glib-networking gsettings-desktop-schemas ca-certificates
"
# The desktop suite runs GNOME Shell with the AppIndicator extension; the
# shell's notification service is a gjs program that its session bus starts,
# and its settings live in dconf. build-aux/test-under-load.sh loads the
# machine with stress-ng. bench/check-costs.sh counts CPU time with perf.
test_packages="
  libglib2.0-bin dbus dbus-x11 xvfb xauth x11-utils libxml2-utils
  python3 python3-dbus python3-dbusmock python3-gi openssl time curl
  at-spi2-core gir1.2-atspi-2.0
  gnome-shell gnome-shell-extension-appindicator gjs dconf-gsettings-backend
  desktop-file-utils appstream librsvg2-bin groff-base
  clang libclang-rt-dev clang-format
  debootstrap stress-ng linux-perf
"
deb_packages="
  dpkg-dev debhelper lintian
"

packages="$build_packages"
for option in "$@"; do
  case "$option" in
    --test) packages="$packages $test_packages" ;;
    --deb) packages="$packages $deb_packages" ;;
    *)
      echo "usage: $0 [--test] [--deb]" >&2
      exit 2
      ;;
  esac
done

missing=""
for package in $packages; do
  if ! dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q 'ok installed'; then
    missing="$missing $package"
  fi
done

if [ -n "$missing" ]; then
  echo "Installing:$missing"
  # sudo resets the environment: the variable goes through env, after it.
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get update -q
  # shellcheck disable=SC2086
  $sudo_cmd env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends $missing
fi
