/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The contract between lwn-launcher and the helper program that starts the browser for it (lwn-launch-helper.c). */
#pragma once

/* The helper's command line is
 *
 *   lwn-tray-launch-helper [--desktop-file FILE] URL
 *
 * FILE is the desktop entry of the browser to start; without it, GIO picks
 * the handler of URL's scheme. A token that brings the browser to the front
 * comes in the helper's environment, as XDG_ACTIVATION_TOKEN and
 * DESKTOP_STARTUP_ID, and the browser inherits it from there. The helper
 * starts with nothing open but stdin, stdout, stderr and the write end of a
 * pipe on LWN_LAUNCH_REPORT_FD. */
#define LWN_LAUNCH_OPTION_DESKTOP_FILE "--desktop-file"

/* Where the helper writes why a launch failed: the GError's domain, its
 * code and its message, each on a line of its own (the message last, so it
 * may hold line breaks), at most LWN_LAUNCH_REPORT_MAX bytes in all. */
#define LWN_LAUNCH_REPORT_FD 3
#define LWN_LAUNCH_REPORT_MAX 4096

/* The helper's exit status. */
typedef enum
{
  LWN_LAUNCH_EXIT_OK = 0,       /* the browser started, or was asked to over D-Bus */
  LWN_LAUNCH_EXIT_FAILED = 1,   /* GIO failed, and the report says why */
  LWN_LAUNCH_EXIT_NO_ENTRY = 2, /* FILE could not be loaded: gone, or its program is */
  LWN_LAUNCH_EXIT_USAGE = 64,   /* not the command line above */
} LwnLaunchExit;
