#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Renders the PNG fallbacks of the colour icons from their SVGs; run it after changing an SVG.
set -eu

cd "$(dirname "$0")/hicolor"
app_id=io.github.lwntray.LwnTray

for size in 16 22 24 32 48; do
    mkdir -p "${size}x${size}/apps"
    for name in "$app_id" "$app_id-unread"; do
        rsvg-convert --width "$size" --height "$size" \
            --output "${size}x${size}/apps/$name.png" "scalable/apps/$name.svg"
    done
done
