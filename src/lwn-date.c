/* SPDX-License-Identifier: GPL-3.0-or-later */
/* This file reads the dates that feeds write, in W3C-DTF (ISO 8601) or RFC 822 form, and reads them leniently. */

#include "config.h"

#include <string.h>

#include <curl/curl.h>

#include "lwn-date.h"

static void
skip_spaces (const char **p)
{
  while (**p == ' ' || **p == '\t' || **p == '\r' || **p == '\n')
    (*p)++;
}

/* Reads between @min and @max digits. When there are fewer, it returns FALSE
 * and leaves @p where it was. */
static gboolean
read_digits (const char **p,
             guint min,
             guint max,
             int *value)
{
  const char *s = *p;
  int v = 0;
  guint n = 0;

  while (n < max && g_ascii_isdigit (s[n]))
    {
      v = v * 10 + (s[n] - '0');
      n++;
    }
  if (n < min)
    return FALSE;

  *p = s + n;
  *value = v;
  return TRUE;
}

/* Reads an offset written "+hh:mm", "+hhmm" or "+hh". The sign is the
 * character at @p. */
static gboolean
read_numeric_offset (const char **p,
                     int *offset)
{
  int sign = **p == '-' ? -1 : 1;
  int hours;
  int minutes = 0;

  (*p)++;
  if (!read_digits (p, 2, 2, &hours))
    return FALSE;
  if (**p == ':')
    (*p)++;
  if (g_ascii_isdigit (**p) && !read_digits (p, 2, 2, &minutes))
    return FALSE;
  if (hours > 23 || minutes > 59)
    return FALSE;

  *offset = sign * (hours * 3600 + minutes * 60);
  return TRUE;
}

static GDateTime *
date_time_new (int offset,
               int year,
               int month,
               int day,
               int hour,
               int minute,
               double seconds)
{
  g_autoptr (GTimeZone) tz = offset == 0 ? g_time_zone_new_utc () : g_time_zone_new_offset (offset);
  g_autoptr (GDateTime) before_leap = NULL;

  if (tz == NULL)
    return NULL;
  if (seconds < 60.0)
    return g_date_time_new (tz, year, month, day, hour, minute, seconds);

  /* GDateTime has no leap seconds: 23:59:60 becomes the next midnight. */
  before_leap = g_date_time_new (tz, year, month, day, hour, minute, 59);
  return before_leap != NULL ? g_date_time_add_seconds (before_leap, 1) : NULL;
}

/* Reads the dates that g_date_time_new_from_iso8601() gets wrong. It rejects
 * "YYYY", "YYYY-MM", "YYYY-MM-DD", a time without seconds and a lower-case
 * "t" or "z", and it reads a leap second as :59. */
static GDateTime *
iso8601_by_hand (const char *text)
{
  const char *p = text;
  int year, month = 1, day = 1, hour = 0, minute = 0, second = 0;
  double fraction = 0.0;
  int offset = 0;

  if (text == NULL)
    return NULL;

  skip_spaces (&p);
  if (!read_digits (&p, 4, 4, &year))
    return NULL;
  if (*p == '-')
    {
      p++;
      if (!read_digits (&p, 2, 2, &month))
        return NULL;
      if (*p == '-')
        {
          p++;
          if (!read_digits (&p, 2, 2, &day))
            return NULL;
          if ((*p == 'T' || *p == 't' || *p == ' ') && g_ascii_isdigit (p[1]))
            {
              p++;
              if (!read_digits (&p, 2, 2, &hour) || *p++ != ':' || !read_digits (&p, 2, 2, &minute))
                return NULL;
              if (*p == ':')
                {
                  p++;
                  if (!read_digits (&p, 2, 2, &second))
                    return NULL;
                  if (*p == '.' || *p == ',')
                    {
                      double scale = 0.1;

                      p++;
                      if (!g_ascii_isdigit (*p))
                        return NULL;
                      for (; g_ascii_isdigit (*p); p++, scale /= 10)
                        fraction += (*p - '0') * scale;
                    }
                }
              skip_spaces (&p);
              if (*p == 'Z' || *p == 'z')
                p++;
              else if ((*p == '+' || *p == '-') && !read_numeric_offset (&p, &offset))
                return NULL;
            }
        }
    }

  skip_spaces (&p);
  if (*p != '\0' || hour > 23 || minute > 59 || second > 60)
    return NULL;

  return date_time_new (offset, year, month, day, hour, minute, second + fraction);
}

static const struct
{
  const char *name;
  int hours;
} named_zones[] = {
  { "GMT", 0 },
  { "UT", 0 },
  { "UTC", 0 },
  { "Z", 0 },
  { "EST", -5 },
  { "EDT", -4 },
  { "CST", -6 },
  { "CDT", -5 },
  { "MST", -7 },
  { "MDT", -6 },
  { "PST", -8 },
  { "PDT", -7 },
};

