/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file downloads a feed with libcurl through the desktop's proxy, in a worker thread: the GET is conditional, the limits are hard, and a cancellation stops the transfer. */

#include "config.h"

#include <string.h>

#include <curl/curl.h>
#include <glib/gi18n.h>

#include "lwn-fetch-private.h"

typedef struct curl_slist CurlSlist;

G_DEFINE_AUTOPTR_CLEANUP_FUNC (CURLM, curl_multi_cleanup)

#define USER_AGENT PACKAGE_NAME "/" PACKAGE_VERSION " (+" PACKAGE_URL ")"

/* A Transfer holds the easy handle of one transfer and everything that the
 * handle's callbacks touch. It lives on the worker's stack. */
typedef struct
{
  CURL *curl;
  CurlSlist *headers;
  char *proxy; /* in libcurl's spelling; NULL lets libcurl choose, "" means none */
  char message[CURL_ERROR_SIZE];
  gboolean is_file;

  GCancellable *cancellable;
  guint64 max_body_bytes;
  GByteArray *body;
  gboolean body_too_large;

  /* These fields follow the redirect chain through the status line of every hop. */
  guint n_hops;
  guint hop_status;
  gboolean all_redirects_permanent;
} Transfer;

static void
transfer_clear (Transfer *transfer)
{
  g_clear_pointer (&transfer->curl, curl_easy_cleanup);
  g_clear_pointer (&transfer->headers, curl_slist_free_all);
  g_clear_pointer (&transfer->proxy, g_free);
  g_clear_pointer (&transfer->body, g_byte_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Transfer, transfer_clear)

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

  limits->max_body_bytes = LWN_FETCH_MAX_BODY_BYTES;
  limits->connect_timeout_seconds = 15;
  limits->total_timeout_seconds = 60;
  limits->low_speed_bytes = 100;
  limits->low_speed_seconds = 30;
  limits->max_redirects = 5;
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

/* Follows the redirect chain through the status line of every hop: libcurl
 * keeps every hop's headers for curl_easy_header() but not their statuses. */
static size_t
transfer_header_cb (char *buffer,
                    size_t size,
                    size_t n_items,
                    void *user_data)
{
  Transfer *transfer = user_data;
  gsize length = size * n_items;
  g_autofree char *line = NULL;
  guint status;

  if (length < 5 || memcmp (buffer, "HTTP/", 5) != 0)
    return length;

  line = g_strchomp (g_strndup (buffer, length));
  /* 1xx responses are interim: the real one follows on the same hop. */
  if (!parse_status_line (line, &status) || status < 200)
    return length;

  if (transfer->n_hops > 0 && transfer->hop_status != 301 && transfer->hop_status != 308)
    transfer->all_redirects_permanent = FALSE;
  transfer->n_hops++;
  transfer->hop_status = status;
  g_byte_array_set_size (transfer->body, 0);

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

  /* When the server announces the body's length, the buffer makes room for
   * the whole body at once, because growing by doubling would hold up to
   * three times a large body during the copies. */
  if (transfer->body->len == 0)
    {
      curl_off_t announced = -1;

      if (curl_easy_getinfo (transfer->curl, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &announced) == CURLE_OK
          && announced > 0 && (guint64) announced <= transfer->max_body_bytes)
        {
          g_byte_array_set_size (transfer->body, (guint) announced);
          g_byte_array_set_size (transfer->body, 0);
        }
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

/* GIO's built-in fallback, used when no proxy module (glib-networking) is
 * installed, answers "direct://" without looking at any setting. With that
 * fallback, libcurl's own reading of the *_proxy variables stays in charge. */
static gboolean
proxy_resolver_is_fallback (GProxyResolver *resolver)
{
  GIOExtensionPoint *point = g_io_extension_point_lookup (G_PROXY_RESOLVER_EXTENSION_POINT_NAME);
  GIOExtension *fallback = point != NULL ? g_io_extension_point_get_extension_by_name (point, "dummy") : NULL;

  return fallback != NULL && G_TYPE_CHECK_INSTANCE_TYPE (resolver, g_io_extension_get_type (fallback));
}

/* Spells a proxy URI from GIO the way libcurl expects it. It returns "" for
 * no proxy, and NULL when libcurl cannot use the proxy. */
static char *
proxy_for_curl (const char *uri)
{
  static const char *const same_in_curl[] = { "http", "https", "socks4", "socks4a", NULL };
  const char *scheme = g_uri_peek_scheme (uri);

  if (scheme == NULL)
    return NULL;
  if (strcmp (scheme, "direct") == 0)
    return g_strdup ("");
  /* GIO's SOCKS5 hands the host name to the proxy; libcurl calls that socks5h. */
  if (strcmp (scheme, "socks5") == 0)
    return g_strconcat ("socks5h", uri + strlen (scheme), NULL);
  if (g_strv_contains (same_in_curl, scheme))
    return g_strdup (uri);

  return NULL;
}

/* Asks GIO, which follows the desktop's settings through glib-networking,
 * which proxy to use for @request, and takes the first answer that libcurl
 * can use. There is one lookup per request, so a redirect to another host
 * goes the same way as the request. When GIO has nothing to say,
 * transfer->proxy stays NULL. */
static gboolean
transfer_find_proxy (Transfer *transfer,
                     const LwnFetchRequest *request,
                     GCancellable *cancellable,
                     GError **error)
{
  GProxyResolver *resolver = request->proxy_resolver;
  g_autoptr (GError) local_error = NULL;
  g_auto (GStrv) answers = NULL;

  if (resolver == NULL)
    {
      resolver = g_proxy_resolver_get_default ();
      if (proxy_resolver_is_fallback (resolver))
        return TRUE;
    }

  answers = g_proxy_resolver_lookup (resolver, request->url, cancellable, &local_error);
  if (answers == NULL)
    {
      const char *reason = local_error != NULL ? local_error->message : "";

      if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_propagate_error (error, g_steal_pointer (&local_error));
      else
        g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                     _ ("Cannot find out which proxy to use: %s"), reason);
      return FALSE;
    }

  for (gsize i = 0; answers[i] != NULL && transfer->proxy == NULL; i++)
    transfer->proxy = proxy_for_curl (answers[i]);

  if (transfer->proxy == NULL)
    {
      /* The message names only the scheme, because a proxy URI may carry a password. */
      g_autofree char *scheme = answers[0] != NULL ? g_uri_parse_scheme (answers[0]) : NULL;
      const char *kind = scheme != NULL ? scheme : "?";

      g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                   _ ("The proxy settings name no proxy of a supported kind (%s)"), kind);
      return FALSE;
    }

  if (*transfer->proxy == '\0')
    g_debug ("The proxy settings say to connect directly");
  else
    g_debug ("The proxy settings name a %s proxy", g_uri_peek_scheme (transfer->proxy));
  return TRUE;
}

static gboolean
header_value_is_safe (const char *value)
{
  return value != NULL && *value != '\0' && strpbrk (value, "\r\n") == NULL;
}

/* Adds "@name: @value" to the request headers unless @value could break the request. */
static gboolean
transfer_add_header (Transfer *transfer,
                     const char *name,
                     const char *value)
{
  g_autofree char *line = NULL;
  CurlSlist *list;

  if (!header_value_is_safe (value))
    return TRUE;

  line = g_strconcat (name, ": ", value, NULL);
  list = curl_slist_append (transfer->headers, line);
  if (list == NULL)
    return FALSE;

  transfer->headers = list;
  return TRUE;
}

static gboolean
transfer_set_options (Transfer *transfer,
                      const char *url,
                      const LwnFetchLimits *limits)
{
  CURL *curl = transfer->curl;
  curl_off_t max_file_size = (curl_off_t) MIN (limits->max_body_bytes, (guint64) G_MAXINT64);

  return curl_easy_setopt (curl, CURLOPT_URL, url) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_PROTOCOLS_STR, transfer->is_file ? "http,https,file" : "http,https") == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https") == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_FOLLOWLOCATION, 1L) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_MAXREDIRS, (long) limits->max_redirects) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_CONNECTTIMEOUT, (long) limits->connect_timeout_seconds) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_TIMEOUT, (long) limits->total_timeout_seconds) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_LOW_SPEED_LIMIT, (long) limits->low_speed_bytes) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_LOW_SPEED_TIME, (long) limits->low_speed_seconds) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_MAXFILESIZE_LARGE, max_file_size) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_ACCEPT_ENCODING, "") == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_NOSIGNAL, 1L) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1L) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_USERAGENT, USER_AGENT) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_ERRORBUFFER, transfer->message) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_HTTPHEADER, transfer->headers) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_HEADERFUNCTION, transfer_header_cb) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_HEADERDATA, transfer) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_WRITEFUNCTION, transfer_write_cb) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_WRITEDATA, transfer) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_XFERINFOFUNCTION, transfer_xferinfo_cb) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_XFERINFODATA, transfer) == CURLE_OK
         && curl_easy_setopt (curl, CURLOPT_NOPROGRESS, 0L) == CURLE_OK;
}

