/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests for LwnNotifier against notification servers in this process, on a private bus: what a server
 * receives when none was there, when one is replaced or comes back, when a feed's ids look like the
 * notifier's own names, when grouped announcements follow one another, and for reminders; and what the
 * notifier tells as shown. */

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lwn-headline.h"
#include "lwn-notifier-private.h"

#define NOTIFICATIONS_NAME "org.freedesktop.Notifications"
#define NOTIFICATIONS_PATH "/org/freedesktop/Notifications"
#define NOTIFICATIONS_IFACE "org.freedesktop.Notifications"
#define WAIT_SECONDS 10
#define SITE_NAME "Test"
#define SITE_URL "https://example.com/"
/* What the reading model asks for after a first run. */
#define MAX_SINGLE 3

/* RequestName flags and answer (D-Bus specification) */
#define NAME_ALLOW_REPLACEMENT 0x1
#define NAME_REPLACE_EXISTING 0x2
#define NAME_PRIMARY_OWNER 1

static const char server_xml[] = "<node><interface name='" NOTIFICATIONS_IFACE "'>"
                                 "<method name='GetServerInformation'><arg type='s' direction='out'/><arg type='s' direction='out'/>"
                                 "<arg type='s' direction='out'/><arg type='s' direction='out'/></method>"
                                 "<method name='GetCapabilities'><arg type='as' direction='out'/></method>"
                                 "<method name='Notify'><arg type='s'/><arg type='u'/><arg type='s'/><arg type='s'/><arg type='s'/>"
                                 "<arg type='as'/><arg type='a{sv}'/><arg type='i'/><arg type='u' direction='out'/></method>"
                                 "<method name='CloseNotification'><arg type='u'/></method>"
                                 "<signal name='NotificationClosed'><arg type='u'/><arg type='u'/></signal>"
                                 "<signal name='ActionInvoked'><arg type='u'/><arg type='s'/></signal>"
                                 "<signal name='ActivationToken'><arg type='u'/><arg type='s'/></signal>"
                                 "</interface></node>";

/* A notification server on its own connection: it records every call,
 * numbers notifications from its own first id, and can keep calls waiting. */
typedef struct
{
  GDBusConnection *connection;
  guint registration;
  char **caps;
  guint fail_server_info; /* GetServerInformation calls still to fail, as a server still starting may */
  gboolean hold_caps;
  gboolean fail_notify; /* Notify calls are refused, as a server may refuse what it cannot show */
  gboolean hold_notify;
  guint hold_notify_ms; /* how long Notify calls are held; 0 until the server leaves */
  guint release_id;
  GPtrArray *held;  /* GDBusMethodInvocation*, not answered yet */
  GPtrArray *calls; /* GVariant* (sv): method name and parameters, in order */
  guint32 next_id;
} MockServer;

typedef struct
{
  GTestDBus *dbus;
  GDBusConnection *bus; /* the notifier's */
  LwnNotifier *notifier;
  GPtrArray *opened; /* item ids of ::open */
  GPtrArray *tokens; /* activation tokens of ::open and ::show-all, "" for none */
  guint n_show_all;
  GPtrArray *shown; /* item ids of ::shown, in order */
} Fixture;

/* The mock server */

static guint32
mock_server_notify_id (MockServer *mock,
                       GVariant *parameters)
{
  guint32 replaces_id;

  g_variant_get_child (parameters, 1, "u", &replaces_id);
  return replaces_id != 0 ? replaces_id : mock->next_id++;
}

/* Answers the Notify calls it held. */
static gboolean
mock_server_release_cb (gpointer user_data)
{
  MockServer *mock = user_data;

  mock->release_id = 0;
  for (guint i = mock->held->len; i > 0; i--)
    {
      GDBusMethodInvocation *invocation = g_ptr_array_index (mock->held, i - 1);

      if (!g_str_equal (g_dbus_method_invocation_get_method_name (invocation), "Notify"))
        continue;
      g_dbus_method_invocation_return_value (
          g_object_ref (invocation),
          g_variant_new ("(u)", mock_server_notify_id (mock, g_dbus_method_invocation_get_parameters (invocation))));
      g_ptr_array_remove_index (mock->held, i - 1);
    }
  return G_SOURCE_REMOVE;
}

static void
mock_method_call (GDBusConnection *connection,
                  const char *sender,
                  const char *path,
                  const char *interface,
                  const char *method,
                  GVariant *parameters,
                  GDBusMethodInvocation *invocation,
                  gpointer user_data)
{
  MockServer *mock = user_data;

  g_ptr_array_add (mock->calls, g_variant_ref_sink (g_variant_new ("(s@*)", method, parameters)));

  /* libnotify asks before anything else, once per connection to a server. */
  if (g_str_equal (method, "GetServerInformation") && mock->fail_server_info > 0)
    {
      mock->fail_server_info--;
      g_dbus_method_invocation_return_dbus_error (invocation, "org.freedesktop.DBus.Error.Failed", "Not ready yet");
    }
  else if (g_str_equal (method, "GetServerInformation"))
    g_dbus_method_invocation_return_value (invocation, g_variant_new ("(ssss)", "lwn-test", "lwn-tray", "1.0", "1.2"));
  else if (g_str_equal (method, "GetCapabilities"))
    {
      /* The handler owns @invocation until it answers: a held call's reference moves to the array. */
      if (mock->hold_caps)
        g_ptr_array_add (mock->held, invocation);
      else
        g_dbus_method_invocation_return_value (invocation, g_variant_new ("(^as)", mock->caps));
    }
  else if (g_str_equal (method, "Notify") && mock->fail_notify)
    g_dbus_method_invocation_return_dbus_error (invocation, "org.freedesktop.DBus.Error.Failed", "Cannot show that");
  else if (g_str_equal (method, "Notify"))
    {
      if (!mock->hold_notify)
        g_dbus_method_invocation_return_value (invocation, g_variant_new ("(u)", mock_server_notify_id (mock, parameters)));
      else
        {
          g_ptr_array_add (mock->held, invocation);
          if (mock->hold_notify_ms > 0 && mock->release_id == 0)
            mock->release_id = g_timeout_add (mock->hold_notify_ms, mock_server_release_cb, mock);
        }
    }
  else
    g_dbus_method_invocation_return_value (invocation, NULL);
}

static const GDBusInterfaceVTable mock_vtable = { mock_method_call, NULL, NULL, { 0 } };

static MockServer *
mock_server_new (Fixture *fixture,
                 const char *caps,
                 guint32 first_id,
                 guint32 name_flags)
{
  MockServer *mock = g_new0 (MockServer, 1);
  g_autoptr (GError) error = NULL;
  g_autoptr (GDBusNodeInfo) info = g_dbus_node_info_new_for_xml (server_xml, &error);
  g_autoptr (GVariant) reply = NULL;
  guint32 answer;

  g_assert_no_error (error);
  mock->caps = g_strsplit (caps, " ", -1);
  mock->held = g_ptr_array_new_with_free_func (g_object_unref);
  mock->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);
  mock->next_id = first_id;
  mock->connection = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (fixture->dbus),
                                                             G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                             NULL, NULL, &error);
  g_assert_no_error (error);
  mock->registration = g_dbus_connection_register_object (mock->connection, NOTIFICATIONS_PATH, info->interfaces[0],
                                                          &mock_vtable, mock, NULL, &error);
  g_assert_no_error (error);

  reply = g_dbus_connection_call_sync (mock->connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "RequestName",
                                       g_variant_new ("(su)", NOTIFICATIONS_NAME, name_flags), G_VARIANT_TYPE ("(u)"),
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(u)", &answer);
  g_assert_cmpuint (answer, ==, NAME_PRIMARY_OWNER);
  return mock;
}

/* The server leaves the bus; calls it kept waiting are answered by the bus with an error. */
static void
mock_server_free (MockServer *mock)
{
  g_clear_handle_id (&mock->release_id, g_source_remove);
  g_dbus_connection_unregister_object (mock->connection, mock->registration);
  g_dbus_connection_close_sync (mock->connection, NULL, NULL);
  g_clear_object (&mock->connection);
  g_ptr_array_unref (mock->held);
  g_ptr_array_unref (mock->calls);
  g_strfreev (mock->caps);
  g_free (mock);
}

/* Answers the GetCapabilities calls it kept waiting. */
static void
mock_server_answer_caps (MockServer *mock)
{
  mock->hold_caps = FALSE;
  for (guint i = 0; i < mock->held->len; i++)
    {
      GDBusMethodInvocation *invocation = g_ptr_array_index (mock->held, i);

      g_assert_cmpstr (g_dbus_method_invocation_get_method_name (invocation), ==, "GetCapabilities");
      g_dbus_method_invocation_return_value (g_object_ref (invocation), g_variant_new ("(^as)", mock->caps));
    }
  g_ptr_array_set_size (mock->held, 0);
}

