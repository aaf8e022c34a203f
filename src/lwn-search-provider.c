/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The headlines in the desktop's own search: GNOME Shell's
 * org.gnome.Shell.SearchProvider2 and KRunner's org.kde.krunner1, answered
 * from the reading model in memory, never from the disk or the network. The
 * matching runs in a worker (lwn-headline-search.c); a caller's newer search
 * replaces its older one, which is stopped and answered with no results, so
 * that nothing the caller already gave up on is sent. Choosing a result
 * is the application's to carry out: the provider tells it with a signal. */

#include "config.h"

#include <glib/gi18n.h>

#include "lwn-headline-search.h"
#include "lwn-headline.h"
#include "lwn-search-provider.h"
#include "lwn-str-hash.h"
#include "lwn-text.h"

/* KRunner asks at every key: one or two letters match half of every feed. */
#define KRUNNER_MIN_LETTERS 3
/* KRunner's QueryMatch::PossibleMatch: below applications and exact answers. */
#define KRUNNER_POSSIBLE_MATCH 30
/* Characters of a summary's start in a result. */
#define SUMMARY_CHARS 90
/* How long a search waits for the feeds' first headlines, when the search
 * itself started the applet: the saved copies take a moment to read. */
#define FIRST_LOAD_WAIT_MS 3000

static const char introspection_xml[] = "<node>"
                                        "  <interface name='org.gnome.Shell.SearchProvider2'>"
                                        "    <method name='GetInitialResultSet'>"
                                        "      <arg type='as' name='terms' direction='in'/>"
                                        "      <arg type='as' name='results' direction='out'/>"
                                        "    </method>"
                                        "    <method name='GetSubsearchResultSet'>"
                                        "      <arg type='as' name='previous_results' direction='in'/>"
                                        "      <arg type='as' name='terms' direction='in'/>"
                                        "      <arg type='as' name='results' direction='out'/>"
                                        "    </method>"
                                        "    <method name='GetResultMetas'>"
                                        "      <arg type='as' name='identifiers' direction='in'/>"
                                        "      <arg type='aa{sv}' name='metas' direction='out'/>"
                                        "    </method>"
                                        "    <method name='ActivateResult'>"
                                        "      <arg type='s' name='identifier' direction='in'/>"
                                        "      <arg type='as' name='terms' direction='in'/>"
                                        "      <arg type='u' name='timestamp' direction='in'/>"
                                        "    </method>"
                                        "    <method name='LaunchSearch'>"
                                        "      <arg type='as' name='terms' direction='in'/>"
                                        "      <arg type='u' name='timestamp' direction='in'/>"
                                        "    </method>"
                                        "  </interface>"
                                        "  <interface name='org.kde.krunner1'>"
                                        "    <method name='Actions'>"
                                        "      <arg type='a(sss)' name='matches' direction='out'/>"
                                        "    </method>"
                                        "    <method name='Match'>"
                                        "      <arg type='s' name='query' direction='in'/>"
                                        "      <arg type='a(sssida{sv})' name='matches' direction='out'/>"
                                        "    </method>"
                                        "    <method name='Run'>"
                                        "      <arg type='s' name='matchId' direction='in'/>"
                                        "      <arg type='s' name='actionId' direction='in'/>"
                                        "    </method>"
                                        "    <method name='Config'>"
                                        "      <arg type='a{sv}' name='config' direction='out'/>"
                                        "    </method>"
                                        "    <method name='Teardown'/>"
                                        "  </interface>"
                                        "</node>";

typedef enum
{
  REPLY_SHELL,
  REPLY_KRUNNER,
} ReplyKind;

/* One search under way: its caller's, until it is answered or replaced. */
typedef struct
{
  LwnSearchProvider *provider; /* NULL once the provider is gone */
  GDBusMethodInvocation *invocation;
  GCancellable *cancellable;
  ReplyKind kind;
  char *queue; /* the caller and interface: a newer search there replaces this one */
  char **terms;
  char **within; /* NULL: every headline */
} Request;

struct _LwnSearchProvider
{
  GObject parent_instance;

