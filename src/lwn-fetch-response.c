/* SPDX-License-Identifier: GPL-3.0-or-later */
/* LwnFetchResponse holds the outcome of one fetch, which never changes once it is made. It is read from what libcurl kept of the final response. */

#include "config.h"

#include <string.h>

#include "lwn-fetch-private.h"

/* A validator longer than this is not worth storing and sending back. */
#define MAX_VALIDATOR_LENGTH 1024

struct _LwnFetchResponse
{
  guint status;
  gboolean not_modified;
  GBytes *body;
  char *content_type;
  char *etag;
  char *last_modified;
  char *effective_url;
  char *moved_to_url;
  gint64 max_age;
  gint64 retry_after;
};

static void
lwn_fetch_response_clear (LwnFetchResponse *response)
{
  g_clear_pointer (&response->body, g_bytes_unref);
  g_clear_pointer (&response->content_type, g_free);
  g_clear_pointer (&response->etag, g_free);
  g_clear_pointer (&response->last_modified, g_free);
  g_clear_pointer (&response->effective_url, g_free);
  g_clear_pointer (&response->moved_to_url, g_free);
}

/**
 * lwn_fetch_response_unref:
 * @response: (transfer full): a response
 *
 * Drops a reference on @response, freeing it when it was the last one.
 */
void
lwn_fetch_response_unref (LwnFetchResponse *response)
{
  g_return_if_fail (response != NULL);

  g_atomic_rc_box_release_full (response, (GDestroyNotify) lwn_fetch_response_clear);
}

/**
 * lwn_fetch_response_get_status:
 * @response: a response
 *
 * Returns: the HTTP status code of the final response (200 for a file: URL)
 */
guint
lwn_fetch_response_get_status (const LwnFetchResponse *response)
{
  g_return_val_if_fail (response != NULL, 0);

  return response->status;
}

/**
 * lwn_fetch_response_is_not_modified:
 * @response: a response
 *
 * Returns: %TRUE when the server answered 304 Not Modified to a conditional
 *   request; the body is then %NULL and the caller's copy is still current
 */
gboolean
lwn_fetch_response_is_not_modified (const LwnFetchResponse *response)
{
  g_return_val_if_fail (response != NULL, FALSE);

  return response->not_modified;
}

/**
 * lwn_fetch_response_get_body:
 * @response: a response
 *
 * Returns: (transfer none) (nullable): the decompressed body, %NULL for a
 *   304 Not Modified response
 */
GBytes *
lwn_fetch_response_get_body (const LwnFetchResponse *response)
{
  g_return_val_if_fail (response != NULL, NULL);

  return response->body;
}

/**
 * lwn_fetch_response_get_content_type:
 * @response: a response
 *
 * Returns: (transfer none) (nullable): the Content-Type of the final response
 */
const char *
lwn_fetch_response_get_content_type (const LwnFetchResponse *response)
{
  g_return_val_if_fail (response != NULL, NULL);

  return response->content_type;
}

/**
 * lwn_fetch_response_get_etag:
 * @response: a response
 *
 * Returns: (transfer none) (nullable): the ETag of the final response, to
 *   send back as If-None-Match next time
 */
const char *
lwn_fetch_response_get_etag (const LwnFetchResponse *response)
{
  g_return_val_if_fail (response != NULL, NULL);

  return response->etag;
}

/**
 * lwn_fetch_response_get_last_modified:
 * @response: a response
 *
 * Returns: (transfer none) (nullable): the Last-Modified date of the final
 *   response, verbatim, to send back as If-Modified-Since next time
 */
const char *
lwn_fetch_response_get_last_modified (const LwnFetchResponse *response)
{
  g_return_val_if_fail (response != NULL, NULL);

  return response->last_modified;
}

/**
 * lwn_fetch_response_get_effective_url:
 * @response: a response
 *
 * Returns: (transfer none): the URL the final response came from, after
 *   any redirects
 */
const char *
lwn_fetch_response_get_effective_url (const LwnFetchResponse *response)
{
  g_return_val_if_fail (response != NULL, NULL);

  return response->effective_url;
}