static void
mock_server_emit (MockServer *mock,
                  const char *signal,
                  GVariant *parameters)
{
  g_autoptr (GError) error = NULL;

  g_dbus_connection_emit_signal (mock->connection, NULL, NOTIFICATIONS_PATH, NOTIFICATIONS_IFACE, signal,
                                 parameters, &error);
  g_assert_no_error (error);
  g_dbus_connection_flush_sync (mock->connection, NULL, &error);
  g_assert_no_error (error);
}

/* The parameters of each call of @method, oldest first. */
static GPtrArray *
mock_server_calls (MockServer *mock,
                   const char *method)
{
  GPtrArray *found = g_ptr_array_new_with_free_func ((GDestroyNotify) g_variant_unref);

  for (guint i = 0; i < mock->calls->len; i++)
    {
      const char *name;
      GVariant *parameters;

      g_variant_get (g_ptr_array_index (mock->calls, i), "(&s@*)", &name, &parameters);
      if (g_str_equal (name, method))
        g_ptr_array_add (found, parameters);
      else
        g_variant_unref (parameters);
    }
  return found;
}

static guint
mock_server_count (MockServer *mock,
                   const char *method)
{
  g_autoptr (GPtrArray) calls = mock_server_calls (mock, method);

  return calls->len;
}

/* A Notify call as the server saw it; the strings are the call's. */
typedef struct
{
  guint32 replaces_id;
  const char *summary;
  const char *body;
  guint n_actions; /* identifiers, without their labels */
  gboolean has_default_action;
} Notify;

static Notify
notify_at (GPtrArray *calls,
           guint index)
{
  Notify notify = { 0 };
  g_autofree const char **actions = NULL;

  g_assert_cmpuint (index, <, calls->len);
  g_variant_get (g_ptr_array_index (calls, index), "(&su&s&s&s^a&s@a{sv}i)", NULL, &notify.replaces_id, NULL,
                 &notify.summary, &notify.body, &actions, NULL, NULL);
  /* The spec's list pairs each action's identifier with its label. */
  notify.n_actions = g_strv_length ((char **) actions) / 2;
  for (guint i = 0; actions[i] != NULL && actions[i + 1] != NULL; i += 2)
    if (g_str_equal (actions[i], "default"))
      notify.has_default_action = TRUE;
  return notify;
}

/* The @index-th CloseNotification call closed @id. */
static void
assert_closed (MockServer *mock,
               guint index,
               guint32 id)
{
  g_autoptr (GPtrArray) closes = mock_server_calls (mock, "CloseNotification");
  guint32 closed;

  g_assert_cmpuint (index, <, closes->len);
  g_variant_get (g_ptr_array_index (closes, index), "(u)", &closed);
  g_assert_cmpuint (closed, ==, id);
}

/* Waiting */

/* Every message sent before is received and dispatched: the notifier's
 * connection sees its answers and signals, each mock its calls, the
 * notification thread what libnotify received and the notifier its results. */
static void
settle (Fixture *fixture,
        MockServer *mock)
{
  for (guint round = 0; round < 3; round++)
    {
      g_autoptr (GVariant) reply = NULL;
      g_autoptr (GError) error = NULL;

      reply = g_dbus_connection_call_sync (fixture->bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                           "org.freedesktop.DBus", "GetId", NULL, NULL, G_DBUS_CALL_FLAGS_NONE, -1,
                                           NULL, &error);
      g_assert_no_error (error);
      if (mock != NULL)
        {
          g_clear_pointer (&reply, g_variant_unref);
          reply = g_dbus_connection_call_sync (mock->connection, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                               "org.freedesktop.DBus", "GetId", NULL, NULL, G_DBUS_CALL_FLAGS_NONE,
                                               -1, NULL, &error);
          g_assert_no_error (error);
        }
      g_assert_true (lwn_notifier_sync (fixture->notifier));
      while (g_main_context_iteration (NULL, FALSE))
        ;
    }
}

/* A server with every capability the notifier uses, numbering from 1, known to the notifier. */
static MockServer *
start_server (Fixture *fixture)
{
  MockServer *mock = mock_server_new (fixture, "actions body body-markup", 1, 0);

  settle (fixture, mock);
  return mock;
}

/* The person acts on notification @id, the server sending @activation_token (if not %NULL) first. */
static void
invoke_action (Fixture *fixture,
               MockServer *mock,
               guint32 id,
               const char *activation_token)
{
  if (activation_token != NULL)
    mock_server_emit (mock, "ActivationToken", g_variant_new ("(us)", id, activation_token));
  mock_server_emit (mock, "ActionInvoked", g_variant_new ("(us)", id, "default"));
  settle (fixture, mock);
}

/* Runs this thread's main context for @ms milliseconds. */
static void
iterate_for (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;

  while (g_get_monotonic_time () < end)
    {
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

static void
wait_calls (MockServer *mock,
            const char *method,
            guint count)
{
  gint64 deadline = g_get_monotonic_time () + WAIT_SECONDS * G_USEC_PER_SEC;

  while (mock_server_count (mock, method) < count)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("Timed out waiting for %u %s call(s); the server has %u", count, method,
                 mock_server_count (mock, method));
      g_main_context_iteration (NULL, FALSE);
      g_usleep (1000);
    }
}

/* The id, and link, of headline @number. */
static char *
item_url (guint number)
{
  return g_strdup_printf ("https://lwn.net/Articles/%u/", number);
}

/* Headlines, newest first: @n items numbered down from @newest. */
static GPtrArray *
make_items (guint newest,
            guint n)
{
  GPtrArray *items = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);

  for (guint i = 0; i < n; i++)
    {
      guint number = newest - i;
      g_autofree char *id = item_url (number);
      g_autofree char *title = g_strdup_printf ("Headline %u", number);
      g_autofree char *description = g_strdup_printf ("<p>Summary of %u</p>", number);

      g_ptr_array_add (items, lwn_feed_item_new (id, title, id, id, NULL, description, NULL, FALSE));
    }
  return items;
}

static LwnFeedItem *
make_item (const char *id,
           const char *title,
           const char *description)
{
  return lwn_feed_item_new (id, title, "https://lwn.net/Articles/1/", "https://lwn.net/Articles/1/", NULL,
                            description, NULL, FALSE);
}

static void
announce (Fixture *fixture,
          guint newest,
          guint n)
{
  g_autoptr (GPtrArray) items = make_items (newest, n);

  lwn_notifier_announce (fixture->notifier, items, MAX_SINGLE, NULL, SITE_NAME, SITE_URL);
}

/* As a feed of a set announces: under its own address and name. */
static void
announce_feed (Fixture *fixture,
               guint newest,
               guint n,
               const char *feed,
               const char *site_name)
{
  g_autoptr (GPtrArray) items = make_items (newest, n);

  lwn_notifier_announce (fixture->notifier, items, MAX_SINGLE, feed, site_name, SITE_URL);
}

/* The id a headline key names; the notifier speaks of headlines by key, its feed and id together. */
static char *
id_of_key (const char *key)
{
  char *id = NULL;

  if (!lwn_headline_key_split (key, NULL, &id))
    g_error ("%s is not a headline's key", key);
  return id;
}

/* Withdraws a headline that announce() announced: given no feed, the notifier knows its headlines
 * by the site's name. */
static void
withdraw_id (Fixture *fixture,
             const char *id)
{
  g_autofree char *key = lwn_headline_key_new (SITE_NAME, id);

  lwn_notifier_withdraw (fixture->notifier, key);
}

/* Withdraws headline @number of @feed, as the application does once it is read there. */
static void
withdraw_in (Fixture *fixture,
             const char *feed,
             guint number)
{
  g_autofree char *id = item_url (number);
  g_autofree char *key = lwn_headline_key_new (feed, id);

  lwn_notifier_withdraw (fixture->notifier, key);
}

static void
withdraw (Fixture *fixture,
          guint number)
{
  g_autofree char *id = item_url (number);

  withdraw_id (fixture, id);
}

/* The count a grouped notification's summary gives, 0 for any other. */
static guint
group_count (const char *summary)
{
  guint count = 0;
  char site[16] = "";

  if (sscanf (summary, "%u new headlines from %15s", &count, site) != 2 || !g_str_equal (site, SITE_NAME))
    return 0;
  return count;
}

static gint
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return g_strcmp0 (*(const char *const *) a, *(const char *const *) b);
}

static gint
compare_ids (gconstpointer a,
             gconstpointer b)
{
  guint32 first = *(const guint32 *) a;
  guint32 second = *(const guint32 *) b;

  return first < second ? -1 : first > second;
}

/* Fixture */

static void
open_cb (LwnNotifier *notifier,
         const char *item_id,
         const char *url,
         const char *activation_token,
         Fixture *fixture)
{
  g_ptr_array_add (fixture->opened, id_of_key (item_id));
  g_ptr_array_add (fixture->tokens, g_strdup (activation_token != NULL ? activation_token : ""));
}

