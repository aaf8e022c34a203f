/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a reminder for a headline holds, and whether a headline can have one. */
#pragma once

#include "lwn-headline.h"
#include "lwn-reminders.h"

G_BEGIN_DECLS

/* clang-format off */
LwnReminder *lwn_reader_reminders_make_for (LwnHeadline *headline,
                                            GDateTime   *now);
/* clang-format on */

G_END_DECLS