/**
 * lwn_fetch_response_get_moved_to_url:
 * @response: a response
 *
 * Returns: (transfer none) (nullable): the final URL when every redirect on
 *   the way was permanent (301 or 308) and the final response is a success
 *   or 304, so that the caller may store it as the feed's new address;
 *   %NULL when there was no redirect or any of them was temporary
 */
const char *
lwn_fetch_response_get_moved_to_url (const LwnFetchResponse *response)
{
  g_return_val_if_fail (response != NULL, NULL);

  return response->moved_to_url;
}

/**
 * lwn_fetch_response_get_max_age:
 * @response: a response
 *
 * Returns: the Cache-Control max-age of the final response in seconds,
 *   0 for no-cache or no-store, -1 when the server said nothing
 */
gint64
lwn_fetch_response_get_max_age (const LwnFetchResponse *response)
{
  g_return_val_if_fail (response != NULL, -1);

  return response->max_age;
}

/**
 * lwn_fetch_response_get_retry_after:
 * @response: a response
 *
 * Returns: the Retry-After of the final response as seconds from the time
 *   it arrived (never negative), or -1 when absent or unreadable
 */
gint64
lwn_fetch_response_get_retry_after (const LwnFetchResponse *response)
{
  g_return_val_if_fail (response != NULL, -1);

  return response->retry_after;
}

/**
 * lwn_fetch_response_check:
 * @response: a response
 * @error: return location for a #GError, or %NULL
 *
 * Tells whether @response carries a usable answer: a 2xx status (or a
 * file: URL) or 304 Not Modified. Kept apart from lwn_fetch_sync() so that
 * a caller can still read Retry-After from a 429 or 503.
 *
 * Returns: %TRUE if usable; otherwise %FALSE with @error set to
 *   %LWN_FETCH_ERROR_HTTP_STATUS
 */