  LwnFeedSet *feeds;
  gboolean enabled;
  GDBusConnection *connection;
  guint shell_id;
  guint krunner_id;
  GHashTable *requests; /* queue → Request*, the newest of each caller */
  GPtrArray *waiting;   /* Request*, owned, for the feeds' first headlines */
  guint wait_id;
  gulong feeds_changed_id;
};

G_DEFINE_FINAL_TYPE (LwnSearchProvider, lwn_search_provider, G_TYPE_OBJECT)

enum
{
  SIGNAL_OPEN,
  SIGNAL_LAUNCH_SEARCH,
  N_SIGNALS
};

static guint signals[N_SIGNALS];

static GDBusNodeInfo *
introspection_data (void)
{
  static gsize made;
  static GDBusNodeInfo *info;

  if (g_once_init_enter (&made))
    {
      info = g_dbus_node_info_new_for_xml (introspection_xml, NULL);
      g_once_init_leave (&made, 1);
    }
  return info;
}

static GVariant *
empty_reply (ReplyKind kind)
{
  if (kind == REPLY_SHELL)
    return g_variant_new ("(as)", NULL);
  return g_variant_new ("(a(sssida{sv}))", NULL);
}

static void
request_free (Request *request)
{
  g_clear_object (&request->invocation);
  g_clear_object (&request->cancellable);
  g_free (request->queue);
  g_strfreev (request->terms);
  g_strfreev (request->within);
  g_free (request);
}

/* Answers @request with nothing, once: a newer search replaced it, or the
 * provider is going. */
static void
request_abandon (Request *request)
{
  g_cancellable_cancel (request->cancellable);
  if (request->invocation != NULL)
    g_dbus_method_invocation_return_value (g_steal_pointer (&request->invocation), empty_reply (request->kind));
  request->provider = NULL;
}

/* The headline of @key, a feed's address and an item id, if it is still shown. */
static LwnHeadline *
lookup_headline (LwnSearchProvider *self,
                 const char *key,
                 LwnReader **out_reader)
{
  g_autofree char *feed = NULL;
  g_autofree char *item_id = NULL;
  LwnReader *reader;

  if (self->feeds == NULL || !lwn_headline_key_split (key, &feed, &item_id))
    return NULL;
  reader = lwn_feed_set_find_url (self->feeds, feed);
  if (reader == NULL)
    return NULL;
  if (out_reader != NULL)
    *out_reader = reader;
  return lwn_reader_lookup_headline (reader, item_id);
}

/* "LWN.net — The summary's start…", or "LWN.net · unread — …". */
static char *
dup_description (LwnReader *reader,
                 LwnHeadline *headline)
{
  g_autofree char *name = lwn_reader_dup_name (reader);
  g_autofree char *summary = lwn_text_ellipsize (lwn_feed_item_get_summary (lwn_headline_get_item (headline)),
                                                 SUMMARY_CHARS);

  if (lwn_headline_get_unread (headline))
    /* Translators: a headline in the desktop's search: its feed's name, then the start of its summary. */
    return *summary != '\0' ? g_strdup_printf (_ ("%s · unread — %s"), name, summary)
                            /* Translators: a headline without a summary in the desktop's search; %s is its feed's name. */
                            : g_strdup_printf (_ ("%s · unread"), name);
  if (*summary != '\0')
    return g_strdup_printf ("%s — %s", name, summary);
  return g_steal_pointer (&name);
}

static GVariant *
shell_results (LwnSearchProvider *self,
               char **keys)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("as"));
  for (guint i = 0; keys[i] != NULL; i++)
    g_variant_builder_add (&builder, "s", keys[i]);
  return g_variant_new ("(as)", &builder);
}

