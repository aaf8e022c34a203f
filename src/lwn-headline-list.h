/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The list of the headlines window: a row per headline, made as the person scrolls and kept by headline. */
#pragma once

#include <gtk/gtk.h>

#include "lwn-headline-row.h"

G_BEGIN_DECLS

#define LWN_TYPE_HEADLINE_LIST (lwn_headline_list_get_type ())
G_DECLARE_FINAL_TYPE (LwnHeadlineList, lwn_headline_list, LWN, HEADLINE_LIST, GtkListBox)

/* clang-format off */
void            lwn_headline_list_set_model       (LwnHeadlineList *self,
                                                   GListModel      *headlines);
void            lwn_headline_list_set_subscriber  (LwnHeadlineList *self,
                                                   gboolean         subscriber);
guint           lwn_headline_list_set_search      (LwnHeadlineList *self,
                                                   const char      *text);
guint           lwn_headline_list_get_n_matching  (LwnHeadlineList *self);
LwnHeadlineRow *lwn_headline_list_get_first_match (LwnHeadlineList *self);
/* clang-format on */

G_END_DECLS
