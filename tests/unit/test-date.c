/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests lwn-date: RFC 822 and W3C-DTF dates, through GLib and libcurl and by hand. */

#include "config.h"

#include <glib.h>

#include "lwn-date.h"

static void
assert_date (GDateTime *date,
             const char *expected)
{
  g_autoptr (GDateTime) want = NULL;

  if (expected == NULL)
    {
      g_assert_true (date == NULL);
      return;
    }

  want = g_date_time_new_from_iso8601 (expected, NULL);
  g_assert_true (want != NULL);
  g_assert_true (date != NULL);
  g_assert_cmpint (g_date_time_to_unix (date), ==, g_date_time_to_unix (want));
  g_assert_cmpint (g_date_time_get_microsecond (date), ==, g_date_time_get_microsecond (want));
  g_assert_cmpint (g_date_time_get_utc_offset (date), ==, g_date_time_get_utc_offset (want));
}

typedef struct
{
  const char *path;
  const char *text;
  const char *expected; /* ISO 8601 with offset, or NULL for unreadable */
} DateCase;

static const DateCase rfc822_cases[] = {
  { "/date/rfc822/full", "Fri, 07 Jul 2023 18:15:29 GMT", "2023-07-07T18:15:29Z" },
  { "/date/rfc822/no-day-name", "07 Jul 2023 18:15:29 +0000", "2023-07-07T18:15:29Z" },
  { "/date/rfc822/one-digit-day", "Fri, 7 Jul 2023 18:15 -0400", "2023-07-07T18:15:00-04:00" },
  { "/date/rfc822/two-digit-year", "Thu, 06 Jul 23 09:30:00 PDT", "2023-07-06T09:30:00-07:00" },
  { "/date/rfc822/two-digit-year-1900s", "Sat, 01 Jan 99 00:00:00 GMT", "1999-01-01T00:00:00Z" },
  { "/date/rfc822/ut", "Tue, 04 Jul 2023 12:00:00 UT", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/utc", "Tue, 04 Jul 2023 12:00:00 UTC", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/z", "Tue, 04 Jul 2023 12:00:00 Z", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/est", "Tue, 04 Jul 2023 12:00:00 EST", "2023-07-04T12:00:00-05:00" },
  { "/date/rfc822/edt", "Tue, 04 Jul 2023 12:00:00 EDT", "2023-07-04T12:00:00-04:00" },
  { "/date/rfc822/cst", "Tue, 04 Jul 2023 12:00:00 CST", "2023-07-04T12:00:00-06:00" },
  { "/date/rfc822/cdt", "Tue, 04 Jul 2023 12:00:00 CDT", "2023-07-04T12:00:00-05:00" },
  { "/date/rfc822/mst", "Tue, 04 Jul 2023 12:00:00 MST", "2023-07-04T12:00:00-07:00" },
  { "/date/rfc822/mdt", "Tue, 04 Jul 2023 12:00:00 MDT", "2023-07-04T12:00:00-06:00" },
  { "/date/rfc822/pst", "Tue, 04 Jul 2023 12:00:00 PST", "2023-07-04T12:00:00-08:00" },
  { "/date/rfc822/pdt", "Tue, 04 Jul 2023 12:00:00 pdt", "2023-07-04T12:00:00-07:00" },
  { "/date/rfc822/plus-0530", "Tue, 04 Jul 2023 12:00:00 +0530", "2023-07-04T12:00:00+05:30" },
  { "/date/rfc822/colon-offset", "Tue, 04 Jul 2023 12:00:00 +05:30", "2023-07-04T12:00:00+05:30" },
  { "/date/rfc822/no-zone", "Tue, 04 Jul 2023 12:00:00", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/unknown-zone", "Tue, 04 Jul 2023 12:00:00 XYZ", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/zone-comment", "Tue, 04 Jul 2023 12:00:00 -0800 (PST)", "2023-07-04T12:00:00-08:00" },
  { "/date/rfc822/full-names", "Tuesday, 4 July 2023 12:00:00 GMT", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/no-comma", "Tue 04 Jul 2023 12:00:00 GMT", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/padded", "  Tue, 04 Jul 2023 12:00:00 GMT \n", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/leap-second", "Sat, 31 Dec 2016 23:59:60 GMT", "2017-01-01T00:00:00Z" },
  { "/date/rfc822/bad-month", "Tue, 04 Foo 2023 12:00:00 GMT", NULL },
  { "/date/rfc822/bad-day", "Tue, 31 Feb 2023 12:00:00 GMT", NULL },
  { "/date/rfc822/bad-hour", "Tue, 04 Jul 2023 25:00:00 GMT", NULL },
  { "/date/rfc822/bad-offset", "Tue, 04 Jul 2023 12:00:00 +9999", NULL },
  { "/date/rfc822/empty", "", NULL },
  { "/date/rfc822/words", "not a date", NULL },
  /* Read by curl_getdate(): */
  { "/date/rfc822/dashed", "Tue, 4-Jul-2023 12:00:00 GMT", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/asctime", "Tue Jul  4 12:00:00 2023", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/zone-curl-knows", "Tue, 04 Jul 2023 12:00:00 CET", "2023-07-04T11:00:00Z" },
  { "/date/rfc822/trailing-space", "Mon, 15 Sep 03 10:12:34 -0700 ", "2003-09-15T10:12:34-07:00" },
  /* Read by hand, where curl_getdate() gives up or misreads: */
  { "/date/rfc822/gmt-plus", "Tue, 04 Jul 2023 12:00:00 GMT+0200", "2023-07-04T12:00:00+02:00" },
  { "/date/rfc822/negative-colon-offset", "Tue, 04 Jul 2023 12:00:00 -03:30", "2023-07-04T12:00:00-03:30" },
  { "/date/rfc822/full-month-no-day-name", "4 July 2023 12:00 GMT", "2023-07-04T12:00:00Z" },
  { "/date/rfc822/bad-day-leap-year", "Thu, 29 Feb 2024 12:00:00 GMT", "2024-02-29T12:00:00Z" },
  { "/date/rfc822/bad-day-not-leap", "Wed, 29 Feb 2023 12:00:00 GMT", NULL },
  { "/date/rfc822/null", NULL, NULL },
};

static const DateCase iso8601_cases[] = {
  { "/date/iso8601/utc", "2023-07-07T18:15:29Z", "2023-07-07T18:15:29Z" },
  { "/date/iso8601/offset", "2023-07-07T18:15:29+00:00", "2023-07-07T18:15:29Z" },
  { "/date/iso8601/negative-offset", "2023-07-07T10:00:00-04:00", "2023-07-07T10:00:00-04:00" },
  { "/date/iso8601/compact-offset", "2023-07-07T10:00:00+0530", "2023-07-07T10:00:00+05:30" },
  { "/date/iso8601/no-seconds", "2000-01-01T12:00+00:00", "2000-01-01T12:00:00Z" },
  { "/date/iso8601/fraction", "2023-07-07T18:15:29.250Z", "2023-07-07T18:15:29.250Z" },
  { "/date/iso8601/lower-t", "2023-07-07t18:15:29z", "2023-07-07T18:15:29Z" },
  { "/date/iso8601/space", "2023-07-07 18:15:29Z", "2023-07-07T18:15:29Z" },
  { "/date/iso8601/no-zone", "2023-07-07T18:15:29", "2023-07-07T18:15:29Z" },
  { "/date/iso8601/date", "2023-07-07", "2023-07-07T00:00:00Z" },
  { "/date/iso8601/month", "2023-07", "2023-07-01T00:00:00Z" },
  { "/date/iso8601/year", "2023", "2023-01-01T00:00:00Z" },
  { "/date/iso8601/bad-month", "2023-13-01", NULL },
  { "/date/iso8601/bad-time", "2023-07-07T24:00:00Z", NULL },
  { "/date/iso8601/trailing", "2023-07-07T18:15:29Z and more", NULL },
  { "/date/iso8601/rfc822", "Fri, 07 Jul 2023 18:15:29 GMT", NULL },
  /* Read by g_date_time_new_from_iso8601(): */
  { "/date/iso8601/hours-offset", "2003-12-31T10:14:55-08", "2003-12-31T10:14:55-08:00" },
  { "/date/iso8601/basic-format", "20031231T101455Z", "2003-12-31T10:14:55Z" },
  { "/date/iso8601/padded", "  2023-07-07T18:15:29Z\n", "2023-07-07T18:15:29Z" },
  /* Read by hand, where it gives up or misreads: */
  { "/date/iso8601/leap-second", "2016-12-31T23:59:60Z", "2017-01-01T00:00:00Z" },
  { "/date/iso8601/no-seconds-zulu", "2004-01-04T18:30Z", "2004-01-04T18:30:00Z" },
  { "/date/iso8601/date-padded", " 2004-01-04 ", "2004-01-04T00:00:00Z" },
  { "/date/iso8601/bad-day", "2023-02-30", NULL },
  { "/date/iso8601/null", NULL, NULL },
};

/* Either form, as a feed's date element may hold. */
static const DateCase either_cases[] = {
  { "/date/either/iso8601", "2004-01-04T18:30:02-05:00", "2004-01-04T18:30:02-05:00" },
  { "/date/either/rfc822", "Sun, 04 Jan 2004 18:30:02 -0500", "2004-01-04T18:30:02-05:00" },
  { "/date/either/date-only", "2004-01-04", "2004-01-04T00:00:00Z" },
  { "/date/either/neither", "the fourth of January", NULL },
};

static void
test_rfc822 (gconstpointer data)
{
  const DateCase *dc = data;
  g_autoptr (GDateTime) date = lwn_date_parse_rfc822 (dc->text);
  g_autoptr (GDateTime) either = lwn_date_parse (dc->text);

  g_test_summary ("RFC 822 dates as RSS feeds write them");

  assert_date (date, dc->expected);
  assert_date (either, dc->expected);
}

static void
test_either (gconstpointer data)
{
  const DateCase *dc = data;
  g_autoptr (GDateTime) date = lwn_date_parse (dc->text);

  g_test_summary ("A date in either form is read, whatever the format asks for");

  assert_date (date, dc->expected);
}

static void
test_iso8601 (gconstpointer data)
{
  const DateCase *dc = data;
  g_autoptr (GDateTime) date = lwn_date_parse_iso8601 (dc->text);

  g_test_summary ("W3C-DTF dates as dc:date, Atom and JSON Feed write them");

  assert_date (date, dc->expected);
}

int
main (int argc,
      char **argv)
{
  g_test_init (&argc, &argv, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (rfc822_cases); i++)
    g_test_add_data_func (rfc822_cases[i].path, &rfc822_cases[i], test_rfc822);
  for (guint i = 0; i < G_N_ELEMENTS (iso8601_cases); i++)
    g_test_add_data_func (iso8601_cases[i].path, &iso8601_cases[i], test_iso8601);
  for (guint i = 0; i < G_N_ELEMENTS (either_cases); i++)
    g_test_add_data_func (either_cases[i].path, &either_cases[i], test_either);

  return g_test_run ();
}