static void
show_all_cb (LwnNotifier *notifier,
             const char *url,
             const char *activation_token,
             Fixture *fixture)
{
  fixture->n_show_all++;
  g_ptr_array_add (fixture->tokens, g_strdup (activation_token != NULL ? activation_token : ""));
}

static void
shown_cb (LwnNotifier *notifier,
          const char *const *item_ids,
          Fixture *fixture)
{
  for (guint i = 0; item_ids[i] != NULL; i++)
    g_ptr_array_add (fixture->shown, id_of_key (item_ids[i]));
}

static void
fixture_set_up (Fixture *fixture,
                gconstpointer data)
{
  g_autoptr (GError) error = NULL;

  fixture->dbus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_up (fixture->dbus);
  fixture->bus = g_dbus_connection_new_for_address_sync (g_test_dbus_get_bus_address (fixture->dbus),
                                                         G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                         NULL, NULL, &error);
  g_assert_no_error (error);
  fixture->opened = g_ptr_array_new_with_free_func (g_free);
  fixture->tokens = g_ptr_array_new_with_free_func (g_free);
  fixture->shown = g_ptr_array_new_with_free_func (g_free);
  fixture->notifier = lwn_notifier_new (fixture->bus);
  g_signal_connect (fixture->notifier, "open", G_CALLBACK (open_cb), fixture);
  g_signal_connect (fixture->notifier, "show-all", G_CALLBACK (show_all_cb), fixture);
  g_signal_connect (fixture->notifier, "shown", G_CALLBACK (shown_cb), fixture);
}

static void
fixture_tear_down (Fixture *fixture,
                   gconstpointer data)
{
  g_clear_object (&fixture->notifier);
  g_dbus_connection_close_sync (fixture->bus, NULL, NULL);
  g_clear_object (&fixture->bus);
  /* Results the notification thread posted before it stopped: each holds the thread's data until
   * this context runs it. */
  while (g_main_context_iteration (NULL, FALSE))
    ;
  g_test_dbus_down (fixture->dbus);
  g_clear_object (&fixture->dbus);
  g_ptr_array_unref (fixture->opened);
  g_ptr_array_unref (fixture->tokens);
  g_ptr_array_unref (fixture->shown);
}

/* ::shown told headlines @first to @last (by number), each once, and nothing else. */
static void
assert_shown_once (Fixture *fixture,
                   guint first,
                   guint last)
{
  g_autoptr (GHashTable) told = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < fixture->shown->len; i++)
    {
      const char *id = g_ptr_array_index (fixture->shown, i);

      if (g_hash_table_contains (told, id))
        g_error ("%s was told as shown twice", id);
      g_hash_table_add (told, (char *) id);
    }
  for (guint number = first; number <= last; number++)
    {
      g_autofree char *id = item_url (number);

      if (!g_hash_table_contains (told, id))
        g_error ("%s was not told as shown", id);
    }
  g_assert_cmpuint (fixture->shown->len, ==, last - first + 1);
}

/* Tests */

static void
test_no_server_bounded (Fixture *fixture,
                        gconstpointer data)
{
  guint announced = 0;
  guint kept_halfway = 0;
  guint shown = 0;
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  g_autoptr (GHashTable) titles = g_hash_table_new (g_str_hash, g_str_equal);

  g_test_summary ("With no notification server, what waits for one stays bounded however many headlines "
                  "arrive, and a server that appears gets all of them, each once; only then are they told as shown");

  settle (fixture, NULL);
  for (guint round = 1; round <= 400; round++)
    {
      /* Small batches that get a notification each, and larger ones that are grouped. */
      guint n = round % 4 == 0 ? 10 : 2;

      announce (fixture, announced + n, n);
      announced += n;
      settle (fixture, NULL);
      if (round == 200)
        kept_halfway = lwn_notifier_count_kept (fixture->notifier);
    }
  g_test_message ("kept for %u headlines: %u halfway, %u at the end", announced, kept_halfway,
                  lwn_notifier_count_kept (fixture->notifier));
  g_assert_cmpuint (kept_halfway, <, announced / 2);
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), <=, kept_halfway + MAX_SINGLE);
  g_assert_cmpuint (fixture->shown->len, ==, 0);

  mock = start_server (fixture);
  wait_calls (mock, "Notify", 1);
  settle (fixture, mock);
  g_assert_cmpuint (mock_server_count (mock, "GetCapabilities"), ==, 1);

  /* One grouped notification and at most a few single ones: every headline in one of them. */
  notifies = mock_server_calls (mock, "Notify");
  g_assert_cmpuint (notifies->len, <=, 1 + MAX_SINGLE);
  for (guint i = 0; i < notifies->len; i++)
    {
      Notify notify = notify_at (notifies, i);
      guint count = group_count (notify.summary);

      g_assert_cmpuint (notify.replaces_id, ==, 0);
      if (count > 0)
        shown += count;
      else
        {
          g_assert_true (g_str_has_prefix (notify.summary, "Headline "));
          g_assert_false (g_hash_table_contains (titles, notify.summary));
          g_hash_table_add (titles, (char *) notify.summary);
          shown++;
        }
    }
  g_assert_cmpuint (shown, ==, announced);
  /* Every one is told as shown, also those the group counts without knowing them by id. */
  assert_shown_once (fixture, 1, announced);
  mock_server_free (mock);
}

static void
test_server_returns (Fixture *fixture,
                     gconstpointer data)
{
  MockServer *first;
  MockServer *second;
  g_autoptr (GPtrArray) notifies = NULL;
  g_autoptr (GPtrArray) summaries = g_ptr_array_new ();

  g_test_summary ("A server that vanishes and comes back gets what was not shown yet: what was announced "
                  "while it was away and what it left unanswered, once each, and nothing it showed before; each "
                  "headline is told as shown once");

  first = start_server (fixture);
  announce (fixture, 2, 2);
  wait_calls (first, "Notify", 2);

  /* It takes the next one and vanishes without answering. */
  first->hold_notify = TRUE;
  announce (fixture, 3, 1);
  wait_calls (first, "Notify", 3);
  g_clear_pointer (&first, mock_server_free);
  settle (fixture, NULL);

  /* While no server is there: one more, then enough for a group. */
  announce (fixture, 4, 1);
  announce (fixture, 11, 7);
  settle (fixture, NULL);

  second = mock_server_new (fixture, "actions body body-markup", 101, 0);
  wait_calls (second, "Notify", 3);
  settle (fixture, second);
  g_assert_cmpuint (mock_server_count (second, "GetCapabilities"), ==, 1);

  notifies = mock_server_calls (second, "Notify");
  for (guint i = 0; i < notifies->len; i++)
    {
      Notify notify = notify_at (notifies, i);

      /* The new server knows none of the old one's ids. */
      g_assert_cmpuint (notify.replaces_id, ==, 0);
      g_ptr_array_add (summaries, (char *) notify.summary);
    }
  g_ptr_array_sort (summaries, compare_strings);
  g_assert_cmpuint (summaries->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (summaries, 0), ==, "7 new headlines from " SITE_NAME);
  g_assert_cmpstr (g_ptr_array_index (summaries, 1), ==, "Headline 3");
  g_assert_cmpstr (g_ptr_array_index (summaries, 2), ==, "Headline 4");
  /* What the first showed, and what the second showed of the rest, each told once. */
  assert_shown_once (fixture, 1, 11);
  mock_server_free (second);
}

static void
test_capabilities_owner_change (Fixture *fixture,
                                gconstpointer data)
{
  MockServer *old_server;
  MockServer *new_server;
  g_autoptr (GPtrArray) notifies = NULL;
  g_autoptr (LwnFeedItem) item = make_item ("https://lwn.net/Articles/1/", "Fish", "<p>Fish &amp; chips</p>");
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  Notify notify;

  g_test_summary ("Capabilities are asked once per server: an answer from a server that was replaced "
                  "is not taken for its successor's");

  /* A server without actions or markup, slow to say so. */
  old_server = mock_server_new (fixture, "body", 1, NAME_ALLOW_REPLACEMENT);
  old_server->hold_caps = TRUE;
  settle (fixture, old_server);
  g_ptr_array_add (items, item);
  lwn_notifier_announce (fixture->notifier, items, MAX_SINGLE, NULL, SITE_NAME, SITE_URL);
  wait_calls (old_server, "GetCapabilities", 1);

  /* A server with both takes over before the first answers. */
  new_server = mock_server_new (fixture, "actions body body-markup", 101, NAME_REPLACE_EXISTING);
  new_server->hold_caps = TRUE;

  /* The old server's answer comes late: nothing is sent on its word. libnotify asks one server at
   * a time, so the new one is asked once the old one has answered. */
  mock_server_answer_caps (old_server);
  wait_calls (new_server, "GetCapabilities", 1);
  /* The notification thread waits for the new server's answer: only this thread can settle now. A
   * Notify sent on the old server's word would reach the new server after its answer, and be
   * counted below. */
  iterate_for (100);
  g_assert_cmpuint (mock_server_count (new_server, "Notify"), ==, 0);

  mock_server_answer_caps (new_server);
  wait_calls (new_server, "Notify", 1);
  settle (fixture, new_server);

  notifies = mock_server_calls (new_server, "Notify");
  g_assert_cmpuint (notifies->len, ==, 1);
  notify = notify_at (notifies, 0);
  g_assert_cmpstr (notify.summary, ==, "Fish");
  g_assert_cmpstr (notify.body, ==, "Fish &amp; chips");
  g_assert_true (notify.has_default_action);
  g_assert_cmpuint (mock_server_count (new_server, "GetCapabilities"), ==, 1);
  g_assert_cmpuint (mock_server_count (old_server, "GetCapabilities"), ==, 1);
  g_assert_cmpuint (mock_server_count (old_server, "Notify"), ==, 0);
  mock_server_free (new_server);
  mock_server_free (old_server);
}

