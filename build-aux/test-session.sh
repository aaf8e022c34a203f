#!/bin/sh
# SPDX-License-Identifier: GPL-3.0-or-later
# Runs one test command inside a throwaway X server and D-Bus session and exits
# with the command's status.
set -eu

if [ "$#" -eq 0 ]; then
  echo "usage: $0 COMMAND [ARGUMENT...]" >&2
  exit 2
fi

# No GTK program looks for an accessibility bus unless a test asks for one.
# Such a test (tests/e2e/lwn_atspi.py) starts at-spi-bus-launcher on each scenario's
# private bus and unsets this for the applet alone: an accessibility bus here,
# on the outer session bus, would be out of the scenarios' reach.
export NO_AT_BRIDGE=1
# The scenarios start their own buses; the outer session only catches anything
# that would otherwise reach the user's real session bus. The screen is tall
# enough for a menu of max-items' largest value, 50 headlines; the tests of
# smaller screens start X servers of their own.
# -noreset: Xvfb otherwise resets each time its last client leaves, and a test's
# next applet that connects meanwhile cannot open the display (a desktop's X server
# always has clients).
exec xvfb-run -a -s "-screen 0 1280x1800x24 -nolisten tcp -noreset" dbus-run-session -- "$@"
