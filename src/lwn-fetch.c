/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Downloads a feed with libcurl: conditional GET, hard limits, cancellable, off the main thread. */

#include "config.h"

#include <string.h>

#include <curl/curl.h>
#include <glib/gi18n.h>

#include "lwn-fetch.h"

typedef struct curl_slist CurlSlist;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CURL, curl_easy_cleanup)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CURLM, curl_multi_cleanup)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (CurlSlist, curl_slist_free_all)

/* clang-format off */
G_DEFINE_QUARK (lwn-fetch-error-quark, lwn_fetch_error)
/* clang-format on */

#define USER_AGENT PACKAGE_NAME "/" PACKAGE_VERSION " (+" PACKAGE_URL ")"

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

/* Everything one transfer's callbacks touch; it lives on the worker's stack. */
typedef struct
{
  GCancellable *cancellable;
  guint64 max_body_bytes;
  GByteArray *body;
  gboolean body_too_large;

  /* The redirect chain, as seen through the status line of every hop. */
  guint n_hops;
  guint hop_status;
  gboolean all_redirects_permanent;

  /* Headers of the current hop; the next status line resets them. */
  char *etag;
  char *last_modified;
  gint64 max_age;
  gboolean no_cache;
  gint64 retry_after;
} Transfer;

/**
 * lwn_fetch_limits_init_default:
 * @limits: (out caller-allocates): the limits to fill
 *
 * Fills @limits with the defaults: an 8 MiB body cap, 15 s to connect, 60 s
 * in all, at least 100 bytes/s over any 30 s, and at most 5 redirects.
 */
void
lwn_fetch_limits_init_default (LwnFetchLimits *limits)
{
  g_return_if_fail (limits != NULL);

  limits->max_body_bytes = 8 * 1024 * 1024;
  limits->connect_timeout_seconds = 15;
  limits->total_timeout_seconds = 60;
  limits->low_speed_bytes = 100;
  limits->low_speed_seconds = 30;
  limits->max_redirects = 5;
}

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

static const struct
{
  guint status;
  const char *reason;
} status_reasons[] = {
  { 400, N_("Bad Request") },
    { 401, N_("Unauthorized") },
      { 403, N_("Forbidden") },
        { 404, N_("Not Found") },
          { 405, N_("Method Not Allowed") },
            { 406, N_("Not Acceptable") },
              { 408, N_("Request Timeout") },
                { 410, N_("Gone") },
                  { 429, N_("Too Many Requests") },
                    { 500, N_("Internal Server Error") },
                      { 501, N_("Not Implemented") },
                        { 502, N_("Bad Gateway") },
                          { 503, N_("Service Unavailable") },
                            { 504, N_("Gateway Timeout") },
                          };

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

  for (gsize i = 0; i < G_N_ELEMENTS (status_reasons); i++)
    {
      if (status_reasons[i].status == response->status)
        {
          /* Translators: the first %u is an HTTP status code, then its standard name. */
          g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_HTTP_STATUS,
                       _("HTTP status %u (%s)"), response->status,
                          _(status_reasons[i].reason));
          return FALSE;
        }
    }

  g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_HTTP_STATUS,
               _("HTTP status %u"), response->status);
  return FALSE;
}

static void
transfer_clear (Transfer *transfer)
{
  g_clear_pointer (&transfer->body, g_byte_array_unref);
  g_clear_pointer (&transfer->etag, g_free);
  g_clear_pointer (&transfer->last_modified, g_free);
}

static void
transfer_begin_hop (Transfer *transfer,
                    guint status)
{
  /* 1xx responses are interim: the real one follows on the same hop. */
  if (status < 200)
    return;

  if (transfer->n_hops > 0 && transfer->hop_status != 301 && transfer->hop_status != 308)
    transfer->all_redirects_permanent = FALSE;

  transfer->n_hops++;
  transfer->hop_status = status;

  g_clear_pointer (&transfer->etag, g_free);
  g_clear_pointer (&transfer->last_modified, g_free);
  transfer->max_age = -1;
  transfer->no_cache = FALSE;
  transfer->retry_after = -1;
  g_byte_array_set_size (transfer->body, 0);
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
      /* Saturate rather than wrap: a huge number still means "a long time". */
      value = MIN (value * 10 + (guint) (*p - '0'), (guint64) G_MAXINT32);
    }

  *seconds = (gint64) value;
  return TRUE;
}

