/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file words the errors of the LWN_FETCH_ERROR domain: it turns libcurl failures and HTTP statuses into sentences a person can act on. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>

#include "lwn-fetch-private.h"

/* clang-format off */
G_DEFINE_QUARK (lwn-fetch-error-quark, lwn_fetch_error)
/* clang-format on */

/* This table is laid out by hand, because N_ is whitespace-sensitive to
 * clang-format, which would otherwise indent every row a step further than
 * the last. */
/* clang-format off */
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
/* clang-format on */

/* Sets @error for a completed exchange when @status is not a usable answer. */
void
lwn_fetch_error_set_from_status (GError **error,
                                 guint status)
{
  for (gsize i = 0; i < G_N_ELEMENTS (status_reasons); i++)
    {
      if (status_reasons[i].status == status)
        {
          /* Translators: the first %u is an HTTP status code, then its standard name. */
          g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_HTTP_STATUS,
                       _ ("HTTP status %u (%s)"), status, _ (status_reasons[i].reason));
          return;
        }
    }

  g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_HTTP_STATUS,
               _ ("HTTP status %u"), status);
}

/* Returns "host:port" of @url for messages. When @url names no port, the
 * port is the one that libcurl uses. */
static char *
describe_endpoint (const char *url,
                   gboolean is_proxy)
{
  g_autofree char *scheme = NULL;
  g_autofree char *host = NULL;
  gboolean secure;
  gint port = -1;

  if (url == NULL)
    return g_strdup ("");
  if (!g_uri_split_network (url, G_URI_FLAGS_NONE, &scheme, &host, &port, NULL) || host == NULL)
    return g_strdup (url);

  secure = g_ascii_strcasecmp (scheme, "https") == 0;
  if (port == -1 && is_proxy)
    port = secure ? 443 : 1080;
  else if (port == -1)
    port = secure ? 443 : 80;

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

  /* libcurl gives the same code for all three timeouts, so this code tells
   * them apart by what had happened and how long it took. */
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
                           _ ("The server is too slow"));
    }
  else
    {
      g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TIMED_OUT,
                   ngettext ("Timed out after %u second",
                             "Timed out after %u seconds", seconds),
                   seconds);
    }
}

static void
set_connect_error (GError **error,
                   CURL *curl,
                   const char *url,
                   const char *proxy,
                   const char *detail)
{
  gboolean via_proxy = proxy != NULL && *proxy != '\0';
  g_autofree char *endpoint = describe_endpoint (via_proxy ? proxy : url, via_proxy);
  long os_errno = 0;
  const char *reason;

  curl_easy_getinfo (curl, CURLINFO_OS_ERRNO, &os_errno);
  reason = os_errno != 0 ? g_strerror ((int) os_errno) : detail;

  /* With a proxy, libcurl only ever connects to the proxy. */
  if (via_proxy)
    {
      /* Translators: "Cannot connect to the proxy proxy.example:3128 (Connection refused)". */
      g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_CONNECT,
                   _ ("Cannot connect to the proxy %s (%s)"), endpoint, reason);
    }
  else
    {
      /* Translators: "Cannot connect to lwn.net:443 (Connection refused)". */
      g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_CONNECT,
                   _ ("Cannot connect to %s (%s)"), endpoint, reason);
    }
}

/* Limits are round sizes, so they read "8 MiB" rather than "8.0 MiB". */
static char *
format_size_limit (guint64 bytes)
{
  const guint64 kib = 1024;
  const guint64 mib = 1024 * kib;

  if (bytes >= mib && bytes % mib == 0 && bytes / mib <= G_MAXUINT)
    return g_strdup_printf (_ ("%u MiB"), (guint) (bytes / mib));
  if (bytes >= kib && bytes % kib == 0 && bytes / kib <= G_MAXUINT)
    return g_strdup_printf (_ ("%u KiB"), (guint) (bytes / kib));
  return g_format_size_full (bytes, G_FORMAT_SIZE_IEC_UNITS);
}

