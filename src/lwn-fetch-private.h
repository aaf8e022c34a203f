/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This header declares what the three files of the fetch module share and no other module sees. */
#pragma once

#include <curl/curl.h>

#include "lwn-fetch.h"

G_BEGIN_DECLS

/* LwnFetchFailure holds what is known about a failed transfer besides libcurl's code. */
typedef struct
{
  const char           *request_url;
  const char           *proxy;          /* NULL or "" when none was used */
  const char           *message;        /* libcurl's error buffer, maybe empty */
  gboolean              body_too_large; /* the body went over the cap */
  const LwnFetchLimits *limits;
} LwnFetchFailure;

/* lwn-fetch-error.c */
void              lwn_fetch_error_set_from_curl    (GError                **error,
                                                    CURL                   *curl,
                                                    CURLcode                code,
                                                    const LwnFetchFailure  *failure);
void              lwn_fetch_error_set_from_status  (GError                **error,
                                                    guint                   status);

/* lwn-fetch-response.c */
LwnFetchResponse *lwn_fetch_response_new_from_curl (CURL                   *curl,
                                                    const char             *request_url,
                                                    GByteArray             *body,
                                                    gboolean                is_file,
                                                    gboolean                moved);

G_END_DECLS