gboolean
lwn_fetch_response_check (const LwnFetchResponse *response,
                          GError **error)
{
  g_return_val_if_fail (response != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if ((response->status >= 200 && response->status < 300) || response->status == 304)
    return TRUE;

  lwn_fetch_error_set_from_status (error, response->status);
  return FALSE;
}

static gboolean
parse_seconds (const char *text,
               gint64 *seconds)
{
  guint64 value = 0;

  if (*text == '\0')
    return FALSE;

  for (const char *p = text; *p != '\0'; p++)
    {
      if (!g_ascii_isdigit (*p))
        return FALSE;
      /* The value saturates rather than wraps, because a huge number still means
       * "a long time". */
      value = MIN (value * 10 + (guint) (*p - '0'), (guint64) G_MAXINT32);
    }

  *seconds = (gint64) value;
  return TRUE;
}

/* Returns the @index-th @name header of the final response. The pointer lasts
 * until the next call. The headers of redirects on the way and of 1xx
 * responses are not looked at. */
static struct curl_header *
final_header (CURL *curl,
              const char *name,
              gsize index)
{
  struct curl_header *header = NULL;

  if (curl_easy_header (curl, name, index, CURLH_HEADER, -1, &header) != CURLHE_OK)
    return NULL;
  return header;
}

/* Returns a copy of the value of the last @name header, or NULL when the
 * header is absent, empty or longer than @max_length. */
static char *
dup_final_header (CURL *curl,
                  const char *name,
                  gsize max_length)
{
  struct curl_header *header = final_header (curl, name, 0);

  if (header != NULL && header->amount > 1)
    header = final_header (curl, name, header->amount - 1);
  if (header == NULL || *header->value == '\0' || strlen (header->value) > max_length)
    return NULL;

  return g_strdup (header->value);
}

/* Applies one Cache-Control header to @max_age and @no_cache. */
static void
parse_cache_control (const char *value,
                     gint64 *max_age,
                     gboolean *no_cache)
{
  g_auto (GStrv) directives = g_strsplit (value, ",", -1);

  for (gsize i = 0; directives[i] != NULL; i++)
    {
      char *directive = g_strstrip (directives[i]);
      char *argument = strchr (directive, '=');

      if (argument != NULL)
        *argument++ = '\0';
      g_strstrip (directive);

      if (g_ascii_strcasecmp (directive, "no-cache") == 0 || g_ascii_strcasecmp (directive, "no-store") == 0)
        {
          *no_cache = TRUE;
        }
      else if (g_ascii_strcasecmp (directive, "max-age") == 0 && argument != NULL)
        {
          /* RFC 9111 §5.2: senders use the token form, but recipients accept the quoted one. */
          argument = g_strstrip (argument);
          if (argument[0] == '"' && argument[1] != '\0' && g_str_has_suffix (argument, "\""))
            {
              argument++;
              argument[strlen (argument) - 1] = '\0';
            }
          parse_seconds (argument, max_age);
        }
    }
}

static gint64
read_max_age (CURL *curl)
{
  struct curl_header *header = final_header (curl, "Cache-Control", 0);
  gsize amount = header != NULL ? header->amount : 0;
  gint64 max_age = -1;
  gboolean no_cache = FALSE;

  for (gsize i = 0; i < amount; i++)
    {
      header = final_header (curl, "Cache-Control", i);
      if (header != NULL)
        parse_cache_control (header->value, &max_age, &no_cache);
    }

  return no_cache ? 0 : max_age;
}

/* libcurl reads both forms of the value. However, it takes an unreadable
 * value for 0 ("now"), as it does a number too large for it, and it takes a
 * date in the past for a negative delay. This function therefore checks the
 * form before it asks libcurl. */
static gint64
read_retry_after (CURL *curl)
{
  g_autofree char *value = dup_final_header (curl, "Retry-After", G_MAXSIZE);
  curl_off_t seconds = 0;
  gint64 delta = 0;
  gboolean is_delta;

  if (value == NULL)
    return -1;

  is_delta = parse_seconds (value, &delta);
  if (!is_delta && curl_getdate (value, NULL) == -1)
    return -1;
  if (is_delta && delta == G_MAXINT32)
    return delta;
  if (curl_easy_getinfo (curl, CURLINFO_RETRY_AFTER, &seconds) != CURLE_OK)
    return -1;

  return CLAMP ((gint64) seconds, 0, G_MAXINT32);
}

/**
 * lwn_fetch_response_new_from_curl:
 * @curl: the easy handle of a completed transfer
 * @request_url: the URL asked for
 * @body: (transfer full): the body as received, after decompression
 * @is_file: whether @request_url is a file: URL, which has no status
 * @moved: whether every hop before the last was a permanent redirect
 *
 * Builds the response of a completed transfer.
 *
 * Returns: (transfer full): the response
 */
LwnFetchResponse *
lwn_fetch_response_new_from_curl (CURL *curl,
                                  const char *request_url,
                                  GByteArray *body,
                                  gboolean is_file,
                                  gboolean moved)
{
  LwnFetchResponse *response = g_atomic_rc_box_new0 (LwnFetchResponse);
  g_autoptr (GByteArray) owned_body = body;
  const char *effective_url = NULL;
  long status = 0;

  curl_easy_getinfo (curl, CURLINFO_RESPONSE_CODE, &status);
  response->status = is_file && status == 0 ? 200 : (guint) status;
  response->not_modified = response->status == 304;
  if (!response->not_modified)
    response->body = g_byte_array_free_to_bytes (g_steal_pointer (&owned_body));

  if (curl_easy_getinfo (curl, CURLINFO_EFFECTIVE_URL, &effective_url) != CURLE_OK || effective_url == NULL)
    effective_url = request_url;
  response->effective_url = g_strdup (effective_url);

  response->content_type = dup_final_header (curl, "Content-Type", G_MAXSIZE);
  response->etag = dup_final_header (curl, "ETag", MAX_VALIDATOR_LENGTH);
  response->last_modified = dup_final_header (curl, "Last-Modified", MAX_VALIDATOR_LENGTH);
  response->max_age = read_max_age (curl);
  response->retry_after = read_retry_after (curl);

  if (moved && lwn_fetch_response_check (response, NULL))
    response->moved_to_url = g_strdup (response->effective_url);

  return response;
}