static void
parse_cache_control (Transfer *transfer,
                     const char *value)
{
  g_auto (GStrv) directives = g_strsplit (value, ",", -1);

  for (gsize i = 0; directives[i] != NULL; i++)
    {
      char *directive = g_strstrip (directives[i]);
      char *argument = strchr (directive, '=');
      gint64 seconds;

      if (argument != NULL)
        *argument++ = '\0';
      g_strstrip (directive);

      if (g_ascii_strcasecmp (directive, "no-cache") == 0 || g_ascii_strcasecmp (directive, "no-store") == 0)
        {
          transfer->no_cache = TRUE;
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
          if (parse_seconds (argument, &seconds))
            transfer->max_age = seconds;
        }
    }
}

static gint64
parse_retry_after (const char *value)
{
  gint64 seconds;
  time_t when;

  if (parse_seconds (value, &seconds))
    return seconds;

  when = curl_getdate (value, NULL);
  if (when == -1)
    return -1;

  return MAX ((gint64) when - g_get_real_time () / G_USEC_PER_SEC, 0);
}

static char *
dup_validator (const char *value)
{
  if (*value == '\0' || strlen (value) > MAX_VALIDATOR_LENGTH)
    return NULL;

  return g_strdup (value);
}

/* Reads the code of a status line such as "HTTP/1.1 404 Not Found" or "HTTP/2 304". */
static gboolean
parse_status_line (const char *line,
                   guint *status)
{
  const char *code = strchr (line, ' ');
  guint value = 0;

  if (code == NULL)
    return FALSE;
  code++;

  for (gsize i = 0; i < 3; i++)
    {
      if (!g_ascii_isdigit (code[i]))
        return FALSE;
      value = value * 10 + (guint) g_ascii_digit_value (code[i]);
    }
  if (code[3] != '\0' && code[3] != ' ')
    return FALSE;

  *status = value;
  return TRUE;
}

/* Sees the status line and headers of every hop, redirects included. */
static size_t
transfer_header_cb (char *buffer,
                    size_t size,
                    size_t n_items,
                    void *user_data)
{
  Transfer *transfer = user_data;
  gsize length = size * n_items;
  g_autofree char *line = g_strndup (buffer, length);
  char *colon;
  char *value;

  g_strchomp (line);

  if (g_str_has_prefix (line, "HTTP/"))
    {
      guint status;

      if (parse_status_line (line, &status))
        transfer_begin_hop (transfer, status);
      return length;
    }

  /* Obsolete line folding (RFC 9112 §5.2) continues a header we do not use. */
  if (line[0] == ' ' || line[0] == '\t')
    return length;

  colon = strchr (line, ':');
  if (colon == NULL)
    return length;
  *colon = '\0';
  value = g_strstrip (colon + 1);

  if (g_ascii_strcasecmp (line, "ETag") == 0)
    {
      g_free (transfer->etag);
      transfer->etag = dup_validator (value);
    }
  else if (g_ascii_strcasecmp (line, "Last-Modified") == 0)
    {
      g_free (transfer->last_modified);
      transfer->last_modified = dup_validator (value);
    }
  else if (g_ascii_strcasecmp (line, "Cache-Control") == 0)
    {
      parse_cache_control (transfer, value);
    }
  else if (g_ascii_strcasecmp (line, "Retry-After") == 0)
    {
      transfer->retry_after = parse_retry_after (value);
    }

  return length;
}

/* Counts the body after decompression, which is what a compression bomb inflates. */
static size_t
transfer_write_cb (char *data,
                   size_t size,
                   size_t n_items,
                   void *user_data)
{
  Transfer *transfer = user_data;
  gsize length = size * n_items;

  if (length > transfer->max_body_bytes || transfer->body->len > transfer->max_body_bytes - length)
    {
      transfer->body_too_large = TRUE;
      return 0;
    }

  g_byte_array_append (transfer->body, (const guint8 *) data, (guint) length);
  return length;
}

static int
transfer_xferinfo_cb (void *user_data,
                      curl_off_t download_total,
                      curl_off_t download_now,
                      curl_off_t upload_total,
                      curl_off_t upload_now)
{
  Transfer *transfer = user_data;

  return g_cancellable_is_cancelled (transfer->cancellable) ? 1 : 0;
}

