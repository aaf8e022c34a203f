#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs, on Debian 12, every package lwn-tray needs to build, run and test,
# skipping the apt round-trip when all of them are already there.
set -eu

packages="
  build-essential meson ninja-build pkg-config gettext
  libglib2.0-dev libglib2.0-bin libgtk-3-dev libayatana-appindicator3-dev libnotify-dev
  libcurl4-openssl-dev libxml2-dev libjson-glib-dev glib-networking
  ca-certificates dbus dbus-x11 xvfb xauth libxml2-utils
  python3 python3-dbusmock python3-gi openssl time
  at-spi2-core gir1.2-atspi-2.0
  desktop-file-utils appstream librsvg2-bin groff-base
  clang libclang-rt-14-dev clang-format
"

missing=""
for package in $packages; do
  if ! dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q 'ok installed'; then
    missing="$missing $package"
  fi
done

if [ -n "$missing" ]; then
  echo "Installing:$missing"
  sudo_cmd=""
  [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
  $sudo_cmd apt-get update -q
  # shellcheck disable=SC2086
  DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -q --no-install-recommends $missing
fi
