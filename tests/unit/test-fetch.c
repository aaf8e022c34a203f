/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests lwn_fetch_sync() against a scripted local HTTP server: validators, redirects, limits, errors, cancellation, proxies. */

#include "config.h"

#include <signal.h>
#include <string.h>

#include <curl/curl.h>

#include "lwn-fetch.h"
#include "lwn-test-server.h"

#define SMALL_CAP (64 * 1024)

/* Limits small enough that a test which goes wrong fails in seconds. */
static LwnFetchLimits
test_limits (void)
{
  LwnFetchLimits limits;

  lwn_fetch_limits_init_default (&limits);
  limits.max_body_bytes = SMALL_CAP;
  limits.connect_timeout_seconds = 5;
  limits.total_timeout_seconds = 10;
  limits.low_speed_seconds = 5;
  return limits;
}

static LwnFetchResponse *
fetch_full (const char *url,
            const char *etag,
            const char *last_modified,
            const LwnFetchLimits *limits,
            GError **error)
{
  LwnFetchLimits defaults = test_limits ();
  LwnFetchRequest request = {
    .url = url,
    .etag = etag,
    .last_modified = last_modified,
    .limits = limits != NULL ? limits : &defaults,
  };

  return lwn_fetch_sync (&request, NULL, error);
}

static LwnFetchResponse *
fetch (const char *url,
       GError **error)
{
  return fetch_full (url, NULL, NULL, NULL, error);
}

static void
assert_body (LwnFetchResponse *response,
             const void *expected,
             gsize expected_length)
{
  GBytes *body = lwn_fetch_response_get_body (response);
  gsize length = 0;
  const void *data;

  g_assert_true (body != NULL);
  data = g_bytes_get_data (body, &length);
  g_assert_cmpmem (data, length, expected, expected_length);
}