static void
test_capabilities_none (Fixture *fixture,
                        gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  g_autoptr (LwnFeedItem) item = make_item ("https://lwn.net/Articles/1/", "Fish", "<p>Fish &amp; chips</p>");
  g_autoptr (GPtrArray) items = g_ptr_array_new ();
  Notify notify;

  g_test_summary ("A server that lists no capabilities, as the spec allows, gets notifications: plain text "
                  "without actions");

  mock = mock_server_new (fixture, "", 1, 0);
  settle (fixture, mock);
  g_ptr_array_add (items, item);
  lwn_notifier_announce (fixture->notifier, items, MAX_SINGLE, NULL, SITE_NAME, SITE_URL);
  wait_calls (mock, "Notify", 1);
  settle (fixture, mock);

  notifies = mock_server_calls (mock, "Notify");
  g_assert_cmpuint (notifies->len, ==, 1);
  notify = notify_at (notifies, 0);
  g_assert_cmpstr (notify.summary, ==, "Fish");
  g_assert_cmpstr (notify.body, ==, "Fish & chips");
  g_assert_cmpuint (notify.n_actions, ==, 0);
  g_assert_cmpuint (mock_server_count (mock, "GetCapabilities"), ==, 1);
  mock_server_free (mock);
}

static void
test_capabilities_retry (Fixture *fixture,
                         gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  g_autoptr (GPtrArray) summaries = g_ptr_array_new ();
  gint64 started;

  g_test_summary ("A server that answers with an error, as one that took its name before it takes calls "
                  "does, is asked again a second later, then two seconds after that: not at every "
                  "announcement, and without waiting for one; it then gets every headline that waited");

  mock = mock_server_new (fixture, "actions body body-markup", 1, 0);
  mock->fail_server_info = 2;
  settle (fixture, mock);
  started = g_get_monotonic_time ();
  announce (fixture, 1, 1);
  wait_calls (mock, "GetServerInformation", 1);
  announce (fixture, 2, 1);
  settle (fixture, mock);

  /* No announcement comes after these two. */
  wait_calls (mock, "Notify", 2);
  settle (fixture, mock);
  g_test_message ("the headlines went out %.1f s after the first announcement",
                  (double) (g_get_monotonic_time () - started) / G_TIME_SPAN_SECOND);
  g_assert_cmpint (g_get_monotonic_time () - started, >=, 3 * G_TIME_SPAN_SECOND);
  /* Asked before each of the three requests for what it takes, and by libnotify once more before the
   * first notification of a server that answered. */
  g_assert_cmpuint (mock_server_count (mock, "GetServerInformation"), >=, 3);
  g_assert_cmpuint (mock_server_count (mock, "GetServerInformation"), <=, 4);

  notifies = mock_server_calls (mock, "Notify");
  g_assert_cmpuint (notifies->len, ==, 2);
  for (guint i = 0; i < notifies->len; i++)
    {
      Notify notify = notify_at (notifies, i);

      g_assert_true (notify.has_default_action);
      g_ptr_array_add (summaries, (char *) notify.summary);
    }
  g_ptr_array_sort (summaries, compare_strings);
  g_assert_cmpstr (g_ptr_array_index (summaries, 0), ==, "Headline 1");
  g_assert_cmpstr (g_ptr_array_index (summaries, 1), ==, "Headline 2");
  g_assert_cmpuint (mock_server_count (mock, "GetCapabilities"), ==, 1);
  mock_server_free (mock);
}

static void
test_item_ids_apart (Fixture *fixture,
                     gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  g_autoptr (GPtrArray) items = g_ptr_array_new_with_free_func ((GDestroyNotify) lwn_feed_item_unref);
  Notify notify;

  g_test_summary ("A feed item whose id is spelt like the notifier's own names gets a notification of its "
                  "own: it neither takes the grouped one or the applet's message, nor is taken by them");

  mock = start_server (fixture);

  g_ptr_array_add (items, make_item ("lwn-tray:group", "Group look-alike", "<p>Not a group</p>"));
  g_ptr_array_add (items, make_item ("lwn-tray:message", "Message look-alike", "<p>Not a message</p>"));
  lwn_notifier_announce (fixture->notifier, items, MAX_SINGLE, NULL, SITE_NAME, SITE_URL);
  wait_calls (mock, "Notify", 2);

  announce (fixture, 105, 5);
  lwn_notifier_show_message (fixture->notifier, "A message", "About the applet");
  wait_calls (mock, "Notify", 4);
  settle (fixture, mock);

  notifies = mock_server_calls (mock, "Notify");
  g_assert_cmpuint (notifies->len, ==, 4);
  for (guint i = 0; i < notifies->len; i++)
    {
      notify = notify_at (notifies, i);
      g_assert_cmpuint (notify.replaces_id, ==, 0);
    }

  /* Ids 1 and 2 are the items', 3 the group's. */
  invoke_action (fixture, mock, 1, NULL);
  g_assert_cmpuint (fixture->opened->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (fixture->opened, 0), ==, "lwn-tray:group");
  g_assert_cmpuint (fixture->n_show_all, ==, 0);
  invoke_action (fixture, mock, 3, NULL);
  g_assert_cmpuint (fixture->n_show_all, ==, 1);

  /* Reading the look-alikes closes theirs, not the group or the message. */
  withdraw_id (fixture, "lwn-tray:group");
  wait_calls (mock, "CloseNotification", 1);
  withdraw_id (fixture, "lwn-tray:message");
  wait_calls (mock, "CloseNotification", 2);
  settle (fixture, mock);
  g_assert_cmpuint (mock_server_count (mock, "CloseNotification"), ==, 2);
  assert_closed (mock, 0, 1);
  assert_closed (mock, 1, 2);
  mock_server_free (mock);
}

static void
test_group_total (Fixture *fixture,
                  gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  Notify notify;
  guint32 group_id;

  g_test_summary ("A grouped notification still shown is updated in place with every new headline it has "
                  "announced; once closed, the next batch starts from its own count");

  mock = start_server (fixture);

  announce (fixture, 7, 7);
  wait_calls (mock, "Notify", 1);
  announce (fixture, 12, 5);
  wait_calls (mock, "Notify", 2);
  settle (fixture, mock);

  notifies = mock_server_calls (mock, "Notify");
  notify = notify_at (notifies, 0);
  g_assert_cmpstr (notify.summary, ==, "7 new headlines from " SITE_NAME);
  group_id = 1;
  notify = notify_at (notifies, 1);
  g_assert_cmpuint (notify.replaces_id, ==, group_id);
  g_assert_cmpstr (notify.summary, ==, "12 new headlines from " SITE_NAME);
  g_assert_true (g_str_has_prefix (notify.body, "• Headline 12\n• Headline 11\n"));
  g_assert_true (g_str_has_suffix (notify.body, "\nand 7 more"));
  g_assert_true (notify.has_default_action);

  /* The person closes it: the next batch is news of its own. */
  mock_server_emit (mock, "NotificationClosed", g_variant_new ("(uu)", group_id, 2));
  settle (fixture, mock);
  announce (fixture, 16, 4);
  wait_calls (mock, "Notify", 3);
  g_clear_pointer (&notifies, g_ptr_array_unref);
  notifies = mock_server_calls (mock, "Notify");
  notify = notify_at (notifies, 2);
  g_assert_cmpuint (notify.replaces_id, ==, 0);
  g_assert_cmpstr (notify.summary, ==, "4 new headlines from " SITE_NAME);
  mock_server_free (mock);
}