static const char *const month_names[] = {
  "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"
};

/* Reads a zone written "±hhmm", "±hh:mm" or "GMT+hhmm", or named as RFC 822
 * names zones. A name we do not know is taken as UTC. */
static gboolean
read_zone (const char **p,
           int *offset)
{
  *offset = 0;
  if (**p == '+' || **p == '-')
    return read_numeric_offset (p, offset);
  if (g_ascii_isalpha (**p))
    {
      const char *zone = *p;
      gsize len = 0;

      while (g_ascii_isalpha (zone[len]))
        len++;
      for (guint i = 0; i < G_N_ELEMENTS (named_zones); i++)
        {
          if (strlen (named_zones[i].name) == len && g_ascii_strncasecmp (zone, named_zones[i].name, len) == 0)
            {
              *offset = named_zones[i].hours * 3600;
              break;
            }
        }
      *p += len;
      /* A name may carry an offset, as "GMT+0200" does. */
      if ((**p == '+' || **p == '-') && g_ascii_isdigit ((*p)[1]))
        return read_numeric_offset (p, offset);
    }
  return TRUE;
}

/* Reads "[Day,] DD Mon YYYY hh:mm[:ss] [zone]" in the cases where
 * curl_getdate() gives up: spelt-out day and month names, "±hh:mm" and
 * "GMT+hhmm" zones, and zones that curl does not know. Those unknown zones
 * are taken as UTC, as RFC 2822 says of military zones. */
static GDateTime *
rfc822_by_hand (const char *text)
{
  const char *p = text;
  int day, month = 0, year, hour = 0, minute = 0, second = 0;
  int offset = 0;
  guint year_digits;
  const char *year_start;

  if (text == NULL)
    return NULL;

  skip_spaces (&p);
  if (g_ascii_isalpha (*p))
    {
      while (g_ascii_isalpha (*p))
        p++;
      skip_spaces (&p);
      if (*p == ',')
        p++;
      skip_spaces (&p);
    }

  if (!read_digits (&p, 1, 2, &day))
    return NULL;
  skip_spaces (&p);
  if (*p == '-')
    p++;
  skip_spaces (&p);

  for (guint i = 0; i < G_N_ELEMENTS (month_names); i++)
    {
      if (g_ascii_strncasecmp (p, month_names[i], 3) == 0)
        {
          month = i + 1;
          break;
        }
    }
  if (month == 0)
    return NULL;
  while (g_ascii_isalpha (*p))
    p++;
  if (*p == '.')
    p++;
  skip_spaces (&p);
  if (*p == '-')
    p++;
  skip_spaces (&p);

  year_start = p;
  if (!read_digits (&p, 2, 4, &year))
    return NULL;
  year_digits = p - year_start;
  if (year_digits == 2)
    year += year < 50 ? 2000 : 1900;
  else if (year_digits == 3)
    year += 1900;

  skip_spaces (&p);
  if (g_ascii_isdigit (*p))
    {
      if (!read_digits (&p, 1, 2, &hour) || *p++ != ':' || !read_digits (&p, 2, 2, &minute))
        return NULL;
      if (*p == ':')
        {
          p++;
          if (!read_digits (&p, 2, 2, &second))
            return NULL;
        }
    }
  if (hour > 23 || minute > 59 || second > 60)
    return NULL;

  skip_spaces (&p);
  if (!read_zone (&p, &offset))
    return NULL;

  return date_time_new (offset, year, month, day, hour, minute, second);
}

/**
 * lwn_date_parse_iso8601:
 * @text: (nullable): a W3C-DTF date (https://www.w3.org/TR/NOTE-datetime)
 *
 * Reads "YYYY", "YYYY-MM", "YYYY-MM-DD" and "YYYY-MM-DDThh:mm[:ss[.s]]"
 * with "Z", "±hh:mm", "±hhmm", "±hh" or no zone (taken as UTC); "t" or a
 * space may stand for "T". g_date_time_new_from_iso8601() reads most of
 * these forms, and this function reads the rest.
 *
 * Returns: (transfer full) (nullable): the time, or %NULL if @text is not
 *   such a date
 */
GDateTime *
lwn_date_parse_iso8601 (const char *text)
{
  g_autofree char *trimmed = NULL;

  if (text == NULL)
    return NULL;

  trimmed = g_strstrip (g_strdup (text));
  if (strstr (trimmed, ":60") == NULL)
    {
      g_autoptr (GTimeZone) utc = g_time_zone_new_utc ();
      GDateTime *date = g_date_time_new_from_iso8601 (trimmed, utc);

      if (date != NULL)
        return date;
    }
  return iso8601_by_hand (trimmed);
}