/* An IMF-fixdate (RFC 9110 §5.6.7), spelled in English whatever the locale. */
static char *
http_date (gint64 unix_time)
{
  static const char *const days[] = { "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun" };
  static const char *const months[] = { "Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                        "Jul", "Aug", "Sep", "Oct", "Nov", "Dec" };
  g_autoptr (GDateTime) time = g_date_time_new_from_unix_utc (unix_time);

  return g_strdup_printf ("%s, %02d %s %d %02d:%02d:%02d GMT",
                          days[g_date_time_get_day_of_week (time) - 1],
                          g_date_time_get_day_of_month (time),
                          months[g_date_time_get_month (time) - 1],
                          g_date_time_get_year (time),
                          g_date_time_get_hour (time),
                          g_date_time_get_minute (time),
                          g_date_time_get_second (time));
}

static gint64
now_seconds (void)
{
  return g_get_real_time () / G_USEC_PER_SEC;
}

static void
test_limits_defaults (void)
{
  LwnFetchLimits limits;

  g_test_summary ("The default limits are the documented ones.");

  lwn_fetch_limits_init_default (&limits);
  g_assert_cmpuint (limits.max_body_bytes, ==, 8 * 1024 * 1024);
  g_assert_cmpuint (limits.connect_timeout_seconds, ==, 15);
  g_assert_cmpuint (limits.total_timeout_seconds, ==, 60);
  g_assert_cmpuint (limits.low_speed_bytes, ==, 100);
  g_assert_cmpuint (limits.low_speed_seconds, ==, 30);
  g_assert_cmpuint (limits.max_redirects, ==, 5);
}

static void
test_get_ok (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute route = {
    .content_type = "application/rss+xml; charset=utf-8",
    .body = "<rss/>",
    .etag = "\"abc\"",
    .last_modified = "Wed, 05 Jul 2023 10:00:00 GMT",
  };

  g_test_summary ("A 200 response carries its body, content type and validators.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch (url, &error);

  g_assert_no_error (error);
  g_assert_true (response != NULL);
  g_assert_cmpuint (lwn_fetch_response_get_status (response), ==, 200);
  g_assert_true (!lwn_fetch_response_is_not_modified (response));
  assert_body (response, "<rss/>", 6);
  g_assert_cmpstr (lwn_fetch_response_get_content_type (response), ==, "application/rss+xml; charset=utf-8");
  g_assert_cmpstr (lwn_fetch_response_get_etag (response), ==, "\"abc\"");
  g_assert_cmpstr (lwn_fetch_response_get_last_modified (response), ==, "Wed, 05 Jul 2023 10:00:00 GMT");
  g_assert_cmpstr (lwn_fetch_response_get_effective_url (response), ==, url);
  g_assert_cmpstr (lwn_fetch_response_get_moved_to_url (response), ==, NULL);
  g_assert_cmpint (lwn_fetch_response_get_max_age (response), ==, -1);
  g_assert_cmpint (lwn_fetch_response_get_retry_after (response), ==, -1);
  g_assert_true (lwn_fetch_response_check (response, &error));
  g_assert_no_error (error);
}

static void
test_get_request_headers (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  g_autofree char *user_agent = NULL;
  g_autofree char *accept_encoding = NULL;
  g_autofree char *if_none_match = NULL;
  g_autofree char *if_modified_since = NULL;
  const LwnTestRoute route = { .body = "x" };

  g_test_summary ("The request names the program, accepts compression, and is unconditional without validators.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch (url, &error);
  g_assert_no_error (error);

  user_agent = lwn_test_server_dup_request_header (server, "/feed", "User-Agent");
  accept_encoding = lwn_test_server_dup_request_header (server, "/feed", "Accept-Encoding");
  if_none_match = lwn_test_server_dup_request_header (server, "/feed", "If-None-Match");
  if_modified_since = lwn_test_server_dup_request_header (server, "/feed", "If-Modified-Since");

  g_assert_cmpstr (user_agent, ==, "lwn-tray/" PACKAGE_VERSION " (+" PACKAGE_URL ")");
  g_assert_true (accept_encoding != NULL);
  g_assert_true (strstr (accept_encoding, "gzip") != NULL);
  g_assert_cmpstr (if_none_match, ==, NULL);
  g_assert_cmpstr (if_modified_since, ==, NULL);
}

static void
test_conditional_304 (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) first = NULL;
  g_autoptr (LwnFetchResponse) second = NULL;
  g_autofree char *if_none_match = NULL;
  g_autofree char *if_modified_since = NULL;
  const LwnTestRoute route = {
    .body = "<rss/>",
    .etag = "W/\"v1\"",
    .last_modified = "Wed, 05 Jul 2023 10:00:00 GMT",
  };

  g_test_summary ("Validators from a 200 are sent back, and a 304 has no body but is a success.");

  lwn_test_server_add_route (server, "/feed", &route);
  first = fetch (url, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lwn_fetch_response_get_status (first), ==, 200);

  second = fetch_full (url, lwn_fetch_response_get_etag (first),
                       lwn_fetch_response_get_last_modified (first), NULL, &error);
  g_assert_no_error (error);

  if_none_match = lwn_test_server_dup_request_header (server, "/feed", "If-None-Match");
  if_modified_since = lwn_test_server_dup_request_header (server, "/feed", "If-Modified-Since");
  g_assert_cmpstr (if_none_match, ==, "W/\"v1\"");
  g_assert_cmpstr (if_modified_since, ==, "Wed, 05 Jul 2023 10:00:00 GMT");

  g_assert_cmpuint (lwn_fetch_response_get_status (second), ==, 304);
  g_assert_true (lwn_fetch_response_is_not_modified (second));
  g_assert_true (lwn_fetch_response_get_body (second) == NULL);
  g_assert_cmpstr (lwn_fetch_response_get_etag (second), ==, "W/\"v1\"");
  g_assert_true (lwn_fetch_response_check (second, &error));
  g_assert_no_error (error);
}

static void
test_conditional_last_modified (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  g_autofree char *if_none_match = NULL;
  const LwnTestRoute route = {
    .body = "<rss/>",
    .last_modified = "Wed, 05 Jul 2023 10:00:00 GMT",
  };

  g_test_summary ("Last-Modified alone makes a conditional request too.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch_full (url, NULL, "Wed, 05 Jul 2023 10:00:00 GMT", NULL, &error);

  g_assert_no_error (error);
  if_none_match = lwn_test_server_dup_request_header (server, "/feed", "If-None-Match");
  g_assert_cmpstr (if_none_match, ==, NULL);
  g_assert_true (lwn_fetch_response_is_not_modified (response));
  g_assert_cmpstr (lwn_fetch_response_get_etag (response), ==, NULL);
  g_assert_cmpstr (lwn_fetch_response_get_last_modified (response), ==, "Wed, 05 Jul 2023 10:00:00 GMT");
}

static void
test_conditional_changed (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute route = { .body = "new", .etag = "\"v2\"" };

  g_test_summary ("A stale ETag gets the new body and the new ETag.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch_full (url, "\"v1\"", NULL, NULL, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (lwn_fetch_response_get_status (response), ==, 200);
  g_assert_true (!lwn_fetch_response_is_not_modified (response));
  assert_body (response, "new", 3);
  g_assert_cmpstr (lwn_fetch_response_get_etag (response), ==, "\"v2\"");
}

static void
test_conditional_unsafe_validator (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  g_autofree char *if_none_match = NULL;
  g_autofree char *injected = NULL;
  const LwnTestRoute route = { .body = "x" };

  g_test_summary ("A stored validator with a line break is not sent, so it cannot add headers.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch_full (url, "\"v1\"\r\nX-Injected: yes", NULL, NULL, &error);

  g_assert_no_error (error);
  if_none_match = lwn_test_server_dup_request_header (server, "/feed", "If-None-Match");
  injected = lwn_test_server_dup_request_header (server, "/feed", "X-Injected");
  g_assert_cmpstr (if_none_match, ==, NULL);
  g_assert_cmpstr (injected, ==, NULL);
}

static void
test_encoding_gzip (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const char *text = "<rss><channel><title>LWN.net</title></channel></rss>";
  const LwnTestRoute route = { .body = text, .gzip = TRUE };

  g_test_summary ("A gzip-encoded body comes back decompressed.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch (url, &error);

  g_assert_no_error (error);
  assert_body (response, text, strlen (text));
}

typedef struct
{
  const char *name;
  guint hops[3]; /* redirect statuses, 0-terminated */
  guint final_status;
  gboolean moved;
} RedirectCase;

static const RedirectCase redirect_cases[] = {
  { "302", { 302 }, 200, FALSE },
  { "307", { 307 }, 200, FALSE },
  { "301", { 301 }, 200, TRUE },
  { "308", { 308 }, 200, TRUE },
  { "301-308", { 301, 308 }, 200, TRUE },
  { "301-302", { 301, 302 }, 200, FALSE },
  { "302-301", { 302, 301 }, 200, FALSE },
  { "301-then-404", { 301 }, 404, FALSE },
};

static void
test_redirect (gconstpointer data)
{
  const RedirectCase *test = data;
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *start_url = lwn_test_server_dup_url (server, "/hop0");
  g_autofree char *final_url = lwn_test_server_dup_url (server, "/final");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute final = { .status = test->final_status, .body = "end" };
  guint n_hops = 0;

  g_test_summary ("Redirects are followed; only an all-permanent chain to a success reports the new address.");

  while (n_hops < G_N_ELEMENTS (test->hops) && test->hops[n_hops] != 0)
    n_hops++;

  for (guint i = 0; i < n_hops; i++)
    {
      g_autofree char *path = g_strdup_printf ("/hop%u", i);
      g_autofree char *next = i + 1 < n_hops ? g_strdup_printf ("/hop%u", i + 1) : g_strdup ("/final");
      const LwnTestRoute hop = { .status = test->hops[i], .location = next, .body = "moved" };

      lwn_test_server_add_route (server, path, &hop);
    }
  lwn_test_server_add_route (server, "/final", &final);

  response = fetch (start_url, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (lwn_fetch_response_get_status (response), ==, test->final_status);
  assert_body (response, "end", 3);
  g_assert_cmpstr (lwn_fetch_response_get_effective_url (response), ==, final_url);
  if (test->moved)
    g_assert_cmpstr (lwn_fetch_response_get_moved_to_url (response), ==, final_url);
  else
    g_assert_cmpstr (lwn_fetch_response_get_moved_to_url (response), ==, NULL);
}

static const char *const refused_locations[] = {
  "file:///etc/passwd",
  "ftp://127.0.0.1/feed",
};

static void
test_redirect_refused (gconstpointer data)
{
  const char *location = data;
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute route = { .status = 302, .location = location };

  g_test_summary ("A redirect to anything but http(s) is refused, so a feed cannot read local files.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch (url, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_UNSUPPORTED_URL);
  g_assert_true (response == NULL);
}

static void
test_redirect_loop (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/loop");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  LwnFetchLimits limits = test_limits ();
  const LwnTestRoute route = { .status = 302, .location = "/loop" };

  g_test_summary ("A redirect loop stops after the redirect limit.");

  limits.max_redirects = 3;
  lwn_test_server_add_route (server, "/loop", &route);
  response = fetch_full (url, NULL, NULL, &limits, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TOO_MANY_REDIRECTS);
  g_assert_true (response == NULL);
  g_assert_cmpuint (lwn_test_server_count_requests (server, "/loop"), ==, 4);
}

typedef struct
{
  guint status;
  gboolean usable;
  const char *message;
} StatusCase;

static const StatusCase status_cases[] = {
  { 204, TRUE, NULL },
  { 404, FALSE, "HTTP status 404 (Not Found)" },
  { 418, FALSE, "HTTP status 418" },
  { 429, FALSE, "HTTP status 429 (Too Many Requests)" },
  { 500, FALSE, "HTTP status 500 (Internal Server Error)" },
  { 503, FALSE, "HTTP status 503 (Service Unavailable)" },
};

static void
test_status (gconstpointer data)
{
  const StatusCase *test = data;
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute route = { .status = test->status, .body = "page" };

  g_test_summary ("Any HTTP status is a response; check() accepts 2xx and rejects the rest with the number.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch (url, &error);

  g_assert_no_error (error);
  g_assert_true (response != NULL);
  g_assert_cmpuint (lwn_fetch_response_get_status (response), ==, test->status);

  if (test->usable)
    {
      g_assert_true (lwn_fetch_response_check (response, &error));
      g_assert_no_error (error);
    }
  else
    {
      assert_body (response, "page", 4);
      g_assert_true (!lwn_fetch_response_check (response, &error));
      g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_HTTP_STATUS);
      g_assert_cmpstr (error->message, ==, test->message);
    }
}

typedef struct
{
  const char *name;
  const char *value; /* NULL: an HTTP-date @date_offset seconds from now */
  gint64 date_offset;
  gint64 minimum;
  gint64 maximum;
} RetryAfterCase;

static const RetryAfterCase retry_after_cases[] = {
  { "seconds", "120", 0, 120, 120 },
  { "zero", "0", 0, 0, 0 },
  { "date", NULL, 300, 290, 300 },
  { "past-date", NULL, -3600, 0, 0 },
  { "garbage", "soon", 0, -1, -1 },
  { "negative", "-5", 0, -1, -1 },
};

static void
test_retry_after (gconstpointer data)
{
  const RetryAfterCase *test = data;
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autofree char *date = http_date (now_seconds () + test->date_offset);
  g_autofree char *header = g_strdup_printf ("Retry-After: %s", test->value != NULL ? test->value : date);
  const char *const headers[] = { header, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute route = { .status = 429, .headers = headers };

  g_test_summary ("Retry-After is read in both forms as seconds from now, never negative.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch (url, &error);

  g_assert_no_error (error);
  g_assert_cmpint (lwn_fetch_response_get_retry_after (response), >=, test->minimum);
  g_assert_cmpint (lwn_fetch_response_get_retry_after (response), <=, test->maximum);
}

typedef struct
{
  const char *name;
  const char *value;
  gint64 max_age;
} CacheControlCase;

static const CacheControlCase cache_control_cases[] = {
  { "max-age", "max-age=300", 300 },
  { "among-others", "public, max-age=60, must-revalidate", 60 },
  { "quoted", "max-age=\"90\"", 90 },
  { "no-cache", "no-cache", 0 },
  { "no-store-wins", "no-store, max-age=60", 0 },
  { "shared-only", "s-maxage=100", -1 },
  { "bad-number", "max-age=soon", -1 },
};

static void
test_cache_control (gconstpointer data)
{
  const CacheControlCase *test = data;
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autofree char *header = g_strdup_printf ("Cache-Control: %s", test->value);
  const char *const headers[] = { header, NULL };
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute route = { .body = "x", .headers = headers };

  g_test_summary ("Cache-Control gives max-age in seconds, 0 for no-cache/no-store, -1 otherwise.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch (url, &error);

  g_assert_no_error (error);
  g_assert_cmpint (lwn_fetch_response_get_max_age (response), ==, test->max_age);
}

static void
test_redirect_headers_not_kept (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/old");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const char *const hop_headers[] = { "Cache-Control: max-age=999", "Retry-After: 999", NULL };
  const LwnTestRoute hop = {
    .status = 302,
    .location = "/new",
    .content_type = "text/html",
    .etag = "\"old\"",
    .headers = hop_headers,
  };
  const LwnTestRoute final = { .body = "x" };

  g_test_summary ("Only the final response's headers count, not those of a redirect on the way.");

  lwn_test_server_add_route (server, "/old", &hop);
  lwn_test_server_add_route (server, "/new", &final);
  response = fetch (url, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (lwn_fetch_response_get_content_type (response), ==, NULL);
  g_assert_cmpstr (lwn_fetch_response_get_etag (response), ==, NULL);
  g_assert_cmpint (lwn_fetch_response_get_max_age (response), ==, -1);
  g_assert_cmpint (lwn_fetch_response_get_retry_after (response), ==, -1);
}

static void
test_limits_at_cap (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autofree char *body = g_strnfill (SMALL_CAP, 'a');
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute route = { .body = body, .gzip = TRUE };

  g_test_summary ("A body of exactly the cap is accepted.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch (url, &error);

  g_assert_no_error (error);
  assert_body (response, body, SMALL_CAP);
}

typedef struct
{
  const char *name;
  gsize body_length;
  gboolean gzip;
  gboolean endless;
} TooLargeCase;

static const TooLargeCase too_large_cases[] = {
  /* Refused from its Content-Length. */
  { "declared", SMALL_CAP + 1, FALSE, FALSE },
  /* A small gzip that inflates past the cap: caught while decompressing. */
  { "gzip-bomb", 2 * 1024 * 1024, TRUE, FALSE },
  /* No length at all: caught as it arrives. */
  { "endless", 0, FALSE, TRUE },
};

static void
test_limits_too_large (gconstpointer data)
{
  const TooLargeCase *test = data;
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autofree char *body = g_malloc0 (MAX (test->body_length, 1));
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute route = {
    .body = test->body_length > 0 ? body : NULL,
    .body_length = test->body_length,
    .gzip = test->gzip,
    .endless = test->endless,
  };

  g_test_summary ("A body over the cap, counted after decompression, is an error and not a truncated feed.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch (url, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TOO_LARGE);
  g_assert_cmpstr (error->message, ==, "Response too large (over 64 KiB)");
  g_assert_true (response == NULL);
}

static void
test_timeout_low_speed (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autofree char *body = g_strnfill (4096, 'a');
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  LwnFetchLimits limits = test_limits ();
  const LwnTestRoute route = { .body = body, .drip_bytes = 10, .drip_interval_ms = 200 };
  gint64 start;

  g_test_summary ("A server that sends less than the minimum speed is given up on.");

  limits.low_speed_bytes = 1000;
  limits.low_speed_seconds = 1;
  lwn_test_server_add_route (server, "/feed", &route);

  start = g_get_monotonic_time ();
  response = fetch_full (url, NULL, NULL, &limits, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TIMED_OUT);
  g_assert_cmpstr (error->message, ==, "The server is too slow");
  g_assert_true (response == NULL);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 5 * G_USEC_PER_SEC);
}

static void
test_timeout_total (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  LwnFetchLimits limits = test_limits ();
  const LwnTestRoute route = { .body = "late", .delay_ms = 5000 };
  gint64 start;

  g_test_summary ("A server that does not answer within the overall timeout is given up on.");

  limits.total_timeout_seconds = 1;
  lwn_test_server_add_route (server, "/feed", &route);

  start = g_get_monotonic_time ();
  response = fetch_full (url, NULL, NULL, &limits, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TIMED_OUT);
  g_assert_cmpstr (error->message, ==, "Timed out after 1 second");
  g_assert_true (response == NULL);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 3 * G_USEC_PER_SEC);
}

/* A fetch that runs lwn_fetch_sync() in a worker thread, as the feed loader
 * does, and reports on the main context. */
typedef struct
{
  LwnFetchRequest request; /* what it points to outlives the fetch */
  LwnFetchResponse *response;
  GError *error;
  gboolean done;
  gint64 done_time;
} ThreadFetch;

static void
thread_fetch_clear (ThreadFetch *fetch)
{
  g_clear_pointer (&fetch->response, lwn_fetch_response_unref);
  g_clear_error (&fetch->error);
}

static void
thread_fetch_run (GTask *task,
                  gpointer source_object,
                  gpointer task_data,
                  GCancellable *cancellable)
{
  ThreadFetch *fetch = task_data;
  GError *error = NULL;
  LwnFetchResponse *response = lwn_fetch_sync (&fetch->request, cancellable, &error);

  if (response == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, response, (GDestroyNotify) lwn_fetch_response_unref);
}

static void
thread_fetch_done_cb (GObject *source,
                      GAsyncResult *result,
                      gpointer user_data)
{
  ThreadFetch *fetch = user_data;

  fetch->response = g_task_propagate_pointer (G_TASK (result), &fetch->error);
  fetch->done = TRUE;
  fetch->done_time = g_get_monotonic_time ();
}

static void
thread_fetch_start (ThreadFetch *fetch,
                    GCancellable *cancellable)
{
  g_autoptr (GTask) task = g_task_new (NULL, cancellable, thread_fetch_done_cb, fetch);

  g_task_set_task_data (task, fetch, NULL);
  g_task_run_in_thread (task, thread_fetch_run);
}

typedef struct
{
  GCancellable *cancellable;
  gint64 cancel_time;
} CancelLater;

static gboolean
cancel_later_cb (gpointer user_data)
{
  CancelLater *cancel = user_data;

  cancel->cancel_time = g_get_monotonic_time ();
  g_cancellable_cancel (cancel->cancellable);
  return G_SOURCE_REMOVE;
}

typedef struct
{
  const char *name;
  LwnTestRoute route;
} CancelCase;

static const CancelCase cancel_cases[] = {
  /* Nothing arrives: only a wake-up can notice the cancellation quickly. */
  { "silent", { .body = "late", .delay_ms = 10000 } },
  { "dripping", { .body = "0123456789012345678901234567890123456789", .drip_bytes = 1, .drip_interval_ms = 250 } },
};

static void
test_cancel_in_flight (gconstpointer data)
{
  const CancelCase *test = data;
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  LwnFetchLimits limits = test_limits ();
  ThreadFetch result = { .request = { .url = url, .limits = &limits } };
  CancelLater cancel = { .cancellable = cancellable };

  g_test_summary ("Cancelling a fetch in a worker thread mid-transfer ends it promptly with G_IO_ERROR_CANCELLED.");

  limits.low_speed_bytes = 0;
  lwn_test_server_add_route (server, "/feed", &test->route);
  thread_fetch_start (&result, cancellable);
  g_timeout_add (300, cancel_later_cb, &cancel);

  while (!result.done)
    g_main_context_iteration (NULL, TRUE);

  g_assert_error (result.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (result.response == NULL);
  g_assert_cmpint (cancel.cancel_time, >, 0);
  g_test_message ("Finished %" G_GINT64_FORMAT " us after the cancellation",
                  result.done_time - cancel.cancel_time);
  g_assert_cmpint (result.done_time - cancel.cancel_time, <, G_USEC_PER_SEC / 2);
  g_assert_cmpuint (lwn_test_server_count_requests (server, "/feed"), ==, 1);
  thread_fetch_clear (&result);
}

static void
test_cancel_before (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnFetchRequest request = { .url = url };

  g_test_summary ("An already cancelled fetch does not even connect.");

  g_cancellable_cancel (cancellable);
  response = lwn_fetch_sync (&request, cancellable, &error);

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (response == NULL);
  g_assert_cmpuint (lwn_test_server_count_requests (server, "/feed"), ==, 0);
}

/* A port bound but not listened on: it stays ours, and connecting to it is refused. */
static guint16
bind_refusing_port (GSocket **out_socket)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GInetAddress) loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (loopback, 0);
  g_autoptr (GSocketAddress) bound = NULL;
  g_autoptr (GSocket) socket = NULL;

  socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, &error);
  g_assert_no_error (error);
  g_socket_bind (socket, address, FALSE, &error);
  g_assert_no_error (error);
  bound = g_socket_get_local_address (socket, &error);
  g_assert_no_error (error);

  *out_socket = g_steal_pointer (&socket);
  return g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
}

static void
test_error_connect (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GSocket) socket = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  g_autofree char *url = NULL;
  g_autofree char *expected = NULL;
  guint16 port;

  g_test_summary ("A port nobody listens on gives a connect error naming host and port.");

  port = bind_refusing_port (&socket);
  url = g_strdup_printf ("http://127.0.0.1:%u/feed", port);
  response = fetch (url, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_CONNECT);
  g_assert_true (response == NULL);
  expected = g_strdup_printf ("Cannot connect to 127.0.0.1:%u (Connection refused)", port);
  g_assert_cmpstr (error->message, ==, expected);
}

static void
test_error_resolve (void)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  LwnFetchLimits limits = test_limits ();

  g_test_summary ("A name that cannot exist (RFC 6761 .invalid) gives a resolve error.");

  limits.connect_timeout_seconds = 3;
  response = fetch_full ("http://nonexistent.invalid/feed", NULL, NULL, &limits, &error);
  g_assert_true (response == NULL);

  /* Offline, a resolver with unreachable name servers may wait instead of failing. */
  if (g_error_matches (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_TIMED_OUT))
    {
      g_test_skip ("The system resolver timed out instead of answering");
      return;
    }

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_RESOLVE);
  g_assert_cmpstr (error->message, ==, "Cannot resolve host nonexistent.invalid");
}

static void
test_error_reset (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autofree char *body = g_strnfill (4000, 'a');
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute route = { .body = body, .reset_mid_body = TRUE };

  g_test_summary ("A connection reset in the middle of the body is an error, not a short feed.");

  lwn_test_server_add_route (server, "/feed", &route);
  response = fetch (url, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED);
  g_assert_true (response == NULL);
}

static void
test_file_ok (void)
{
  g_autofree char *relative = g_test_build_filename (G_TEST_DIST, "data", "lwn-headlines-2023-07.rdf", NULL);
  /* libcurl removes "." and ".." segments from the effective URL. */
  g_autofree char *path = g_canonicalize_filename (relative, NULL);
  g_autofree char *url = g_filename_to_uri (path, NULL, NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  LwnFetchLimits limits = test_limits ();

  g_test_summary ("A file: URL chosen by the user is read, and reported as status 200.");

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  limits.max_body_bytes = 8 * 1024 * 1024;

  response = fetch_full (url, NULL, NULL, &limits, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (lwn_fetch_response_get_status (response), ==, 200);
  assert_body (response, contents, length);
  g_assert_cmpstr (lwn_fetch_response_get_effective_url (response), ==, url);
  g_assert_true (lwn_fetch_response_check (response, &error));
  g_assert_no_error (error);
}

static void
test_file_missing (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "data", "no-such-feed.rdf", NULL);
  g_autofree char *url = g_filename_to_uri (path, NULL, NULL);
  g_autofree char *expected = g_strdup_printf ("Cannot read file %s", path);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;

  g_test_summary ("A missing file is an error that names it.");

  response = fetch (url, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_true (response == NULL);
}

static const char *const unsupported_urls[] = {
  "ftp://127.0.0.1/feed",
  "gopher://127.0.0.1/feed",
  "javascript:alert(1)",
  "lwn.net/headlines/rss",
  "",
};

static void
test_url_unsupported (gconstpointer data)
{
  const char *url = data;
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;

  g_test_summary ("Only http, https and file URLs are fetched.");

  response = fetch (url, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_UNSUPPORTED_URL);
  g_assert_true (response == NULL);
}

/* A proxy resolver with fixed answers, standing in for the desktop's
 * settings. Without answers its lookups fail; it remembers what it was asked. */
#define TEST_TYPE_RESOLVER (test_resolver_get_type ())
G_DECLARE_FINAL_TYPE (TestResolver, test_resolver, TEST, RESOLVER, GObject)

struct _TestResolver
{
  GObject parent_instance;
  GStrv answers;
  gboolean cancel; /* cancel the lookup, as a person would while it runs */
  GMutex mutex;    /* guards asked: lookups run in the fetching thread */
  char *asked;
};

static void test_resolver_iface_init (GProxyResolverInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (TestResolver, test_resolver, G_TYPE_OBJECT, G_IMPLEMENT_INTERFACE (G_TYPE_PROXY_RESOLVER, test_resolver_iface_init))

static void
test_resolver_finalize (GObject *object)
{
  TestResolver *self = TEST_RESOLVER (object);

  g_strfreev (self->answers);
  g_free (self->asked);
  g_mutex_clear (&self->mutex);

  G_OBJECT_CLASS (test_resolver_parent_class)->finalize (object);
}

static void
test_resolver_class_init (TestResolverClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = test_resolver_finalize;
}

static void
test_resolver_init (TestResolver *self)
{
  g_mutex_init (&self->mutex);
}

static gboolean
test_resolver_is_supported (GProxyResolver *resolver)
{
  return TRUE;
}

static char **
test_resolver_lookup (GProxyResolver *resolver,
                      const char *uri,
                      GCancellable *cancellable,
                      GError **error)
{
  TestResolver *self = TEST_RESOLVER (resolver);

  g_mutex_lock (&self->mutex);
  g_free (self->asked);
  self->asked = g_strdup (uri);
  g_mutex_unlock (&self->mutex);

  if (self->cancel)
    g_cancellable_cancel (cancellable);
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if (self->answers == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_FAILED, "The PAC script failed");
      return NULL;
    }

  return g_strdupv (self->answers);
}

static void
test_resolver_iface_init (GProxyResolverInterface *iface)
{
  iface->is_supported = test_resolver_is_supported;
  iface->lookup = test_resolver_lookup;
}

/* @first_answer and the rest are the resolver's answers, NULL-terminated;
 * NULL alone makes every lookup fail. */
static GProxyResolver *
test_resolver_new (const char *first_answer,
                   ...)
{
  TestResolver *self = g_object_new (TEST_TYPE_RESOLVER, NULL);
  g_autoptr (GStrvBuilder) builder = g_strv_builder_new ();
  va_list args;

  if (first_answer == NULL)
    return G_PROXY_RESOLVER (self);

  va_start (args, first_answer);
  for (const char *answer = first_answer; answer != NULL; answer = va_arg (args, const char *))
    g_strv_builder_add (builder, answer);
  va_end (args);

  self->answers = g_strv_builder_end (builder);
  return G_PROXY_RESOLVER (self);
}

static char *
test_resolver_dup_asked (GProxyResolver *resolver)
{
  TestResolver *self = TEST_RESOLVER (resolver);
  char *asked;

  g_mutex_lock (&self->mutex);
  asked = g_strdup (self->asked);
  g_mutex_unlock (&self->mutex);

  return asked;
}

/* A host that cannot resolve (RFC 6761), so only a proxy can reach it. */
#define PROXIED_URL "http://example.invalid/feed"

/* The test server doubles as an HTTP proxy: a proxy request names the whole
 * URI ("GET http://example.invalid/feed HTTP/1.1"), and it routes on that. */
static char *
add_proxied_route (LwnTestServer *proxy)
{
  const LwnTestRoute route = { .content_type = "application/rss+xml", .body = "<rss/>" };

  lwn_test_server_add_route (proxy, PROXIED_URL, &route);
  return lwn_test_server_dup_url (proxy, "");
}

static LwnFetchResponse *
fetch_with_resolver (const char *url,
                     GProxyResolver *resolver,
                     GCancellable *cancellable,
                     GError **error)
{
  LwnFetchLimits limits = test_limits ();
  LwnFetchRequest request = { .url = url, .limits = &limits, .proxy_resolver = resolver };

  return lwn_fetch_sync (&request, cancellable, error);
}

static void
assert_proxied (LwnTestServer *proxy,
                LwnFetchResponse *response)
{
  g_autofree char *host = lwn_test_server_dup_request_header (proxy, PROXIED_URL, "Host");

  g_assert_cmpuint (lwn_test_server_count_requests (proxy, PROXIED_URL), ==, 1);
  g_assert_cmpstr (host, ==, "example.invalid");
  g_assert_cmpuint (lwn_fetch_response_get_status (response), ==, 200);
  assert_body (response, "<rss/>", 6);
  g_assert_cmpstr (lwn_fetch_response_get_content_type (response), ==, "application/rss+xml");
  g_assert_cmpstr (lwn_fetch_response_get_effective_url (response), ==, PROXIED_URL);
}

static void
test_proxy_http (void)
{
  g_autoptr (LwnTestServer) proxy = lwn_test_server_new ();
  g_autofree char *proxy_url = add_proxied_route (proxy);
  g_autoptr (GProxyResolver) resolver = test_resolver_new (proxy_url, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  g_autofree char *asked = NULL;

  g_test_summary ("The proxy the resolver names for the feed's URL carries the request, as an absolute URI.");

  response = fetch_with_resolver (PROXIED_URL, resolver, NULL, &error);

  g_assert_no_error (error);
  assert_proxied (proxy, response);
  asked = test_resolver_dup_asked (resolver);
  g_assert_cmpstr (asked, ==, PROXIED_URL);
}

static void
test_proxy_first_usable (void)
{
  g_autoptr (LwnTestServer) proxy = lwn_test_server_new ();
  g_autofree char *proxy_url = add_proxied_route (proxy);
  g_autoptr (GSocket) socket = NULL;
  g_autofree char *dead_url = g_strdup_printf ("http://127.0.0.1:%u", bind_refusing_port (&socket));
  g_autoptr (GProxyResolver) resolver = test_resolver_new ("gopher://127.0.0.1:70", "foo:", proxy_url, dead_url, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;

  g_test_summary ("Answers libcurl cannot use are skipped, and the first usable one is taken.");

  response = fetch_with_resolver (PROXIED_URL, resolver, NULL, &error);

  g_assert_no_error (error);
  assert_proxied (proxy, response);
}

static void
test_proxy_none_usable (void)
{
  g_autoptr (GProxyResolver) resolver = test_resolver_new ("gopher://127.0.0.1:70", NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;

  g_test_summary ("When no answer is usable, the fetch fails and says why.");

  response = fetch_with_resolver (PROXIED_URL, resolver, NULL, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "The proxy settings name no proxy of a supported kind (gopher)");
  g_assert_true (response == NULL);
}

static void
test_proxy_resolver_error (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GProxyResolver) resolver = test_resolver_new (NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;

  g_test_summary ("A resolver that fails fails the fetch, with its reason, before any connection.");

  response = fetch_with_resolver (url, resolver, NULL, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_FAILED);
  g_assert_cmpstr (error->message, ==, "Cannot find out which proxy to use: The PAC script failed");
  g_assert_true (response == NULL);
  g_assert_cmpuint (lwn_test_server_count_requests (server, "/feed"), ==, 0);
}

static void
test_proxy_cancelled (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  g_autoptr (GProxyResolver) resolver = test_resolver_new ("direct://", NULL);
  g_autoptr (GCancellable) cancellable = g_cancellable_new ();
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;

  g_test_summary ("Cancelling while the proxy is looked up ends the fetch as cancelled.");

  TEST_RESOLVER (resolver)->cancel = TRUE;
  response = fetch_with_resolver (url, resolver, cancellable, &error);

  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_true (response == NULL);
  g_assert_cmpuint (lwn_test_server_count_requests (server, "/feed"), ==, 0);
}

static void
test_proxy_unreachable (void)
{
  g_autoptr (GSocket) socket = NULL;
  guint16 port = bind_refusing_port (&socket);
  g_autofree char *proxy_url = g_strdup_printf ("http://127.0.0.1:%u", port);
  g_autofree char *expected = g_strdup_printf ("Cannot connect to the proxy 127.0.0.1:%u (Connection refused)", port);
  g_autoptr (GProxyResolver) resolver = test_resolver_new (proxy_url, NULL);
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;

  g_test_summary ("A proxy that refuses connections is named as the proxy in the error.");

  response = fetch_with_resolver (PROXIED_URL, resolver, NULL, &error);

  g_assert_error (error, LWN_FETCH_ERROR, LWN_FETCH_ERROR_CONNECT);
  g_assert_cmpstr (error->message, ==, expected);
  g_assert_true (response == NULL);
}

/* The tests below change the environment, which is not safe with other
 * threads running: each runs in a process of its own, set up before any
 * server thread starts. */
static void
run_in_subprocess (void)
{
  g_test_trap_subprocess (NULL, 0, G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

static void
test_proxy_direct (void)
{
  g_autoptr (GSocket) socket = NULL;
  g_autofree char *dead_proxy = NULL;
  g_autoptr (LwnTestServer) server = NULL;
  g_autofree char *url = NULL;
  g_autoptr (GProxyResolver) resolver = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;
  const LwnTestRoute route = { .body = "<rss/>" };

  g_test_summary ("\"direct://\" means no proxy, even with http_proxy naming one.");

  if (!g_test_subprocess ())
    {
      run_in_subprocess ();
      return;
    }

  dead_proxy = g_strdup_printf ("http://127.0.0.1:%u", bind_refusing_port (&socket));
  g_setenv ("http_proxy", dead_proxy, TRUE);
  server = lwn_test_server_new ();
  url = lwn_test_server_dup_url (server, "/feed");
  resolver = test_resolver_new ("direct://", NULL);
  lwn_test_server_add_route (server, "/feed", &route);

  response = fetch_with_resolver (url, resolver, NULL, &error);

  g_assert_no_error (error);
  assert_body (response, "<rss/>", 6);
  g_assert_cmpuint (lwn_test_server_count_requests (server, "/feed"), ==, 1);
}

static void
test_proxy_beats_no_proxy (void)
{
  g_autoptr (LwnTestServer) proxy = NULL;
  g_autofree char *proxy_url = NULL;
  g_autoptr (GProxyResolver) resolver = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;

  g_test_summary ("The resolver's proxy is used even when no_proxy names the host.");

  if (!g_test_subprocess ())
    {
      run_in_subprocess ();
      return;
    }

  g_setenv ("no_proxy", "example.invalid", TRUE);
  proxy = lwn_test_server_new ();
  proxy_url = add_proxied_route (proxy);
  resolver = test_resolver_new (proxy_url, NULL);

  response = fetch_with_resolver (PROXIED_URL, resolver, NULL, &error);

  g_assert_no_error (error);
  assert_proxied (proxy, response);
}

static void
test_proxy_fallback_environment (void)
{
  g_autoptr (LwnTestServer) proxy = NULL;
  g_autofree char *proxy_url = NULL;
  g_autoptr (GError) error = NULL;
  g_autoptr (LwnFetchResponse) response = NULL;

  g_test_summary ("Without a GIO proxy module, libcurl still honours http_proxy itself.");

  if (!g_test_subprocess ())
    {
      run_in_subprocess ();
      return;
    }

  /* main() made GIO's default resolver its built-in fallback. */
  proxy = lwn_test_server_new ();
  proxy_url = add_proxied_route (proxy);
  g_setenv ("http_proxy", proxy_url, TRUE);

  response = fetch_with_resolver (PROXIED_URL, NULL, NULL, &error);

  g_assert_no_error (error);
  assert_proxied (proxy, response);
}

static void
test_thread_ok (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  g_autofree char *url = lwn_test_server_dup_url (server, "/feed");
  LwnFetchLimits limits = test_limits ();
  ThreadFetch result = { .request = { .url = url, .etag = "\"v1\"", .limits = &limits } };
  const LwnTestRoute route = { .body = "<rss/>", .etag = "\"v2\"" };
  g_autofree char *if_none_match = NULL;

  g_test_summary ("A fetch in a worker thread delivers its response to the caller's main context.");

  lwn_test_server_add_route (server, "/feed", &route);
  thread_fetch_start (&result, NULL);

  while (!result.done)
    g_main_context_iteration (NULL, TRUE);

  g_assert_no_error (result.error);
  g_assert_cmpuint (lwn_fetch_response_get_status (result.response), ==, 200);
  assert_body (result.response, "<rss/>", 6);
  if_none_match = lwn_test_server_dup_request_header (server, "/feed", "If-None-Match");
  g_assert_cmpstr (if_none_match, ==, "\"v1\"");
  thread_fetch_clear (&result);
}

static void
test_thread_concurrent (void)
{
  g_autoptr (LwnTestServer) server = lwn_test_server_new ();
  LwnFetchLimits limits = test_limits ();
  ThreadFetch results[4] = { 0 };
  char *urls[G_N_ELEMENTS (results)];
  gboolean all_done = FALSE;

  g_test_summary ("Several fetches may run at once in worker threads without getting in each other's way.");

  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autofree char *path = g_strdup_printf ("/feed%u", i);
      g_autofree char *body = g_strdup_printf ("body %u", i);
      const LwnTestRoute route = { .body = body, .drip_bytes = 2, .drip_interval_ms = 20 };

      lwn_test_server_add_route (server, path, &route);
      urls[i] = lwn_test_server_dup_url (server, path);
      results[i].request.url = urls[i];
      results[i].request.limits = &limits;
      thread_fetch_start (&results[i], NULL);
    }

  while (!all_done)
    {
      g_main_context_iteration (NULL, TRUE);
      all_done = TRUE;
      for (guint i = 0; i < G_N_ELEMENTS (results); i++)
        all_done = all_done && results[i].done;
    }

  for (guint i = 0; i < G_N_ELEMENTS (results); i++)
    {
      g_autofree char *body = g_strdup_printf ("body %u", i);

      g_assert_no_error (results[i].error);
      assert_body (results[i].response, body, strlen (body));
      g_assert_cmpstr (lwn_fetch_response_get_effective_url (results[i].response), ==, urls[i]);
      thread_fetch_clear (&results[i]);
      g_free (urls[i]);
    }
}

static void
add_table_test (const char *prefix,
                const char *name,
                gconstpointer data,
                GTestDataFunc func)
{
  g_autofree char *path = g_strconcat (prefix, name, NULL);

  g_test_add_data_func (path, data, func);
}

/* Every server here is local; a proxy from the environment or the desktop's
 * settings must not be asked. GIO's built-in resolver knows of neither: the
 * proxy tests bring their own. */
static void
isolate_from_proxies (void)
{
  static const char *const proxy_variables[] = {
    "http_proxy",
    "HTTP_PROXY",
    "https_proxy",
    "HTTPS_PROXY",
    "all_proxy",
    "ALL_PROXY",
    "no_proxy",
    "NO_PROXY",
  };

  for (gsize i = 0; i < G_N_ELEMENTS (proxy_variables); i++)
    g_unsetenv (proxy_variables[i]);
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
}

int
main (int argc,
      char *argv[])
{
  /* As the program does: a peer that goes away must not kill the process. */
  signal (SIGPIPE, SIG_IGN);
  curl_global_init (CURL_GLOBAL_DEFAULT);
  isolate_from_proxies ();

  g_test_init (&argc, &argv, NULL);

  g_test_add_func ("/fetch/limits/defaults", test_limits_defaults);
  g_test_add_func ("/fetch/get/ok", test_get_ok);
  g_test_add_func ("/fetch/get/request-headers", test_get_request_headers);
  g_test_add_func ("/fetch/conditional/304", test_conditional_304);
  g_test_add_func ("/fetch/conditional/last-modified", test_conditional_last_modified);
  g_test_add_func ("/fetch/conditional/changed", test_conditional_changed);
  g_test_add_func ("/fetch/conditional/unsafe-validator", test_conditional_unsafe_validator);
  g_test_add_func ("/fetch/encoding/gzip", test_encoding_gzip);

  for (gsize i = 0; i < G_N_ELEMENTS (redirect_cases); i++)
    add_table_test ("/fetch/redirect/", redirect_cases[i].name, &redirect_cases[i], test_redirect);
  for (gsize i = 0; i < G_N_ELEMENTS (refused_locations); i++)
    {
      g_autofree char *scheme = g_uri_parse_scheme (refused_locations[i]);

      add_table_test ("/fetch/redirect/refused/", scheme, refused_locations[i], test_redirect_refused);
    }
  g_test_add_func ("/fetch/redirect/loop", test_redirect_loop);
  g_test_add_func ("/fetch/redirect/headers-not-kept", test_redirect_headers_not_kept);

  for (gsize i = 0; i < G_N_ELEMENTS (status_cases); i++)
    {
      g_autofree char *code = g_strdup_printf ("%u", status_cases[i].status);

      add_table_test ("/fetch/status/", code, &status_cases[i], test_status);
    }
  for (gsize i = 0; i < G_N_ELEMENTS (retry_after_cases); i++)
    add_table_test ("/fetch/retry-after/", retry_after_cases[i].name, &retry_after_cases[i], test_retry_after);
  for (gsize i = 0; i < G_N_ELEMENTS (cache_control_cases); i++)
    add_table_test ("/fetch/cache-control/", cache_control_cases[i].name, &cache_control_cases[i], test_cache_control);

  g_test_add_func ("/fetch/limits/at-cap", test_limits_at_cap);
  for (gsize i = 0; i < G_N_ELEMENTS (too_large_cases); i++)
    add_table_test ("/fetch/limits/too-large/", too_large_cases[i].name, &too_large_cases[i], test_limits_too_large);
  g_test_add_func ("/fetch/timeout/low-speed", test_timeout_low_speed);
  g_test_add_func ("/fetch/timeout/total", test_timeout_total);

  for (gsize i = 0; i < G_N_ELEMENTS (cancel_cases); i++)
    add_table_test ("/fetch/cancel/", cancel_cases[i].name, &cancel_cases[i], test_cancel_in_flight);
  g_test_add_func ("/fetch/cancel/before", test_cancel_before);

  g_test_add_func ("/fetch/error/connect", test_error_connect);
  g_test_add_func ("/fetch/error/resolve", test_error_resolve);
  g_test_add_func ("/fetch/error/reset", test_error_reset);
  g_test_add_func ("/fetch/file/ok", test_file_ok);
  g_test_add_func ("/fetch/file/missing", test_file_missing);

  for (gsize i = 0; i < G_N_ELEMENTS (unsupported_urls); i++)
    {
      g_autofree char *name = g_strdup_printf ("%" G_GSIZE_FORMAT, i);

      add_table_test ("/fetch/url/unsupported/", name, unsupported_urls[i], test_url_unsupported);
    }

  g_test_add_func ("/fetch/proxy/http", test_proxy_http);
  g_test_add_func ("/fetch/proxy/first-usable", test_proxy_first_usable);
  g_test_add_func ("/fetch/proxy/none-usable", test_proxy_none_usable);
  g_test_add_func ("/fetch/proxy/resolver-error", test_proxy_resolver_error);
  g_test_add_func ("/fetch/proxy/cancelled", test_proxy_cancelled);
  g_test_add_func ("/fetch/proxy/unreachable", test_proxy_unreachable);
  g_test_add_func ("/fetch/proxy/direct", test_proxy_direct);
  g_test_add_func ("/fetch/proxy/beats-no-proxy", test_proxy_beats_no_proxy);
  g_test_add_func ("/fetch/proxy/fallback-environment", test_proxy_fallback_environment);

  g_test_add_func ("/fetch/thread/ok", test_thread_ok);
  g_test_add_func ("/fetch/thread/concurrent", test_thread_concurrent);

  int status = g_test_run ();

  curl_global_cleanup ();
  return status;
}