static void
test_group_read (Fixture *fixture,
                 gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  Notify notify;

  g_test_summary ("A grouped notification counts only the headlines not read since, and is closed once "
                  "all of them are");

  mock = start_server (fixture);

  announce (fixture, 4, 4);
  wait_calls (mock, "Notify", 1);
  /* Reading one does not pop the notification up again. */
  withdraw (fixture, 3);
  settle (fixture, mock);
  g_assert_cmpuint (mock_server_count (mock, "Notify"), ==, 1);
  g_assert_cmpuint (mock_server_count (mock, "CloseNotification"), ==, 0);

  announce (fixture, 10, 6);
  wait_calls (mock, "Notify", 2);
  notifies = mock_server_calls (mock, "Notify");
  notify = notify_at (notifies, 1);
  g_assert_cmpuint (notify.replaces_id, ==, 1);
  g_assert_cmpstr (notify.summary, ==, "9 new headlines from " SITE_NAME);

  for (guint number = 1; number <= 10; number++)
    if (number != 3)
      withdraw (fixture, number);
  wait_calls (mock, "CloseNotification", 1);
  settle (fixture, mock);
  g_assert_cmpuint (mock_server_count (mock, "CloseNotification"), ==, 1);
  assert_closed (mock, 0, 1);
  g_assert_cmpuint (mock_server_count (mock, "Notify"), ==, 2);
  mock_server_free (mock);
}

static void
test_group_per_feed (Fixture *fixture,
                     gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  g_autoptr (GPtrArray) lwn = make_items (20, 5);
  g_autoptr (GPtrArray) debian = make_items (40, 4);
  g_autoptr (GPtrArray) more_lwn = make_items (22, 2);
  Notify notify;

  g_test_summary ("Each feed has a grouped notification of its own, also beside a feed of the same name, "
                  "counted and withdrawn on its own, and updated in place while it is shown; an article two "
                  "feeds carry leaves each group once read in it, and a headline of one feed never leaves "
                  "another's group, whatever id they share");

  mock = start_server (fixture);

  lwn_notifier_announce (fixture->notifier, lwn, MAX_SINGLE, "https://lwn.net/headlines/rss", "LWN.net", "https://lwn.net/");
  wait_calls (mock, "Notify", 1);
  lwn_notifier_announce (fixture->notifier, debian, MAX_SINGLE, "https://www.debian.org/News/news", "Debian News",
                         "https://www.debian.org/");
  wait_calls (mock, "Notify", 2);
  settle (fixture, mock);
  notifies = mock_server_calls (mock, "Notify");
  notify = notify_at (notifies, 0);
  g_assert_cmpstr (notify.summary, ==, "5 new headlines from LWN.net");
  notify = notify_at (notifies, 1);
  g_assert_cmpuint (notify.replaces_id, ==, 0);
  g_assert_cmpstr (notify.summary, ==, "4 new headlines from Debian News");
  g_assert_true (g_str_has_prefix (notify.body, "• Headline 40\n"));

  /* More from LWN.net update its own group, not Debian's. */
  lwn_notifier_announce (fixture->notifier, more_lwn, 1, "https://lwn.net/headlines/rss", "LWN.net", "https://lwn.net/");
  wait_calls (mock, "Notify", 3);
  g_clear_pointer (&notifies, g_ptr_array_unref);
  notifies = mock_server_calls (mock, "Notify");
  notify = notify_at (notifies, 2);
  g_assert_cmpuint (notify.replaces_id, ==, 1);
  g_assert_cmpstr (notify.summary, ==, "7 new headlines from LWN.net");

  /* A second feed of the same name, carrying one of LWN's articles: a
   * group of its own. Read in LWN's feed, the article leaves LWN's group
   * only; the application reads it in the other feed too (the same article
   * address), which takes it out of that group as well. */
  {
    g_autoptr (GPtrArray) features = make_items (20, 4);

    lwn_notifier_announce (fixture->notifier, features, MAX_SINGLE, "https://lwn.net/headlines/Features", "LWN.net",
                           "https://lwn.net/");
    wait_calls (mock, "Notify", 4);
    g_clear_pointer (&notifies, g_ptr_array_unref);
    notifies = mock_server_calls (mock, "Notify");
    notify = notify_at (notifies, 3);
    g_assert_cmpuint (notify.replaces_id, ==, 0);
    g_assert_cmpstr (notify.summary, ==, "4 new headlines from LWN.net");
    g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 3 + 7 + 4 + 4);
    withdraw_in (fixture, "https://lwn.net/headlines/rss", 20);
    settle (fixture, mock);
    g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 3 + 6 + 4 + 4);
    withdraw_in (fixture, "https://lwn.net/headlines/Features", 20);
    settle (fixture, mock);
    g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 3 + 6 + 4 + 3);
    /* An id of Debian's feed is nothing in LWN's. */
    withdraw_in (fixture, "https://www.debian.org/News/news", 19);
    settle (fixture, mock);
    g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 3 + 6 + 4 + 3);
    for (guint number = 17; number <= 19; number++)
      withdraw_in (fixture, "https://lwn.net/headlines/Features", number);
    wait_calls (mock, "CloseNotification", 1);
    settle (fixture, mock);
    assert_closed (mock, 0, 3);
  }

  /* Debian's read one by one: its group closes, LWN's stays. */
  for (guint number = 37; number <= 40; number++)
    withdraw_in (fixture, "https://www.debian.org/News/news", number);
  wait_calls (mock, "CloseNotification", 2);
  settle (fixture, mock);
  g_assert_cmpuint (mock_server_count (mock, "CloseNotification"), ==, 2);
  assert_closed (mock, 1, 2);
  /* LWN's group still counts its six: what was read in the Features feed was that feed's. */
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 1 + 6);

  /* Mark all as read: every group goes. */
  lwn_notifier_withdraw_all (fixture->notifier);
  wait_calls (mock, "CloseNotification", 3);
  settle (fixture, mock);
  assert_closed (mock, 2, 1);
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 0);
  mock_server_free (mock);
}

#define FEED_A "https://a.example/feed"
#define FEED_B "https://b.example/feed"
#define FEED_C "https://c.example/feed"

/* A server comes, and shows what waited for one: @n notifications. */
static MockServer *
server_shows_waiting (Fixture *fixture,
                      guint n,
                      GPtrArray **notifies)
{
  MockServer *mock = mock_server_new (fixture, "actions body body-markup", 1, 0);

  wait_calls (mock, "Notify", n);
  settle (fixture, mock);
  *notifies = mock_server_calls (mock, "Notify");
  g_assert_cmpuint ((*notifies)->len, ==, n);
  return mock;
}

static void
test_withdraw_feed_waiting (Fixture *fixture,
                            gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;

  g_test_summary ("A feed no longer followed while no server is there takes its waiting notifications with it, "
                  "its headlines' own and its group: the next server shows only the other feed's, and only "
                  "those are told as shown");

  settle (fixture, NULL);
  announce_feed (fixture, 1, 1, FEED_A, "A");
  announce_feed (fixture, 2, 1, FEED_B, "B");
  announce_feed (fixture, 15, 5, FEED_A, "A");
  settle (fixture, NULL);
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 1 + 1 + 1 + 5);

  lwn_notifier_withdraw_feed (fixture->notifier, FEED_A);
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 1);

  mock = server_shows_waiting (fixture, 1, &notifies);
  g_assert_cmpstr (notify_at (notifies, 0).summary, ==, "Headline 2");
  assert_shown_once (fixture, 2, 2);
  mock_server_free (mock);
}

static void
test_withdraw_feed_own_group (Fixture *fixture,
                              gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  g_autoptr (GHashTable) summaries = g_hash_table_new (g_str_hash, g_str_equal);

  g_test_summary ("While no server is there, a feed's group takes over its own waiting notifications only, so "
                  "that it names their feed and another feed loses none when it goes");

  settle (fixture, NULL);
  announce_feed (fixture, 1, 1, FEED_A, "A");
  announce_feed (fixture, 2, 1, FEED_B, "B");
  announce_feed (fixture, 13, 3, FEED_C, "C");
  /* More of C's than may wait one by one: C's group takes over C's. */
  announce_feed (fixture, 14, 1, FEED_C, "C");
  settle (fixture, NULL);
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 2 + 1 + 4);

  lwn_notifier_withdraw_feed (fixture->notifier, FEED_C);
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 2);

  mock = server_shows_waiting (fixture, 2, &notifies);
  for (guint i = 0; i < notifies->len; i++)
    g_hash_table_add (summaries, (char *) notify_at (notifies, i).summary);
  g_assert_true (g_hash_table_contains (summaries, "Headline 1"));
  g_assert_true (g_hash_table_contains (summaries, "Headline 2"));
  assert_shown_once (fixture, 1, 2);
  g_assert_cmpuint (fixture->shown->len, ==, 2);
  mock_server_free (mock);
}

/* The ids the server was asked to close, in ascending order. */
static GArray *
closed_ids (MockServer *mock)
{
  g_autoptr (GPtrArray) closes = mock_server_calls (mock, "CloseNotification");
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint32));

  for (guint i = 0; i < closes->len; i++)
    {
      guint32 id;

      g_variant_get (g_ptr_array_index (closes, i), "(u)", &id);
      g_array_append_val (ids, id);
    }
  g_array_sort (ids, compare_ids);
  return ids;
}