/* Hands GIO's answer to libcurl. An empty CURLOPT_PROXY means no proxy even
 * when a *_proxy variable names one, and an empty CURLOPT_NOPROXY stops
 * no_proxy from overruling a proxy the desktop chose. */
static gboolean
transfer_set_proxy (Transfer *transfer)
{
  if (transfer->proxy == NULL)
    return TRUE;

  return curl_easy_setopt (transfer->curl, CURLOPT_PROXY, transfer->proxy) == CURLE_OK
         && curl_easy_setopt (transfer->curl, CURLOPT_NOPROXY, "") == CURLE_OK;
}

/* Refuses anything but http, https and file before any work is done. */
static gboolean
check_scheme (const char *url,
              gboolean *is_file,
              GError **error)
{
  const char *scheme = g_uri_peek_scheme (url);

  if (scheme == NULL)
    {
      g_set_error_literal (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_UNSUPPORTED_URL,
                           _ ("The address is not a valid URL"));
      return FALSE;
    }

  *is_file = strcmp (scheme, "file") == 0;
  if (!*is_file && strcmp (scheme, "http") != 0 && strcmp (scheme, "https") != 0)
    {
      g_set_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_UNSUPPORTED_URL,
                   _ ("Unsupported URL scheme “%s”"), scheme);
      return FALSE;
    }

  return TRUE;
}