static void
transfer_cancelled_cb (GCancellable *cancellable,
                       gpointer user_data)
{
  curl_multi_wakeup (user_data);
}

/* curl_easy_perform() sleeps up to a second between progress callbacks
 * while the socket is idle, so it would notice a cancellation late. Driving
 * the easy handle from a private multi handle lets the cancellation wake the
 * wait at once. */
static CURLcode
perform_transfer (CURL *curl,
                  GCancellable *cancellable)
{
  g_autoptr (CURLM) multi = curl_multi_init ();
  CURLcode result = CURLE_OK;
  CURLMcode multi_result;
  gulong handler_id = 0;
  int running = 1;

  if (multi == NULL)
    return CURLE_OUT_OF_MEMORY;

  multi_result = curl_multi_add_handle (multi, curl);
  if (multi_result != CURLM_OK)
    return CURLE_OUT_OF_MEMORY;

  if (cancellable != NULL)
    handler_id = g_cancellable_connect (cancellable, G_CALLBACK (transfer_cancelled_cb), multi, NULL);

  while (multi_result == CURLM_OK && running > 0)
    {
      multi_result = curl_multi_perform (multi, &running);
      if (multi_result != CURLM_OK || running == 0)
        break;

      if (g_cancellable_is_cancelled (cancellable))
        {
          result = CURLE_ABORTED_BY_CALLBACK;
          break;
        }

      multi_result = curl_multi_poll (multi, NULL, 0, 1000, NULL);
    }

  g_cancellable_disconnect (cancellable, handler_id);

  if (result == CURLE_OK)
    {
      CURLMsg *message;
      int n_left;

      if (multi_result != CURLM_OK)
        result = multi_result == CURLM_OUT_OF_MEMORY ? CURLE_OUT_OF_MEMORY : CURLE_FAILED_INIT;

      while ((message = curl_multi_info_read (multi, &n_left)) != NULL)
        {
          if (message->msg == CURLMSG_DONE && message->easy_handle == curl)
            result = message->data.result;
        }
    }

  curl_multi_remove_handle (multi, curl);
  return result;
}

/* "host:port" of @url for messages, with the scheme's default port. */
static char *
describe_endpoint (const char *url)
{
  g_autofree char *scheme = NULL;
  g_autofree char *host = NULL;
  gint port = -1;

  if (url == NULL)
    return g_strdup ("");
  if (!g_uri_split_network (url, G_URI_FLAGS_NONE, &scheme, &host, &port, NULL) || host == NULL)
    return g_strdup (url);

  if (port == -1)
    port = g_ascii_strcasecmp (scheme, "https") == 0 ? 443 : 80;

  if (strchr (host, ':') != NULL)
    return g_strdup_printf ("[%s]:%d", host, port);
  return g_strdup_printf ("%s:%d", host, port);
}

static char *
describe_host (const char *url)
{
  g_autofree char *host = NULL;

  if (url == NULL || !g_uri_split_network (url, G_URI_FLAGS_NONE, NULL, &host, NULL, NULL) || host == NULL)
    return g_strdup (url != NULL ? url : "");

  return g_steal_pointer (&host);
}

static void
set_timeout_error (GError **error,
                   CURL *curl,
                   const char *url,
                   const LwnFetchLimits *limits)
{
  curl_off_t connect_time = 0;
  curl_off_t total_time = 0;
  guint seconds;
  gboolean low_speed_checked;
  gboolean total_reached;

  curl_easy_getinfo (curl, CURLINFO_CONNECT_TIME_T, &connect_time);
  curl_easy_getinfo (curl, CURLINFO_TOTAL_TIME_T, &total_time);
  seconds = (guint) ((total_time + G_USEC_PER_SEC / 2) / G_USEC_PER_SEC);

  /* libcurl gives the same code for all three timeouts: tell them apart by
   * what had happened and how long it took. */
  low_speed_checked = limits->low_speed_seconds > 0 && limits->low_speed_bytes > 0;
  total_reached = limits->total_timeout_seconds > 0 && seconds >= limits->total_timeout_seconds;

  if (connect_time == 0)
    {
      g_autofree char *host = describe_host (url);

      g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TIMED_OUT,
                   ngettext ("Timed out connecting to %s after %u second",
                             "Timed out connecting to %s after %u seconds", seconds),
                   host, seconds);
    }
  else if (low_speed_checked && !total_reached)
    {
      g_set_error_literal (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TIMED_OUT,
                           _("The server is too slow"));
    }
  else
    {
      g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TIMED_OUT,
                   ngettext ("Timed out after %u second",
                             "Timed out after %u seconds", seconds),
                   seconds);
    }
}