static void
test_withdraw_feed_shown (Fixture *fixture,
                          gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GArray) closed = NULL;
  g_autofree char *reminded = item_url (1);

  g_test_summary ("A feed no longer followed takes its shown notifications with it, its headlines' own and its "
                  "group; another feed's stay, its own notification of an id both feeds sent too, and a "
                  "reminder");

  mock = start_server (fixture);
  announce_feed (fixture, 1, 1, FEED_A, "A");
  wait_calls (mock, "Notify", 1);
  announce_feed (fixture, 2, 1, FEED_B, "B");
  wait_calls (mock, "Notify", 2);
  announce_feed (fixture, 5, 1, FEED_A, "A");
  wait_calls (mock, "Notify", 3);
  settle (fixture, mock);
  announce_feed (fixture, 5, 1, FEED_B, "B");
  wait_calls (mock, "Notify", 4);
  announce_feed (fixture, 15, 5, FEED_A, "A");
  wait_calls (mock, "Notify", 5);
  lwn_notifier_remind (fixture->notifier, reminded, "Article 1", reminded);
  wait_calls (mock, "Notify", 6);
  settle (fixture, mock);
  /* Ids: 1 and 2 for the single headlines, 3 and 4 for the id each feed sent (a notification each: an id
   * is its feed's), 5 A's group, 6 the reminder. */
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 4 + 1 + 5 + 1);

  lwn_notifier_withdraw_feed (fixture->notifier, FEED_A);
  wait_calls (mock, "CloseNotification", 3);
  settle (fixture, mock);
  closed = closed_ids (mock);
  g_assert_cmpuint (closed->len, ==, 3);
  g_assert_cmpuint (g_array_index (closed, guint32, 0), ==, 1);
  g_assert_cmpuint (g_array_index (closed, guint32, 1), ==, 3);
  g_assert_cmpuint (g_array_index (closed, guint32, 2), ==, 5);
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 3);

  lwn_notifier_withdraw_feed (fixture->notifier, FEED_B);
  wait_calls (mock, "CloseNotification", 5);
  settle (fixture, mock);
  g_clear_pointer (&closed, g_array_unref);
  closed = closed_ids (mock);
  g_assert_cmpuint (closed->len, ==, 5);
  for (guint i = 0; i < closed->len; i++)
    g_assert_cmpuint (g_array_index (closed, guint32, i), ==, i + 1);
  /* The reminder. */
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 1);
  mock_server_free (mock);
}

static void
test_group_large (Fixture *fixture,
                  gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) items = make_items (1200, 1200);
  g_autoptr (GPtrArray) notifies = NULL;
  Notify notify;

  g_test_summary ("A first run of a 1,200-item feed is one notification that counts every item, and the "
                  "notifier keeps a bounded part of it; every item is told as shown");

  mock = start_server (fixture);
  lwn_notifier_announce (fixture->notifier, items, 1, NULL, SITE_NAME, SITE_URL);
  wait_calls (mock, "Notify", 1);
  settle (fixture, mock);

  notifies = mock_server_calls (mock, "Notify");
  g_assert_cmpuint (notifies->len, ==, 1);
  notify = notify_at (notifies, 0);
  g_assert_cmpstr (notify.summary, ==, "1200 new headlines from " SITE_NAME);
  g_assert_true (g_str_has_prefix (notify.body, "• Headline 1200\n"));
  g_assert_true (g_str_has_suffix (notify.body, "\nand 1195 more"));
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), <, 1200 / 2);
  assert_shown_once (fixture, 1, 1200);
  mock_server_free (mock);
}

static void
test_activation_token (Fixture *fixture,
                       gconstpointer data)
{
  MockServer *mock;

  g_test_summary ("The activation token a server sends just before an action travels with that action, to "
                  "the headline's and to the group's; an action without one has none");

  mock = start_server (fixture);
  announce (fixture, 1, 1);
  wait_calls (mock, "Notify", 1);
  announce (fixture, 15, 5);
  wait_calls (mock, "Notify", 2);
  settle (fixture, mock);

  /* Id 1 is the headline's, 2 the group's. */
  invoke_action (fixture, mock, 1, "token-for-1");
  invoke_action (fixture, mock, 1, NULL);
  invoke_action (fixture, mock, 2, "token-for-2");

  g_assert_cmpuint (fixture->opened->len, ==, 2);
  g_assert_cmpuint (fixture->n_show_all, ==, 1);
  g_assert_cmpuint (fixture->tokens->len, ==, 3);
  g_assert_cmpstr (g_ptr_array_index (fixture->tokens, 0), ==, "token-for-1");
  g_assert_cmpstr (g_ptr_array_index (fixture->tokens, 1), ==, "");
  g_assert_cmpstr (g_ptr_array_index (fixture->tokens, 2), ==, "token-for-2");
  mock_server_free (mock);
}

/* Everything the notifier takes, once its thread has stopped. */
static void
use_disposed (LwnNotifier *notifier)
{
  g_autoptr (GPtrArray) one = make_items (2, 1);
  g_autoptr (GPtrArray) many = make_items (12, 10);
  g_autofree char *first = item_url (1);

  lwn_notifier_announce (notifier, one, MAX_SINGLE, NULL, SITE_NAME, SITE_URL);
  lwn_notifier_announce (notifier, many, MAX_SINGLE, NULL, SITE_NAME, SITE_URL);
  lwn_notifier_show_message (notifier, "A message", "About the applet");
  lwn_notifier_remind (notifier, first, "Now free", first);
  lwn_notifier_withdraw (notifier, first);
  lwn_notifier_withdraw_all (notifier);
}

static void
test_disposed (Fixture *fixture,
               gconstpointer data)
{
  MockServer *mock;
  g_autoptr (LwnNotifier) unasked = NULL;

  g_test_summary ("A notifier already disposed of, as when a last reference outlives quitting, takes "
                  "announcements, messages and withdrawals and sends nothing, whether it knew a server or not");

  mock = start_server (fixture);
  announce (fixture, 1, 1);
  wait_calls (mock, "Notify", 1);
  settle (fixture, mock);
  g_object_run_dispose (G_OBJECT (fixture->notifier));
  use_disposed (fixture->notifier);

  /* One that never asked a server what it takes. */
  unasked = lwn_notifier_new (fixture->bus);
  g_object_run_dispose (G_OBJECT (unasked));
  use_disposed (unasked);

  iterate_for (100);
  g_assert_false (lwn_notifier_sync (fixture->notifier));
  g_assert_cmpuint (mock_server_count (mock, "Notify"), ==, 1);
  g_assert_cmpuint (mock_server_count (mock, "GetCapabilities"), ==, 1);
  mock_server_free (mock);
}

/* Runs this thread's main context until the notification thread answers a ping: it does once the
 * call that holds it has timed out. */
static void
wait_thread_free (Fixture *fixture)
{
  gint64 deadline = g_get_monotonic_time () + 60 * G_TIME_SPAN_SECOND;

  while (!lwn_notifier_sync (fixture->notifier))
    if (g_get_monotonic_time () > deadline)
      g_error ("The notification thread stayed held for a minute");
  while (g_main_context_iteration (NULL, FALSE))
    ;
}

