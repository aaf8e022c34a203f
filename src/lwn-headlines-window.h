/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The headlines window: every headline of one feed at a time, with its details and summary, a view of the reading model. */
#pragma once

#include <gtk/gtk.h>

#include "lwn-feed-set.h"

G_BEGIN_DECLS

#define LWN_TYPE_HEADLINES_WINDOW (lwn_headlines_window_get_type ())
G_DECLARE_FINAL_TYPE (LwnHeadlinesWindow, lwn_headlines_window, LWN, HEADLINES_WINDOW, GtkApplicationWindow)

/* clang-format off */
LwnHeadlinesWindow *lwn_headlines_window_new (GtkApplication *application,
                                              LwnFeedSet     *feeds,
                                              GSettings      *settings);
void                lwn_headlines_window_set_in_tray (LwnHeadlinesWindow *self,
                                                      gboolean            in_tray);
void                lwn_headlines_window_show_feed   (LwnHeadlinesWindow *self,
                                                      const char         *feed_url);
void                lwn_headlines_window_choose_feed (LwnHeadlinesWindow *self,
                                                      const char         *start_url);
void                lwn_headlines_window_start_search (LwnHeadlinesWindow *self,
                                                       const char         *text);
void                lwn_headlines_window_prepare     (LwnFeedSet         *feeds);
/* clang-format on */

G_END_DECLS
