/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Set-up shared by the fuzz targets: turns GLib criticals and warnings into crashes libFuzzer records. */

#include "config.h"

#include <stdlib.h>

#include "fuzz-common.h"

/* GLib's own fatal-log path raises SIGTRAP, which libFuzzer does not catch,
 * so the input would be lost; abort() is caught and the input saved. */
static void
fatal_log_cb (const char *log_domain,
              GLogLevelFlags log_level,
              const char *message,
              gpointer user_data)
{
  g_log_default_handler (log_domain, log_level, message, user_data);
  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    abort ();
}

/**
 * lwn_fuzz_init_logging:
 *
 * Makes every warning and critical abort the process: on a path input can
 * reach, either one is a bug the fuzzer should report with its input.
 */
void
lwn_fuzz_init_logging (void)
{
  g_log_set_default_handler (fatal_log_cb, NULL);
}