static GVariant *
krunner_results (LwnSearchProvider *self,
                 char **keys)
{
  GVariantBuilder builder;
  guint n = g_strv_length (keys);

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("a(sssida{sv})"));
  for (guint i = 0; i < n; i++)
    {
      LwnReader *reader = NULL;
      LwnHeadline *headline = lookup_headline (self, keys[i], &reader);
      GVariantBuilder properties;
      g_autofree char *description = NULL;

      if (headline == NULL)
        continue;
      description = dup_description (reader, headline);
      g_variant_builder_init (&properties, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_add (&properties, "{sv}", "subtext", g_variant_new_string (description));
      if (lwn_headline_get_url (headline) != NULL)
        {
          const char *urls[] = { lwn_headline_get_url (headline), NULL };

          g_variant_builder_add (&properties, "{sv}", "urls", g_variant_new_strv (urls, -1));
        }
      /* Newest first, within what KRunner ranks alike. */
      g_variant_builder_add (&builder, "(sssida{sv})", keys[i], lwn_headline_get_title (headline), APP_ID,
                             KRUNNER_POSSIBLE_MATCH, 0.5 - 0.4 * i / MAX (n, 1), &properties);
    }
  return g_variant_new ("(a(sssida{sv}))", &builder);
}

static void
search_done_cb (GObject *source,
                GAsyncResult *result,
                gpointer user_data)
{
  Request *request = user_data;
  LwnSearchProvider *self = request->provider;
  g_auto (GStrv) keys = lwn_headline_search_finish (result, NULL);

  /* Replaced, or the provider went: answered already. */
  if (self == NULL || request->invocation == NULL)
    {
      request_free (request);
      return;
    }
  if (keys == NULL)
    keys = g_new0 (char *, 1);
  g_dbus_method_invocation_return_value (g_steal_pointer (&request->invocation),
                                         request->kind == REPLY_SHELL ? shell_results (self, keys)
                                                                      : krunner_results (self, keys));
  /* Its own entry: a newer one would have replaced it and answered it. */
  g_hash_table_remove (self->requests, request->queue);
  request_free (request);
}

/* Whether every feed has headlines, or has failed to get any: a search
 * before then would miss what a moment later it finds. */
static gboolean
feeds_settled (LwnSearchProvider *self)
{
  for (guint i = 0; i < lwn_feed_set_get_n_feeds (self->feeds); i++)
    if (lwn_reader_get_state (lwn_feed_set_get_reader (self->feeds, i)) == LWN_READER_STATE_LOADING)
      return FALSE;
  return TRUE;
}

static void
launch_search (LwnSearchProvider *self,
               Request *request)
{
  lwn_headline_search_async (self->feeds, (const char *const *) request->terms,
                             (const char *const *) request->within, LWN_HEADLINE_SEARCH_MAX, request->cancellable,
                             search_done_cb, request);
}

static void
stop_waiting (LwnSearchProvider *self)
{
  g_clear_handle_id (&self->wait_id, g_source_remove);
  if (self->feeds_changed_id != 0)
    g_clear_signal_handler (&self->feeds_changed_id, self->feeds);
}

/* The waiting searches start: the feeds are ready, or waited for long enough. */
static void
launch_waiting (LwnSearchProvider *self)
{
  g_autoptr (GPtrArray) waiting = g_steal_pointer (&self->waiting);

  self->waiting = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
  stop_waiting (self);
  for (guint i = 0; i < waiting->len; i++)
    {
      Request *request = g_ptr_array_index (waiting, i);

      /* Replaced meanwhile: answered already. */
      if (request->invocation == NULL)
        continue;
      launch_search (self, g_ptr_array_steal_index (waiting, i--));
    }
}

static gboolean
wait_timed_out_cb (gpointer user_data)
{
  LwnSearchProvider *self = user_data;

  self->wait_id = 0;
  launch_waiting (self);
  return G_SOURCE_REMOVE;
}

static void
feeds_changed_cb (LwnFeedSet *feeds,
                  LwnSearchProvider *self)
{
  if (feeds_settled (self))
    launch_waiting (self);
}