/* "8 MiB" rather than "8.0 MiB" for the round sizes that limits are. */
static char *
format_size_limit (guint64 bytes)
{
  const guint64 kib = 1024;
  const guint64 mib = 1024 * kib;

  if (bytes >= mib && bytes % mib == 0 && bytes / mib <= G_MAXUINT)
    return g_strdup_printf (_("%u MiB"), (guint) (bytes / mib));
  if (bytes >= kib && bytes % kib == 0 && bytes / kib <= G_MAXUINT)
    return g_strdup_printf (_("%u KiB"), (guint) (bytes / kib));
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

/* Turns a failed transfer into an error a person can act on. */
static void
set_transfer_error (GError **error,
                    CURLcode code,
                    CURL *curl,
                    const char *request_url,
                    const char *message,
                    const Transfer *transfer,
                    const LwnFetchLimits *limits)
{
  const char *url = NULL;
  const char *detail = *message != '\0' ? message : curl_easy_strerror (code);

  curl_easy_getinfo (curl, CURLINFO_EFFECTIVE_URL, &url);
  if (url == NULL)
    url = request_url;

  g_debug ("Transfer failed, libcurl error %d: %s", (int) code, detail);

  switch (code)
    {
      case CURLE_COULDNT_RESOLVE_HOST:
        {
          g_autofree char *host = describe_host (url);

          g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_RESOLVE,
                       _("Cannot resolve host %s"), host);
        }
        break;

      case CURLE_COULDNT_RESOLVE_PROXY:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_RESOLVE,
                     _("Cannot resolve the proxy: %s"), detail);
        break;

      case CURLE_COULDNT_CONNECT:
        {
          g_autofree char *endpoint = describe_endpoint (url);
          long os_errno = 0;

          curl_easy_getinfo (curl, CURLINFO_OS_ERRNO, &os_errno);
          /* Translators: "Cannot connect to lwn.net:443 (Connection refused)". */
          g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_CONNECT,
                       _("Cannot connect to %s (%s)"), endpoint,
                          os_errno != 0 ? g_strerror ((int) os_errno) : detail);
        }
        break;

      case CURLE_OPERATION_TIMEDOUT:
        set_timeout_error (error, curl, url, limits);
        break;

      case CURLE_SSL_CONNECT_ERROR:
      case CURLE_SSL_CERTPROBLEM:
      case CURLE_SSL_CIPHER:
      case CURLE_PEER_FAILED_VERIFICATION:
      case CURLE_SSL_CACERT_BADFILE:
      case CURLE_SSL_CRL_BADFILE:
      case CURLE_SSL_ISSUER_ERROR:
      case CURLE_SSL_PINNEDPUBKEYNOTMATCH:
      case CURLE_SSL_INVALIDCERTSTATUS:
      case CURLE_SSL_ENGINE_NOTFOUND:
      case CURLE_SSL_ENGINE_SETFAILED:
      case CURLE_SSL_ENGINE_INITFAILED:
      case CURLE_SSL_SHUTDOWN_FAILED:
      case CURLE_SSL_CLIENTCERT:
      case CURLE_USE_SSL_FAILED:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TLS,
                     _("TLS failure: %s"), detail);
        break;

      case CURLE_TOO_MANY_REDIRECTS:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TOO_MANY_REDIRECTS,
                     ngettext ("Too many redirects (more than %u)",
                               "Too many redirects (more than %u)", limits->max_redirects),
                     limits->max_redirects);
        break;

      case CURLE_UNSUPPORTED_PROTOCOL:
        /* The request's own scheme was checked before the transfer, so only a
         * redirect can lead here. */
        g_set_error_literal (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_UNSUPPORTED_URL,
                             _("Redirect to an unsupported URL refused"));
        break;

      case CURLE_URL_MALFORMAT:
        g_set_error_literal (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_UNSUPPORTED_URL,
                             _("The address is not a valid URL"));
        break;

      case CURLE_FILESIZE_EXCEEDED:
      case CURLE_WRITE_ERROR:
        if (code == CURLE_FILESIZE_EXCEEDED || transfer->body_too_large)
          {
            g_autofree char *size = format_size_limit (limits->max_body_bytes);

            g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TOO_LARGE,
                         _("Response too large (over %s)"), size);
          }
        else
          {
            g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                         _("Cannot store the response: %s"), detail);
          }
        break;

      case CURLE_FILE_COULDNT_READ_FILE:
        {
          g_autofree char *path = g_filename_from_uri (request_url, NULL, NULL);
          g_autofree char *display = path != NULL ? g_filename_display_name (path) : g_strdup (request_url);

          g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                       _("Cannot read file %s"), display);
        }
        break;

      case CURLE_BAD_CONTENT_ENCODING:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                     _("The server sent a response that cannot be decompressed: %s"), detail);
        break;

      case CURLE_GOT_NOTHING:
      case CURLE_PARTIAL_FILE:
      case CURLE_RECV_ERROR:
      case CURLE_SEND_ERROR:
      case CURLE_HTTP2:
      case CURLE_HTTP2_STREAM:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                     _("The connection broke before the whole response arrived: %s"), detail);
        break;

      default:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                     _("Download failed: %s"), detail);
        break;
    }
}

