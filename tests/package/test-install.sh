#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Installs the build into a temporary DESTDIR and checks that each file lands where desktops look for it.
#
# Needs BUILD_DIR, SOURCE_DIR, APP_ID, BINDIR, DATADIR, MANDIR, LOCALEDIR,
# SYSCONFDIR (absolute, as installed) and SYSTEM_AUTOSTART (true/false).
set -eu

# shellcheck source=tests/package/tap.sh
. "$(dirname "$0")/tap.sh"
tap_init install
destdir=$tmp/destdir
mkdir "$destdir"

installed() {
    check "installed: $1" test -f "$destdir$1"
}

contains() {
    check "$1 has $2" grep -q -e "$2" "$destdir$1"
}

if ! meson install -C "$BUILD_DIR" --destdir "$destdir" --no-rebuild --quiet >"$destdir/.install" 2>&1; then
    echo "1..1"
    echo "not ok 1 - meson install"
    sed 's/^/# /' "$destdir/.install"
    exit 1
fi

hicolor="$DATADIR/icons/hicolor"
schemas="$DATADIR/glib-2.0/schemas"

check "installed: $BINDIR/lwn-tray (executable)" test -x "$destdir$BINDIR/lwn-tray"
installed "$schemas/$APP_ID.gschema.xml"
installed "$DATADIR/applications/$APP_ID.desktop"
installed "$DATADIR/metainfo/$APP_ID.metainfo.xml"
installed "$MANDIR/man1/lwn-tray.1"
for name in "$APP_ID" "$APP_ID-unread"; do
    installed "$hicolor/scalable/apps/$name.svg"
    installed "$hicolor/symbolic/apps/$name-symbolic.svg"
    for size in 16 22 24 32 48; do
        installed "$hicolor/${size}x$size/apps/$name.png"
    done
done

languages=$(sed -e 's/#.*//' "$SOURCE_DIR/po/LINGUAS")
for language in $languages; do
    installed "$LOCALEDIR/$language/LC_MESSAGES/lwn-tray.mo"
    contains "$DATADIR/applications/$APP_ID.desktop" "^Name\\[$language\\]="
    contains "$DATADIR/metainfo/$APP_ID.metainfo.xml" "xml:lang=\"$language\""
done

autostart="$SYSCONFDIR/xdg/autostart/$APP_ID.desktop"
if [ "$SYSTEM_AUTOSTART" = true ]; then
    installed "$autostart"
else
    check "not installed without install_system_autostart: $autostart" test ! -e "$destdir$autostart"
fi

# Post-install scripts do not run under DESTDIR: compile the schema here, as they would.
check "glib-compile-schemas --strict accepts $schemas" \
    glib-compile-schemas --strict --targetdir "$destdir" "$destdir$schemas"
check "the compiled schemas hold $APP_ID" \
    env GSETTINGS_SCHEMA_DIR="$destdir" GSETTINGS_BACKEND=memory gsettings get "$APP_ID" feed-url

tap_done