static void
start_search (LwnSearchProvider *self,
              GDBusMethodInvocation *invocation,
              ReplyKind kind,
              const char *const *terms,
              const char *const *within)
{
  Request *request;
  Request *older;

  if (!self->enabled || self->feeds == NULL)
    {
      g_dbus_method_invocation_return_value (invocation, empty_reply (kind));
      return;
    }

  request = g_new0 (Request, 1);
  request->provider = self;
  /* The method call gave its invocation to this handler; answering it gives it up. */
  request->invocation = invocation;
  request->cancellable = g_cancellable_new ();
  request->kind = kind;
  request->terms = g_strdupv ((char **) terms);
  request->within = within != NULL ? g_strdupv ((char **) within) : NULL;
  request->queue = g_strconcat (g_dbus_method_invocation_get_sender (invocation) != NULL
                                    ? g_dbus_method_invocation_get_sender (invocation)
                                    : "",
                                " ", g_dbus_method_invocation_get_interface_name (invocation), NULL);

  older = g_hash_table_lookup (self->requests, request->queue);
  if (older != NULL)
    request_abandon (older);
  g_hash_table_insert (self->requests, g_strdup (request->queue), request);

  if (feeds_settled (self))
    {
      launch_search (self, request);
      return;
    }
  g_ptr_array_add (self->waiting, request);
  if (self->wait_id == 0)
    {
      self->wait_id = g_timeout_add (FIRST_LOAD_WAIT_MS, wait_timed_out_cb, self);
      self->feeds_changed_id = g_signal_connect (self->feeds, "changed", G_CALLBACK (feeds_changed_cb), self);
    }
}