static void
test_hung_server_announce (Fixture *fixture,
                           gconstpointer data)
{
  MockServer *mock;
  guint newest = 2;
  guint n_notify;
  guint kept_halfway = 0;
  gint64 started;

  g_test_summary ("A server that keeps its name but stops answering is known as such after one call has timed "
                  "out: later announcements neither send again what it did not answer nor hold the notification "
                  "thread, what waits stays bounded, and delivery resumes once the server answers again");

  mock = start_server (fixture);
  announce (fixture, 1, 1);
  wait_calls (mock, "Notify", 1);
  settle (fixture, mock);

  /* The server stops answering, and the call for headline 2 times out on the notifier's side. */
  mock->hold_notify = TRUE;
  announce (fixture, 2, 1);
  wait_calls (mock, "Notify", 2);
  started = g_get_monotonic_time ();
  wait_thread_free (fixture);
  g_test_message ("the held call was given up after %" G_GINT64_FORMAT " s",
                  (g_get_monotonic_time () - started) / G_TIME_SPAN_SECOND);

  /* Many announcements, one headline each: none reaches the server, and settle() would fail if the
   * notification thread were held again. */
  for (guint round = 1; round <= 600; round++)
    {
      announce (fixture, ++newest, 1);
      settle (fixture, mock);
      if (round == 300)
        kept_halfway = lwn_notifier_count_kept (fixture->notifier);
    }
  lwn_notifier_remind (fixture->notifier, "https://lwn.net/Articles/1/", "Headline 1", "https://lwn.net/Articles/1/");
  settle (fixture, mock);
  g_assert_cmpuint (mock_server_count (mock, "Notify"), ==, 2);
  g_test_message ("kept while the server did not answer: %u halfway, %u at the end", kept_halfway,
                  lwn_notifier_count_kept (fixture->notifier));
  /* Halfway, 300 headlines were announced. */
  g_assert_cmpuint (kept_halfway, <, 300);
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), <=, kept_halfway + MAX_SINGLE + 1);
  g_assert_cmpuint (fixture->shown->len, ==, 1);

  /* Once the retry interval has passed, the next announcement tries the server with one
   * notification, which it leaves unanswered too: the interval starts again from then, so the next
   * announcement, within it, does not try again. */
  lwn_notifier_set_retry_interval (fixture->notifier, 0);
  announce (fixture, ++newest, 1);
  wait_calls (mock, "Notify", 3);
  lwn_notifier_set_retry_interval (fixture->notifier, 10 * G_TIME_SPAN_SECOND);
  wait_thread_free (fixture);
  announce (fixture, ++newest, 1);
  settle (fixture, mock);
  g_assert_cmpuint (mock_server_count (mock, "Notify"), ==, 3);

  /* The server answers again: the next announcement after the retry interval tries it once more,
   * and what waited goes out. */
  mock->hold_notify = FALSE;
  lwn_notifier_set_retry_interval (fixture->notifier, 0);
  announce (fixture, ++newest, 1);
  settle (fixture, mock);
  wait_calls (mock, "Notify", 5);
  settle (fixture, mock);
  n_notify = mock_server_count (mock, "Notify");
  g_test_message ("Notify calls after the server answered again: %u", n_notify - 3);
  g_assert_cmpuint (n_notify, <=, 3 + 1 + MAX_SINGLE + 1);
  assert_shown_once (fixture, 1, newest);
  mock_server_free (mock);
}

/* The longest this thread's main context took to come back, over @ms milliseconds. */
static gint64
worst_iteration (guint ms)
{
  gint64 end = g_get_monotonic_time () + ms * G_TIME_SPAN_MILLISECOND;
  gint64 worst = 0;

  while (g_get_monotonic_time () < end)
    {
      gint64 started = g_get_monotonic_time ();

      g_main_context_iteration (NULL, FALSE);
      worst = MAX (worst, g_get_monotonic_time () - started);
      g_usleep (1000);
    }
  return worst;
}

/* How long the hung server holds each Notify call: anything that waited for it would take at least
 * that long, and what does not wait returns within a small part of it however slow the run. */
/* What the test tells apart is whether a call waited for the held one: the
 * bounds below are that hold, not a latency, so a loaded machine does not
 * fail them. How long the calls took is logged for the reader. */
#define HOLD_MS 5000

static void
test_hung_server_quit (Fixture *fixture,
                       gconstpointer data)
{
  MockServer *mock;
  gint64 started;
  gint64 took;
  gint64 worst;

  g_test_summary ("A server that holds a Notify call holds neither the main loop nor quitting: announcing, "
                  "withdrawing and the loop answer at once, and the notifier goes after a bounded wait");

  mock = start_server (fixture);
  mock->hold_notify = TRUE;
  mock->hold_notify_ms = HOLD_MS;
  announce (fixture, 2, 2);
  wait_calls (mock, "Notify", 1);

  started = g_get_monotonic_time ();
  announce (fixture, 5, 3);
  withdraw (fixture, 1);
  lwn_notifier_show_message (fixture->notifier, "A message", "About the applet");
  lwn_notifier_withdraw_all (fixture->notifier);
  took = g_get_monotonic_time () - started;
  worst = worst_iteration (300);
  g_test_message ("with a held Notify call: calls took %" G_GINT64_FORMAT " us, the slowest main loop "
                  "iteration %" G_GINT64_FORMAT " us",
                  took, worst);
  g_assert_cmpint (took, <, HOLD_MS * G_TIME_SPAN_MILLISECOND);
  g_assert_cmpint (worst, <, HOLD_MS * G_TIME_SPAN_MILLISECOND);

  /* The thread is inside notify_notification_show() while the notifier goes. */
  g_assert_cmpuint (mock_server_count (mock, "Notify"), ==, 1);
  g_assert_cmpuint (mock->held->len, ==, 1);
  started = g_get_monotonic_time ();
  g_clear_object (&fixture->notifier);
  took = g_get_monotonic_time () - started;
  g_test_message ("the notifier went after %" G_GINT64_FORMAT " ms", took / G_TIME_SPAN_MILLISECOND);
  g_assert_cmpint (took, <, HOLD_MS * G_TIME_SPAN_MILLISECOND);

  /* The server leaves before its hold ends: the bus answers the held call with an error, and the
   * thread ends on its own, without the notifier. */
  g_assert_cmpuint (mock->held->len, ==, 1);
  mock_server_free (mock);
}

static void
record_url_cb (LwnNotifier *notifier,
               const char *item_id,
               const char *url,
               const char *activation_token,
               GPtrArray *urls)
{
  g_ptr_array_add (urls, g_strdup (url));
}

static void
test_reminder (Fixture *fixture,
               gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  g_autoptr (GPtrArray) urls = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *id = item_url (7);
  g_autofree char *key = lwn_headline_key_new (SITE_NAME, id);
  Notify notify;

  g_test_summary ("A due reminder is a notification of its own, \"Now free to read: <title>\" in plain text, "
                  "beside the headline's announcement; its action opens the article, and reading the headline "
                  "closes both");

  mock = start_server (fixture);
  g_signal_connect (fixture->notifier, "open-reminder", G_CALLBACK (record_url_cb), urls);

  announce (fixture, 7, 1);
  wait_calls (mock, "Notify", 1);
  lwn_notifier_remind (fixture->notifier, key, "A <b>pair</b> of\a workqueue improvements", id);
  wait_calls (mock, "Notify", 2);
  settle (fixture, mock);

  notifies = mock_server_calls (mock, "Notify");
  g_assert_cmpuint (notifies->len, ==, 2);
  notify = notify_at (notifies, 1);
  g_assert_cmpuint (notify.replaces_id, ==, 0);
  g_assert_cmpstr (notify.summary, ==, "Now free to read: A <b>pair</b> of workqueue improvements");
  g_assert_cmpstr (notify.body, ==, "");
  g_assert_true (notify.has_default_action);

  /* Id 1 is the announcement's, 2 the reminder's: each says which it was. */
  invoke_action (fixture, mock, 2, NULL);
  g_assert_cmpuint (urls->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (urls, 0), ==, id);
  g_assert_cmpuint (fixture->opened->len, ==, 0);
  invoke_action (fixture, mock, 1, NULL);
  g_assert_cmpuint (fixture->opened->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (fixture->opened, 0), ==, id);
  g_assert_cmpuint (urls->len, ==, 1);
  g_assert_cmpuint (fixture->n_show_all, ==, 0);

  lwn_notifier_withdraw (fixture->notifier, key);
  wait_calls (mock, "CloseNotification", 2);
  settle (fixture, mock);
  g_assert_cmpuint (mock_server_count (mock, "CloseNotification"), ==, 2);
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 0);
  mock_server_free (mock);
}

static void
test_reminder_waits (Fixture *fixture,
                     gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  g_autoptr (GPtrArray) summaries = g_ptr_array_new ();

  g_test_summary ("Reminders due while no server is there wait for one, each with a notification of its own: "
                  "never folded into the group of new headlines; one without a safe link has no action; "
                  "Mark all as read closes them");

  for (guint number = 1; number <= 4; number++)
    {
      g_autofree char *id = item_url (number);
      g_autofree char *title = g_strdup_printf ("Article %u", number);

      lwn_notifier_remind (fixture->notifier, id, title, number == 4 ? "javascript:alert(4)" : id);
    }
  announce (fixture, 20, 5);
  settle (fixture, NULL);

  mock = mock_server_new (fixture, "actions body body-markup", 1, 0);
  wait_calls (mock, "Notify", 5);
  settle (fixture, mock);

  notifies = mock_server_calls (mock, "Notify");
  g_assert_cmpuint (notifies->len, ==, 5);
  for (guint i = 0; i < notifies->len; i++)
    {
      Notify notify = notify_at (notifies, i);

      g_ptr_array_add (summaries, (char *) notify.summary);
      if (g_str_has_prefix (notify.summary, "Now free to read: "))
        g_assert_cmpint (notify.has_default_action, ==, !g_str_equal (notify.summary, "Now free to read: Article 4"));
    }
  g_ptr_array_sort (summaries, compare_strings);
  g_assert_cmpstr (g_ptr_array_index (summaries, 0), ==, "5 new headlines from " SITE_NAME);
  g_assert_cmpstr (g_ptr_array_index (summaries, 1), ==, "Now free to read: Article 1");
  g_assert_cmpstr (g_ptr_array_index (summaries, 4), ==, "Now free to read: Article 4");

  lwn_notifier_withdraw_all (fixture->notifier);
  wait_calls (mock, "CloseNotification", 5);
  settle (fixture, mock);
  g_assert_cmpuint (lwn_notifier_count_kept (fixture->notifier), ==, 0);
  mock_server_free (mock);
}