/* Finds the offset of the zone that curl_getdate() will apply. It returns
 * FALSE when curl_getdate() would misread the zone ("+05:30", "GMT+0200").
 * A zone name we do not know gives an offset of 0 and sets *known to FALSE.
 * A date with no zone is UTC. */
static gboolean
zone_for_curl (const char *text,
               int *offset,
               gboolean *known)
{
  const char *end = text + strlen (text);
  const char *token;
  gsize len;

  *offset = 0;
  *known = TRUE;

  /* In "-0800 (PST)", the comment in parentheses says nothing that the offset
   * does not say, so it is skipped. */
  if (end > text && end[-1] == ')')
    {
      const char *open = g_strrstr (text, "(");

      if (open != NULL)
        end = open;
    }
  while (end > text && g_ascii_isspace (end[-1]))
    end--;
  token = end;
  while (token > text && !g_ascii_isspace (token[-1]))
    token--;
  len = end - token;

  if ((*token == '+' || *token == '-') && len == 5)
    {
      for (gsize i = 1; i < len; i++)
        {
          if (!g_ascii_isdigit (token[i]))
            return FALSE;
        }
      return read_numeric_offset (&token, offset);
    }
  if (memchr (token, '+', len) != NULL || memchr (token, '-', len) != NULL)
    return FALSE;
  if (g_ascii_isalpha (*token))
    {
      for (guint i = 0; i < G_N_ELEMENTS (named_zones); i++)
        {
          if (strlen (named_zones[i].name) == len && g_ascii_strncasecmp (token, named_zones[i].name, len) == 0)
            {
              *offset = named_zones[i].hours * 3600;
              return TRUE;
            }
        }
      *known = FALSE;
    }
  return TRUE;
}

/* curl_getdate() carries a day past the month's end into the next month
 * ("31 Feb" becomes 3 March), so this checks that the month it read is the
 * month the text names. A leap second (23:59:60) is carried into the next
 * second, which is why a second try looks one second earlier. */
static gboolean
names_month_of (const char *text,
                GDateTime *date)
{
  g_autofree char *lower = g_ascii_strdown (text, -1);

  for (int back = 0; back <= 1; back++)
    {
      g_autoptr (GDateTime) moment = g_date_time_add_seconds (date, -back);

      if (moment != NULL && strstr (lower, month_names[g_date_time_get_month (moment) - 1]) != NULL)
        return TRUE;
    }
  return FALSE;
}

/**
 * lwn_date_parse_rfc822:
 * @text: (nullable): an RFC 822/1123 date as RSS uses it
 *
 * Reads "[Day,] DD Mon YYYY hh:mm[:ss] [zone]" leniently: the day name and
 * comma are optional, months may be spelt out, years may have 2 digits
 * (RFC 2822 section 4.3), the zone may be a name from RFC 822, "UTC", "Z",
 * or "±hhmm"/"±hh:mm"; a missing or unknown zone is taken as UTC.
 * curl_getdate() reads most of these dates, and this function reads the
 * rest. The result keeps the zone's offset when the zone is numeric or is
 * one that RFC 822 names.
 *
 * Returns: (transfer full) (nullable): the time, or %NULL if @text is not
 *   such a date
 */
GDateTime *
lwn_date_parse_rfc822 (const char *text)
{
  g_autofree char *trimmed = NULL;
  g_autoptr (GDateTime) utc = NULL;
  g_autoptr (GTimeZone) tz = NULL;
  GDateTime *date;
  gboolean known;
  int offset;
  time_t seconds;

  if (text == NULL)
    return NULL;

  trimmed = g_strstrip (g_strdup (text));
  if (!zone_for_curl (trimmed, &offset, &known))
    return rfc822_by_hand (trimmed);
  seconds = curl_getdate (trimmed, NULL);
  if (seconds == -1)
    return rfc822_by_hand (trimmed);

  utc = g_date_time_new_from_unix_utc (seconds);
  if (utc == NULL)
    return NULL;
  tz = offset == 0 ? g_time_zone_new_utc () : g_time_zone_new_offset (offset);
  date = g_date_time_to_timezone (utc, tz);
  if (date != NULL && known && !names_month_of (trimmed, date))
    g_clear_pointer (&date, g_date_time_unref);
  return date;
}

/**
 * lwn_date_parse:
 * @text: (nullable): a date in either W3C-DTF or RFC 822 form
 *
 * Feeds do not always use the form their format asks for, so both are
 * tried, W3C-DTF first.
 *
 * Returns: (transfer full) (nullable): the time, or %NULL
 */
GDateTime *
lwn_date_parse (const char *text)
{
  GDateTime *date = lwn_date_parse_iso8601 (text);

  if (date == NULL)
    date = lwn_date_parse_rfc822 (text);
  return date;
}