/* Sets @error for the codes about reaching the server, and returns FALSE for
 * any other code. */
static gboolean
set_network_error (GError **error,
                   CURLcode code,
                   CURL *curl,
                   const char *url,
                   const LwnFetchFailure *failure,
                   const char *detail)
{
  switch (code)
    {
      case CURLE_COULDNT_RESOLVE_HOST:
        {
          g_autofree char *host = describe_host (url);

          g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_RESOLVE,
                       _ ("Cannot resolve host %s"), host);
        }
        return TRUE;

      case CURLE_COULDNT_RESOLVE_PROXY:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_RESOLVE,
                     _ ("Cannot resolve the proxy: %s"), detail);
        return TRUE;

      case CURLE_PROXY:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_CONNECT,
                     _ ("The proxy refused the connection: %s"), detail);
        return TRUE;

      case CURLE_COULDNT_CONNECT:
        set_connect_error (error, curl, url, failure->proxy, detail);
        return TRUE;

      case CURLE_OPERATION_TIMEDOUT:
        set_timeout_error (error, curl, url, failure->limits);
        return TRUE;

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
                     _ ("TLS failure: %s"), detail);
        return TRUE;

      default:
        return FALSE;
    }
}

/* Sets @error for the codes about what came back, and for any other. */
static void
set_response_error (GError **error,
                    CURLcode code,
                    const LwnFetchFailure *failure,
                    const char *detail)
{
  const LwnFetchLimits *limits = failure->limits;
  const char *request_url = failure->request_url;

  switch (code)
    {
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
                             _ ("Redirect to an unsupported URL refused"));
        break;

      case CURLE_URL_MALFORMAT:
        g_set_error_literal (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_UNSUPPORTED_URL,
                             _ ("The address is not a valid URL"));
        break;

      case CURLE_FILESIZE_EXCEEDED:
      case CURLE_WRITE_ERROR:
        if (code == CURLE_FILESIZE_EXCEEDED || failure->body_too_large)
          {
            g_autofree char *size = format_size_limit (limits->max_body_bytes);

            g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TOO_LARGE,
                         _ ("Response too large (over %s)"), size);
          }
        else
          {
            g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                         _ ("Cannot store the response: %s"), detail);
          }
        break;

      case CURLE_FILE_COULDNT_READ_FILE:
        {
          g_autofree char *path = g_filename_from_uri (request_url, NULL, NULL);
          g_autofree char *display = path != NULL ? g_filename_display_name (path) : g_strdup (request_url);

          g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                       _ ("Cannot read file %s"), display);
        }
        break;

      case CURLE_BAD_CONTENT_ENCODING:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                     _ ("The server sent a response that cannot be decompressed: %s"), detail);
        break;

      case CURLE_GOT_NOTHING:
      case CURLE_PARTIAL_FILE:
      case CURLE_RECV_ERROR:
      case CURLE_SEND_ERROR:
      case CURLE_HTTP2:
      case CURLE_HTTP2_STREAM:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                     _ ("The connection broke before the whole response arrived: %s"), detail);
        break;

      default:
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                     _ ("Download failed: %s"), detail);
        break;
    }
}

/**
 * lwn_fetch_error_set_from_curl:
 * @error: return location for a #GError, or %NULL
 * @curl: the easy handle of the failed transfer
 * @code: libcurl's result for it
 * @failure: what else is known about it
 *
 * Turns a failed transfer into an error a person can act on.
 */
void
lwn_fetch_error_set_from_curl (GError **error,
                               CURL *curl,
                               CURLcode code,
                               const LwnFetchFailure *failure)
{
  const char *url = NULL;
  const char *detail = *failure->message != '\0' ? failure->message : curl_easy_strerror (code);

  curl_easy_getinfo (curl, CURLINFO_EFFECTIVE_URL, &url);
  if (url == NULL)
    url = failure->request_url;

  g_debug ("Transfer failed, libcurl error %d: %s", (int) code, detail);

  if (!set_network_error (error, code, curl, url, failure, detail))
    set_response_error (error, code, failure, detail);
}