static gboolean
header_value_is_safe (const char *value)
{
  return value != NULL && *value != '\0' && strpbrk (value, "\r\n") == NULL;
}

#define SETOPT(curl, option, value)                               \
  G_STMT_START                                                    \
  {                                                               \
    if (curl_easy_setopt ((curl), (option), (value)) != CURLE_OK) \
      goto setopt_failed;                                         \
  }                                                               \
  G_STMT_END

/**
 * lwn_fetch_sync:
 * @request: what to fetch; only read during the call
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError, or %NULL
 *
 * Downloads @request->url with one libcurl transfer: http and https, or a
 * file: URL when the request itself names one (redirects never lead to
 * anything but http and https). Sends @request's validators for a
 * conditional GET and enforces its limits, counting the body after
 * decompression. Blocks, so it belongs in a worker thread; several calls may
 * run at once.
 *
 * Any completed HTTP exchange is a response, whatever its status: use
 * lwn_fetch_response_check() to tell success from failure.
 *
 * Returns: (transfer full) (nullable): the response, or %NULL with @error set
 *   in the %LWN_FETCH_ERROR domain for a transport failure, or to
 *   %G_IO_ERROR_CANCELLED when @cancellable was cancelled
 */
LwnFetchResponse *
lwn_fetch_sync (const LwnFetchRequest *request,
                GCancellable *cancellable,
                GError **error)
{
  LwnFetchLimits default_limits;
  const LwnFetchLimits *limits;
  const char *scheme;
  gboolean is_file;
  g_autoptr (CURL) curl = NULL;
  g_autoptr (CurlSlist) headers = NULL;
  char message[CURL_ERROR_SIZE] = "";
  Transfer transfer = { 0 };
  CURLcode code;
  LwnFetchResponse *response;
  long status = 0;
  const char *info = NULL;

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (request->url != NULL, NULL);
  g_return_val_if_fail (cancellable == NULL || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  limits = request->limits;
  if (limits == NULL)
    {
      lwn_fetch_limits_init_default (&default_limits);
      limits = &default_limits;
    }

  scheme = g_uri_peek_scheme (request->url);
  if (scheme == NULL)
    {
      g_set_error_literal (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_UNSUPPORTED_URL,
                           _("The address is not a valid URL"));
      return NULL;
    }
  is_file = strcmp (scheme, "file") == 0;
  if (!is_file && strcmp (scheme, "http") != 0 && strcmp (scheme, "https") != 0)
    {
      g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_UNSUPPORTED_URL,
                   _("Unsupported URL scheme “%s”"), scheme);
      return NULL;
    }

  curl = curl_easy_init ();
  if (curl == NULL)
    {
      g_set_error_literal (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                           _("Cannot start a download"));
      return NULL;
    }

  if (header_value_is_safe (request->etag))
    {
      g_autofree char *line = g_strconcat ("If-None-Match: ", request->etag, NULL);
      struct curl_slist *list = curl_slist_append (headers, line);

      if (list == NULL)
        goto setopt_failed;
      headers = list;
    }
  if (header_value_is_safe (request->last_modified))
    {
      g_autofree char *line = g_strconcat ("If-Modified-Since: ", request->last_modified, NULL);
      struct curl_slist *list = curl_slist_append (headers, line);

      if (list == NULL)
        goto setopt_failed;
      headers = list;
    }

  transfer.cancellable = cancellable;
  transfer.max_body_bytes = limits->max_body_bytes;
  transfer.body = g_byte_array_new ();
  transfer.all_redirects_permanent = TRUE;
  transfer.max_age = -1;
  transfer.retry_after = -1;

  SETOPT (curl, CURLOPT_URL, request->url);
  SETOPT (curl, CURLOPT_PROTOCOLS_STR, is_file ? "http,https,file" : "http,https");
  SETOPT (curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  SETOPT (curl, CURLOPT_FOLLOWLOCATION, 1L);
  SETOPT (curl, CURLOPT_MAXREDIRS, (long) limits->max_redirects);
  SETOPT (curl, CURLOPT_CONNECTTIMEOUT, (long) limits->connect_timeout_seconds);
  SETOPT (curl, CURLOPT_TIMEOUT, (long) limits->total_timeout_seconds);
  SETOPT (curl, CURLOPT_LOW_SPEED_LIMIT, (long) limits->low_speed_bytes);
  SETOPT (curl, CURLOPT_LOW_SPEED_TIME, (long) limits->low_speed_seconds);
  SETOPT (curl, CURLOPT_MAXFILESIZE_LARGE, (curl_off_t) MIN (limits->max_body_bytes, (guint64) G_MAXINT64));
  SETOPT (curl, CURLOPT_ACCEPT_ENCODING, "");
  SETOPT (curl, CURLOPT_NOSIGNAL, 1L);
  SETOPT (curl, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L);
  SETOPT (curl, CURLOPT_USERAGENT, USER_AGENT);
  SETOPT (curl, CURLOPT_ERRORBUFFER, message);
  SETOPT (curl, CURLOPT_HTTPHEADER, headers);
  SETOPT (curl, CURLOPT_HEADERFUNCTION, transfer_header_cb);
  SETOPT (curl, CURLOPT_HEADERDATA, &transfer);
  SETOPT (curl, CURLOPT_WRITEFUNCTION, transfer_write_cb);
  SETOPT (curl, CURLOPT_WRITEDATA, &transfer);
  SETOPT (curl, CURLOPT_XFERINFOFUNCTION, transfer_xferinfo_cb);
  SETOPT (curl, CURLOPT_XFERINFODATA, &transfer);
  SETOPT (curl, CURLOPT_NOPROGRESS, 0L);

  code = perform_transfer (curl, cancellable);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    {
      transfer_clear (&transfer);
      return NULL;
    }

  if (code != CURLE_OK)
    {
      set_transfer_error (error, code, curl, request->url, message, &transfer, limits);
      transfer_clear (&transfer);
      return NULL;
    }

  response = g_atomic_rc_box_new0 (LwnFetchResponse);

  curl_easy_getinfo (curl, CURLINFO_RESPONSE_CODE, &status);
  response->status = is_file && status == 0 ? 200 : (guint) status;
  response->not_modified = response->status == 304;
  if (!response->not_modified)
    response->body = g_byte_array_free_to_bytes (g_steal_pointer (&transfer.body));

  if (curl_easy_getinfo (curl, CURLINFO_CONTENT_TYPE, &info) == CURLE_OK && info != NULL)
    response->content_type = g_strdup (info);
  info = NULL;
  if (curl_easy_getinfo (curl, CURLINFO_EFFECTIVE_URL, &info) == CURLE_OK && info != NULL)
    response->effective_url = g_strdup (info);
  else
    response->effective_url = g_strdup (request->url);

  response->etag = g_steal_pointer (&transfer.etag);
  response->last_modified = g_steal_pointer (&transfer.last_modified);
  response->max_age = transfer.no_cache ? 0 : transfer.max_age;
  response->retry_after = transfer.retry_after;

  if (transfer.n_hops > 1 && transfer.all_redirects_permanent && lwn_fetch_response_check (response, NULL))
    response->moved_to_url = g_strdup (response->effective_url);

  transfer_clear (&transfer);
  return response;

setopt_failed:
  transfer_clear (&transfer);
  g_set_error_literal (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                       _("Cannot set up the download"));
  return NULL;
}

#undef SETOPT
