/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file finds where the running program and its icons are: installed, or in a build folder and the source tree. */

#include "config.h"

#include <string.h>

#include "lwn-locations.h"

/**
 * lwn_locations_dup_uninstalled_binary:
 *
 * Returns: (transfer full) (nullable): %NULL for the installed program (which
 *   is on PATH as lwn-tray), else the path of this very binary, such as one
 *   in a build folder
 */
char *
lwn_locations_dup_uninstalled_binary (void)
{
  g_autofree char *exe = g_file_read_link ("/proc/self/exe", NULL);
  g_autofree char *dir = exe != NULL ? g_path_get_dirname (exe) : NULL;

  if (dir == NULL || g_str_equal (dir, BINDIR))
    return NULL;
  /* Linux names a binary that was replaced since it started "PATH (deleted)".
   * The new binary at PATH is the one meant. */
  if (g_str_has_suffix (exe, " (deleted)"))
    exe[strlen (exe) - strlen (" (deleted)")] = '\0';
  return g_steal_pointer (&exe);
}

/**
 * lwn_locations_dup_icon_theme_path:
 *
 * The tray host is another process, with data folders of its own: it finds
 * icons that are not installed only through the item's IconThemePath. The
 * first of our data folders that holds our icons says where the icons come
 * from. That folder is either the install prefix, whose icons the host's
 * theme has already, or a folder that XDG_DATA_DIRS adds (meson devenv, the
 * tests), which the host must be told about. Because the answer is read from
 * the data folders rather than from a variable of our own, it serves any way
 * of running uninstalled.
 *
 * Returns: (transfer full) (nullable): the icon theme folder to name to the
 *   tray host, or %NULL for the installed icons
 */
char *
lwn_locations_dup_icon_theme_path (void)
{
  const char *const *dirs = g_get_system_data_dirs ();

  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *dir = g_canonicalize_filename (dirs[i], "/");
      g_autofree char *icon = g_build_filename (dir, "icons", "hicolor", "scalable", "apps", APP_ID ".svg", NULL);

      if (g_file_test (icon, G_FILE_TEST_IS_REGULAR))
        return g_str_equal (dir, DATADIR) ? NULL : g_build_filename (dir, "icons", NULL);
    }
  return NULL;
}