static void
test_notice (Fixture *fixture,
             gconstpointer data)
{
  MockServer *mock;
  g_autoptr (GPtrArray) notifies = NULL;
  Notify notify;

  g_test_summary ("The notice that there is no tray has a button that shows the headlines, stays beside the "
                  "applet's messages and withdrawn headlines, and closes when withdrawn");

  mock = start_server (fixture);
  lwn_notifier_show_notice (fixture->notifier, "No panel icon", "Open it from Activities");
  wait_calls (mock, "Notify", 1);
  lwn_notifier_show_message (fixture->notifier, "A message", "About the applet");
  wait_calls (mock, "Notify", 2);
  lwn_notifier_withdraw_all (fixture->notifier);
  settle (fixture, mock);

  notifies = mock_server_calls (mock, "Notify");
  g_assert_cmpuint (notifies->len, ==, 2);
  notify = notify_at (notifies, 0);
  g_assert_cmpstr (notify.summary, ==, "No panel icon");
  g_assert_true (notify.has_default_action);
  /* GNOME Shell draws a button for every action but the default one. */
  g_assert_cmpuint (notify.n_actions, ==, 2);
  g_assert_cmpuint (mock_server_count (mock, "CloseNotification"), ==, 0);

  mock_server_emit (mock, "ActionInvoked", g_variant_new ("(us)", 1, "show-headlines"));
  settle (fixture, mock);
  g_assert_cmpuint (fixture->n_show_all, ==, 1);
  invoke_action (fixture, mock, 1, NULL);
  g_assert_cmpuint (fixture->n_show_all, ==, 2);
  g_assert_cmpuint (fixture->opened->len, ==, 0);

  lwn_notifier_withdraw_notice (fixture->notifier);
  wait_calls (mock, "CloseNotification", 1);
  assert_closed (mock, 0, 1);
  lwn_notifier_withdraw_notice (fixture->notifier);
  settle (fixture, mock);
  g_assert_cmpuint (mock_server_count (mock, "CloseNotification"), ==, 1);
  mock_server_free (mock);
}

static void
test_shown_single (Fixture *fixture,
                   gconstpointer data)
{
  MockServer *mock;

  g_test_summary ("A headline's own notification is told as shown once the server answers with its id, and "
                  "only then; an update of a group still shown tells only what it added");

  mock = start_server (fixture);
  mock->hold_notify = TRUE;
  mock->hold_notify_ms = 500;
  announce (fixture, 1, 1);
  wait_calls (mock, "Notify", 1);
  iterate_for (100);
  g_assert_cmpuint (fixture->shown->len, ==, 0);

  /* Answered once its hold ends. */
  iterate_for (600);
  mock->hold_notify = FALSE;
  settle (fixture, mock);
  assert_shown_once (fixture, 1, 1);
  announce (fixture, 2, 1);
  wait_calls (mock, "Notify", 2);
  settle (fixture, mock);
  assert_shown_once (fixture, 1, 2);

  announce (fixture, 7, 5);
  wait_calls (mock, "Notify", 3);
  settle (fixture, mock);
  assert_shown_once (fixture, 1, 7);
  announce (fixture, 11, 4);
  wait_calls (mock, "Notify", 4);
  settle (fixture, mock);
  assert_shown_once (fixture, 1, 11);
  mock_server_free (mock);
}

static void
test_shown_never (Fixture *fixture,
                  gconstpointer data)
{
  MockServer *mock;

  g_test_summary ("What a server refuses, and what is withdrawn before any server showed it, is never told as "
                  "shown");

  mock = start_server (fixture);
  mock->fail_notify = TRUE;
  g_test_expect_message (G_LOG_DOMAIN, G_LOG_LEVEL_WARNING, "Could not show a notification: *");
  announce (fixture, 1, 1);
  wait_calls (mock, "Notify", 1);
  settle (fixture, mock);
  g_test_assert_expected_messages ();
  g_clear_pointer (&mock, mock_server_free);
  settle (fixture, NULL);

  /* Read while no server is there. */
  announce (fixture, 2, 1);
  announce (fixture, 9, 5);
  settle (fixture, NULL);
  withdraw (fixture, 2);
  for (guint number = 5; number <= 9; number++)
    withdraw (fixture, number);
  announce (fixture, 10, 1);

  mock = mock_server_new (fixture, "actions body body-markup", 1, 0);
  wait_calls (mock, "Notify", 1);
  settle (fixture, mock);
  g_assert_cmpuint (mock_server_count (mock, "Notify"), ==, 1);
  g_assert_cmpuint (fixture->shown->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (fixture->shown, 0), ==, "https://lwn.net/Articles/10/");
  mock_server_free (mock);
}

static void
drained_cb (GObject *source,
            GAsyncResult *result,
            gpointer user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* Waits for lwn_notifier_drain_async() as a test can: with a loop of its own. */
static gboolean
drain (Fixture *fixture,
       guint timeout_ms)
{
  g_autoptr (GAsyncResult) result = NULL;
  g_autoptr (GError) error = NULL;
  gboolean drained;

  lwn_notifier_drain_async (fixture->notifier, timeout_ms, NULL, drained_cb, &result);
  while (result == NULL)
    g_main_context_iteration (NULL, TRUE);
  drained = lwn_notifier_drain_finish (fixture->notifier, result, &error);
  if (!drained)
    g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  else
    g_assert_no_error (error);
  return drained;
}

static void
test_drain (Fixture *fixture,
            gconstpointer data)
{
  MockServer *mock;
  gint64 started;
  gint64 took;

  g_test_summary ("Draining, as quitting does, waits for the answer to what is being shown, so that it is told "
                  "as shown, and no longer than asked for a server that holds its answer");

  mock = start_server (fixture);
  g_assert_true (drain (fixture, 10));
  announce (fixture, 1, 1);
  wait_calls (mock, "Notify", 1);
  settle (fixture, mock);

  mock->hold_notify = TRUE;
  mock->hold_notify_ms = 300;
  announce (fixture, 2, 1);
  g_assert_true (drain (fixture, WAIT_SECONDS * 1000));
  assert_shown_once (fixture, 1, 2);

  /* Held until the server leaves. */
  mock->hold_notify_ms = 0;
  announce (fixture, 3, 1);
  started = g_get_monotonic_time ();
  g_assert_false (drain (fixture, 200));
  took = g_get_monotonic_time () - started;
  /* It waited as long as asked, and returned without the answer. */
  g_assert_cmpint (took, >=, 200 * G_TIME_SPAN_MILLISECOND);
  g_test_message ("a drain of 200 ms returned after %" G_GINT64_FORMAT " ms", took / G_TIME_SPAN_MILLISECOND);
  assert_shown_once (fixture, 1, 2);
  mock_server_free (mock);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);
  g_set_application_name ("lwn-tray");

#define ADD(path, func) g_test_add (path, Fixture, NULL, fixture_set_up, func, fixture_tear_down)
  ADD ("/notifier/no-server/bounded", test_no_server_bounded);
  ADD ("/notifier/server/returns", test_server_returns);
  ADD ("/notifier/capabilities/owner-change", test_capabilities_owner_change);
  ADD ("/notifier/capabilities/none", test_capabilities_none);
  ADD ("/notifier/capabilities/retry", test_capabilities_retry);
  ADD ("/notifier/ids/apart", test_item_ids_apart);
  ADD ("/notifier/group/total", test_group_total);
  ADD ("/notifier/group/read", test_group_read);
  ADD ("/notifier/group/per-feed", test_group_per_feed);
  ADD ("/notifier/group/large", test_group_large);
  ADD ("/notifier/withdraw-feed/waiting", test_withdraw_feed_waiting);
  ADD ("/notifier/withdraw-feed/own-group", test_withdraw_feed_own_group);
  ADD ("/notifier/withdraw-feed/shown", test_withdraw_feed_shown);
  ADD ("/notifier/action/activation-token", test_activation_token);
  ADD ("/notifier/hung-server/quit", test_hung_server_quit);
  ADD ("/notifier/hung-server/announce", test_hung_server_announce);
  ADD ("/notifier/reminder/shown", test_reminder);
  ADD ("/notifier/reminder/waits", test_reminder_waits);
  ADD ("/notifier/disposed", test_disposed);
  ADD ("/notifier/notice", test_notice);
  ADD ("/notifier/shown/single", test_shown_single);
  ADD ("/notifier/shown/never", test_shown_never);
  ADD ("/notifier/shown/drain", test_drain);
#undef ADD

  return g_test_run ();
}
