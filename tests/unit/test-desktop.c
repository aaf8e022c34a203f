/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests lwn-desktop: which desktop XDG_CURRENT_DESKTOP names, and how many headlines its tray host's menu
 * has room for. */

#include "config.h"

#include <glib.h>

#include "lwn-desktop.h"

static void
test_from_string (void)
{
  g_test_summary ("The first desktop the applet knows in the colon-separated list, in any case");

  g_assert_cmpint (lwn_desktop_from_string ("GNOME"), ==, LWN_DESKTOP_GNOME);
  g_assert_cmpint (lwn_desktop_from_string ("ubuntu:GNOME"), ==, LWN_DESKTOP_GNOME);
  g_assert_cmpint (lwn_desktop_from_string ("Budgie:GNOME"), ==, LWN_DESKTOP_GNOME);
  g_assert_cmpint (lwn_desktop_from_string ("KDE"), ==, LWN_DESKTOP_KDE);
  g_assert_cmpint (lwn_desktop_from_string ("kde"), ==, LWN_DESKTOP_KDE);
  g_assert_cmpint (lwn_desktop_from_string ("XFCE"), ==, LWN_DESKTOP_OTHER);
  g_assert_cmpint (lwn_desktop_from_string ("sway"), ==, LWN_DESKTOP_OTHER);
  g_assert_cmpint (lwn_desktop_from_string ("GNOME-Flashback:GNOMEish"), ==, LWN_DESKTOP_OTHER);
  g_assert_cmpint (lwn_desktop_from_string (""), ==, LWN_DESKTOP_OTHER);
  g_assert_cmpint (lwn_desktop_from_string (NULL), ==, LWN_DESKTOP_OTHER);
  g_assert_cmpint (lwn_desktop_from_string (":::"), ==, LWN_DESKTOP_OTHER);

  g_assert_true (lwn_desktop_wants_symbolic (LWN_DESKTOP_GNOME));
  g_assert_true (lwn_desktop_wants_symbolic (LWN_DESKTOP_KDE));
  g_assert_false (lwn_desktop_wants_symbolic (LWN_DESKTOP_OTHER));
}

/* The height of a menu of @n_headlines headlines, eight more rows and two separators. */
static int
menu_height (const LwnMenuMetrics *metrics,
             guint n_headlines)
{
  return metrics->reserve + (int) (n_headlines + 8) * metrics->row + 2 * metrics->separator;
}

static void
test_fit (void)
{
  LwnMenuMetrics gnome;
  LwnMenuMetrics other;
  const int heights[] = { 600, 720, 768, 800, 900, 1080, 1440, 2160 };

  g_test_summary ("The headlines that fit leave the whole menu on the screen, and one more would not");

  lwn_desktop_get_menu_metrics (LWN_DESKTOP_GNOME, &gnome);
  lwn_desktop_get_menu_metrics (LWN_DESKTOP_OTHER, &other);
  /* What GNOME Shell 43 draws: 36 px rows. */
  g_assert_cmpint (gnome.row, ==, 36);
  g_assert_cmpuint (lwn_desktop_fit_menu_rows (&gnome, 800, 8, 2), ==, 11);
  g_assert_cmpuint (lwn_desktop_fit_menu_rows (&gnome, 768, 8, 2), ==, 10);
  g_assert_cmpuint (lwn_desktop_fit_menu_rows (&other, 800, 8, 2), ==, 17);
  g_assert_cmpuint (lwn_desktop_fit_menu_rows (&other, 768, 8, 2), ==, 16);

  for (guint i = 0; i < G_N_ELEMENTS (heights); i++)
    for (guint desktop = 0; desktop < 2; desktop++)
      {
        const LwnMenuMetrics *metrics = desktop == 0 ? &gnome : &other;
        guint fit = lwn_desktop_fit_menu_rows (metrics, heights[i], 8, 2);

        g_assert_cmpint (menu_height (metrics, fit), <=, heights[i]);
        g_assert_cmpint (menu_height (metrics, fit + 1), >, heights[i]);
      }
}

static void
test_fit_extremes (void)
{
  LwnMenuMetrics gnome;

  g_test_summary ("A screen too small for the commands still gets one headline; no monitor means no limit");

  lwn_desktop_get_menu_metrics (LWN_DESKTOP_GNOME, &gnome);
  g_assert_cmpuint (lwn_desktop_fit_menu_rows (&gnome, 200, 8, 2), ==, 1);
  g_assert_cmpuint (lwn_desktop_fit_menu_rows (&gnome, 0, 8, 2), ==, 1);
  g_assert_cmpuint (lwn_desktop_fit_menu_rows (&gnome, -5, 8, 2), ==, 1);
  g_assert_cmpuint (lwn_desktop_fit_menu_rows (&gnome, G_MAXINT, 8, 2), >, 50);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/desktop/from-string", test_from_string);
  g_test_add_func ("/desktop/fit", test_fit);
  g_test_add_func ("/desktop/fit/extremes", test_fit_extremes);

  return g_test_run ();
}