static GVariant *
result_metas (LwnSearchProvider *self,
              const char *const *keys)
{
  GVariantBuilder builder;

  g_variant_builder_init (&builder, G_VARIANT_TYPE ("aa{sv}"));
  for (guint i = 0; keys[i] != NULL; i++)
    {
      LwnReader *reader = NULL;
      LwnHeadline *headline = lookup_headline (self, keys[i], &reader);
      g_autofree char *description = NULL;
      GVariantBuilder meta;

      /* Gone from its feed since it was found: the shell leaves it out. */
      if (headline == NULL)
        continue;
      description = dup_description (reader, headline);
      g_variant_builder_init (&meta, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_add (&meta, "{sv}", "id", g_variant_new_string (keys[i]));
      g_variant_builder_add (&meta, "{sv}", "name", g_variant_new_string (lwn_headline_get_title (headline)));
      g_variant_builder_add (&meta, "{sv}", "description", g_variant_new_string (description));
      g_variant_builder_add (&meta, "{sv}", "gicon", g_variant_new_string (APP_ID));
      if (lwn_headline_get_url (headline) != NULL)
        g_variant_builder_add (&meta, "{sv}", "clipboardText", g_variant_new_string (lwn_headline_get_url (headline)));
      g_variant_builder_add (&builder, "a{sv}", &meta);
    }
  return g_variant_new ("(aa{sv})", &builder);
}

/* Tells the application to open @key's article, with the startup id the
 * shell's timestamp makes (0: none, the display makes one). */
static void
open_result (LwnSearchProvider *self,
             const char *key,
             guint32 timestamp)
{
  g_autofree char *feed = NULL;
  g_autofree char *item_id = NULL;
  g_autofree char *token = timestamp != 0 ? g_strdup_printf ("lwn-tray-search_TIME%u", timestamp) : NULL;

  if (!self->enabled || !lwn_headline_key_split (key, &feed, &item_id))
    return;
  g_signal_emit (self, signals[SIGNAL_OPEN], 0, feed, item_id, token);
}

static void
method_call_cb (GDBusConnection *connection,
                const char *sender,
                const char *object_path,
                const char *interface_name,
                const char *method_name,
                GVariant *parameters,
                GDBusMethodInvocation *invocation,
                gpointer user_data)
{
  LwnSearchProvider *self = user_data;

  if (g_str_equal (method_name, "GetInitialResultSet"))
    {
      g_autofree const char **terms = NULL;

      g_variant_get (parameters, "(^a&s)", &terms);
      start_search (self, invocation, REPLY_SHELL, terms, NULL);
    }
  else if (g_str_equal (method_name, "GetSubsearchResultSet"))
    {
      g_autofree const char **previous = NULL;
      g_autofree const char **terms = NULL;

      g_variant_get (parameters, "(^a&s^a&s)", &previous, &terms);
      start_search (self, invocation, REPLY_SHELL, terms, previous);
    }
  else if (g_str_equal (method_name, "GetResultMetas"))
    {
      g_autofree const char **keys = NULL;

      g_variant_get (parameters, "(^a&s)", &keys);
      g_dbus_method_invocation_return_value (invocation, result_metas (self, keys));
    }
  else if (g_str_equal (method_name, "ActivateResult"))
    {
      const char *key;
      guint32 timestamp;

      g_variant_get (parameters, "(&sasu)", &key, NULL, &timestamp);
      open_result (self, key, timestamp);
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
  else if (g_str_equal (method_name, "LaunchSearch"))
    {
      g_autofree const char **terms = NULL;
      g_autofree char *text = NULL;

      g_variant_get (parameters, "(^a&su)", &terms, NULL);
      text = g_strjoinv (" ", (char **) terms);
      if (self->enabled)
        g_signal_emit (self, signals[SIGNAL_LAUNCH_SEARCH], 0, text);
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
  else if (g_str_equal (method_name, "Match"))
    {
      const char *query;
      g_auto (GStrv) terms = NULL;

      g_variant_get (parameters, "(&s)", &query);
      terms = g_str_tokenize_and_fold (query, NULL, NULL);
      if (g_utf8_strlen (query, -1) < KRUNNER_MIN_LETTERS)
        g_dbus_method_invocation_return_value (invocation, empty_reply (REPLY_KRUNNER));
      else
        start_search (self, invocation, REPLY_KRUNNER, (const char *const *) terms, NULL);
    }
  else if (g_str_equal (method_name, "Run"))
    {
      const char *key;

      g_variant_get (parameters, "(&s&s)", &key, NULL);
      open_result (self, key, 0);
      g_dbus_method_invocation_return_value (invocation, NULL);
    }
  else if (g_str_equal (method_name, "Actions"))
    g_dbus_method_invocation_return_value (invocation, g_variant_new ("(a(sss))", NULL));
  else if (g_str_equal (method_name, "Config"))
    {
      GVariantBuilder config;

      g_variant_builder_init (&config, G_VARIANT_TYPE_VARDICT);
      g_variant_builder_add (&config, "{sv}", "MinLetterCount", g_variant_new_int32 (KRUNNER_MIN_LETTERS));
      g_dbus_method_invocation_return_value (invocation, g_variant_new ("(a{sv})", &config));
    }
  else if (g_str_equal (method_name, "Teardown"))
    g_dbus_method_invocation_return_value (invocation, NULL);
  else
    g_dbus_method_invocation_return_error (invocation, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_METHOD, "No method %s",
                                           method_name);
}

static const GDBusInterfaceVTable vtable = { method_call_cb, NULL, NULL, { 0 } };

static void
abandon_all (LwnSearchProvider *self)
{
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, self->requests);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    {
      request_abandon (value);
      g_hash_table_iter_remove (&iter);
    }
}

static void
lwn_search_provider_dispose (GObject *object)
{
  LwnSearchProvider *self = LWN_SEARCH_PROVIDER (object);

  lwn_search_provider_unregister (self);
  if (self->requests != NULL)
    abandon_all (self);
  if (self->feeds != NULL)
    stop_waiting (self);
  g_clear_pointer (&self->waiting, g_ptr_array_unref);
  g_clear_pointer (&self->requests, g_hash_table_unref);
  g_clear_object (&self->feeds);

  G_OBJECT_CLASS (lwn_search_provider_parent_class)->dispose (object);
}

static void
lwn_search_provider_class_init (LwnSearchProviderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lwn_search_provider_dispose;

  /**
   * LwnSearchProvider::open:
   * @feed: the address of the headline's feed
   * @item_id: its id in that feed
   * @activation_token: (nullable): the startup id the search's timestamp made
   *
   * A person chose a headline the search found.
   */
  signals[SIGNAL_OPEN] = g_signal_new ("open", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL, NULL, NULL,
                                       G_TYPE_NONE, 3, G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);
  /**
   * LwnSearchProvider::launch-search:
   * @text: the words searched for
   *
   * A person asked for the search in the application itself.
   */
  signals[SIGNAL_LAUNCH_SEARCH] = g_signal_new ("launch-search", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0, NULL,
                                                NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);
}

static void
request_abandon_and_free (gpointer data)
{
  Request *request = data;

  /* The task still holds it: search_done_cb() frees it. */
  request->provider = NULL;
}

static void
lwn_search_provider_init (LwnSearchProvider *self)
{
  self->enabled = TRUE;
  self->requests = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, request_abandon_and_free);
  self->waiting = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
}

/**
 * lwn_search_provider_new:
 *
 * Returns: (transfer full): a provider with no feeds yet, which finds nothing
 */
LwnSearchProvider *
lwn_search_provider_new (void)
{
  return g_object_new (LWN_TYPE_SEARCH_PROVIDER, NULL);
}

/**
 * lwn_search_provider_register:
 * @connection: the session bus
 * @shell_path: the object path GNOME Shell's search provider file names
 * @krunner_path: the object path KRunner's runner file names
 *
 * Exports both interfaces; the bus name is the application's.
 *
 * Returns: whether both were exported
 */
gboolean
lwn_search_provider_register (LwnSearchProvider *self,
                              GDBusConnection *connection,
                              const char *shell_path,
                              const char *krunner_path,
                              GError **error)
{
  GDBusNodeInfo *info = introspection_data ();

  g_return_val_if_fail (LWN_IS_SEARCH_PROVIDER (self), FALSE);
  g_return_val_if_fail (G_IS_DBUS_CONNECTION (connection), FALSE);
  g_return_val_if_fail (self->connection == NULL, FALSE);

  self->connection = g_object_ref (connection);
  self->shell_id = g_dbus_connection_register_object (connection, shell_path, info->interfaces[0], &vtable, self, NULL,
                                                      error);
  if (self->shell_id == 0)
    {
      lwn_search_provider_unregister (self);
      return FALSE;
    }
  self->krunner_id = g_dbus_connection_register_object (connection, krunner_path, info->interfaces[1], &vtable, self,
                                                        NULL, error);
  if (self->krunner_id == 0)
    {
      lwn_search_provider_unregister (self);
      return FALSE;
    }
  return TRUE;
}

/**
 * lwn_search_provider_unregister:
 *
 * Takes both interfaces off the bus, and answers the searches under way with
 * nothing.
 */
void
lwn_search_provider_unregister (LwnSearchProvider *self)
{
  g_return_if_fail (LWN_IS_SEARCH_PROVIDER (self));

  if (self->connection == NULL)
    return;
  if (self->shell_id != 0)
    g_dbus_connection_unregister_object (self->connection, self->shell_id);
  if (self->krunner_id != 0)
    g_dbus_connection_unregister_object (self->connection, self->krunner_id);
  self->shell_id = self->krunner_id = 0;
  g_clear_object (&self->connection);
  abandon_all (self);
}

/**
 * lwn_search_provider_set_feeds:
 * @feeds: (nullable): the feeds whose headlines are found
 */
void
lwn_search_provider_set_feeds (LwnSearchProvider *self,
                               LwnFeedSet *feeds)
{
  g_return_if_fail (LWN_IS_SEARCH_PROVIDER (self));

  if (self->feeds == feeds)
    return;
  if (self->feeds != NULL)
    {
      stop_waiting (self);
      abandon_all (self);
      g_ptr_array_set_size (self->waiting, 0);
    }
  g_set_object (&self->feeds, feeds);
}

/**
 * lwn_search_provider_set_enabled:
 * @enabled: whether searches find anything; off, every search answers
 *   nothing and nothing is opened
 */
void
lwn_search_provider_set_enabled (LwnSearchProvider *self,
                                 gboolean enabled)
{
  g_return_if_fail (LWN_IS_SEARCH_PROVIDER (self));

  self->enabled = !!enabled;
  if (!self->enabled)
    abandon_all (self);
}

gboolean
lwn_search_provider_get_enabled (LwnSearchProvider *self)
{
  g_return_val_if_fail (LWN_IS_SEARCH_PROVIDER (self), FALSE);

  return self->enabled;
}

/**
 * lwn_search_provider_get_n_searching:
 *
 * Returns: how many searches are under way, one at most per caller and
 *   interface
 */
guint
lwn_search_provider_get_n_searching (LwnSearchProvider *self)
{
  g_return_val_if_fail (LWN_IS_SEARCH_PROVIDER (self), 0);

  return g_hash_table_size (self->requests);
}