/* Prepares everything lwn_fetch_sync() needs for one transfer of @request. */
static gboolean
transfer_init (Transfer *transfer,
               const LwnFetchRequest *request,
               const LwnFetchLimits *limits,
               GCancellable *cancellable,
               GError **error)
{
  if (!check_scheme (request->url, &transfer->is_file, error))
    return FALSE;
  if (!transfer->is_file && !transfer_find_proxy (transfer, request, cancellable, error))
    return FALSE;

  transfer->cancellable = cancellable;
  transfer->max_body_bytes = limits->max_body_bytes;
  transfer->body = g_byte_array_new ();
  transfer->all_redirects_permanent = TRUE;
  transfer->curl = curl_easy_init ();
  if (transfer->curl == NULL)
    {
      g_set_error_literal (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                           _ ("Cannot start a download"));
      return FALSE;
    }

  if (!transfer_add_header (transfer, "If-None-Match", request->etag)
      || !transfer_add_header (transfer, "If-Modified-Since", request->last_modified)
      || !transfer_set_options (transfer, request->url, limits)
      || !transfer_set_proxy (transfer))
    {
      g_set_error_literal (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED,
                           _ ("Cannot set up the download"));
      return FALSE;
    }

  return TRUE;
}

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
 * The proxy is the first one that @request->proxy_resolver (or GIO's
 * default resolver, which follows the desktop's settings) names for
 * @request->url and that libcurl can use; "direct://" means no proxy, even
 * if an http_proxy variable names one. When GIO has no proxy support
 * installed, libcurl reads the *_proxy variables itself, as it always did.
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
  g_auto (Transfer) transfer = { 0 };
  LwnFetchLimits default_limits;
  const LwnFetchLimits *limits;
  CURLcode code;

  g_return_val_if_fail (request != NULL, NULL);
  g_return_val_if_fail (request->url != NULL, NULL);
  g_return_val_if_fail (request->proxy_resolver == NULL || G_IS_PROXY_RESOLVER (request->proxy_resolver), NULL);
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

  if (!transfer_init (&transfer, request, limits, cancellable, error))
    return NULL;

  code = perform_transfer (transfer.curl, cancellable);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if (code != CURLE_OK)
    {
      const LwnFetchFailure failure = {
        .request_url = request->url,
        .proxy = transfer.proxy,
        .message = transfer.message,
        .body_too_large = transfer.body_too_large,
        .limits = limits,
      };

      lwn_fetch_error_set_from_curl (error, transfer.curl, code, &failure);
      return NULL;
    }

  return lwn_fetch_response_new_from_curl (transfer.curl, request->url, g_steal_pointer (&transfer.body), transfer.is_file,
                                           transfer.n_hops > 1 && transfer.all_redirects_permanent);
}
