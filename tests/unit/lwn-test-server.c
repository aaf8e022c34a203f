/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A tiny HTTP/1.1 server on 127.0.0.1 (and, for tests that need several hosts, on 127.0.0.2 and on) that plays
 * scripted responses for the C tests, and counts how many requests it had at once. */

#include <string.h>
#include <sys/socket.h>

#include "lwn-test-server.h"

/* Bounds that keep every connection finite whatever the client does. */
#define SOCKET_TIMEOUT_SECONDS 10
#define CONNECTION_DEADLINE_USEC (20 * G_USEC_PER_SEC)
#define MAX_HEADER_LINES 100
#define ENDLESS_CHUNK_SIZE 16384

typedef struct _Listener Listener;

struct _LwnTestServer
{
  GPtrArray *listeners;   /* Listener*, one per host: 127.0.0.1, 127.0.0.2, … */
  guint16 port;           /* the same on every host */
  GCancellable *stopping; /* wakes every blocking call when the server goes */

  GMutex mutex;        /* guards the ones below */
  GHashTable *routes;  /* path → Route */
  GPtrArray *requests; /* Request, in arrival order */
  GPtrArray *connection_threads;
  guint n_at_once;   /* requests read and not answered yet, all hosts together */
  guint max_at_once; /* the most there were */
};

struct _Listener
{
  LwnTestServer *server;
  GSocket *socket;
  GThread *thread;
  guint n_at_once;
  guint max_at_once;
};

/* An owned copy of an LwnTestRoute; shared with connection threads by reference. */
typedef struct
{
  guint status;
  char *content_type;
  GStrv headers;
  GBytes *body; /* compressed already when gzip is set */
  char *location;
  char *etag;
  char *last_modified;
  gboolean gzip;
  gboolean endless;
  guint delay_ms;
  guint drip_bytes;
  guint drip_interval_ms;
  gboolean reset_mid_body;
} Route;

typedef struct
{
  char *method;
  char *path;
  GHashTable *headers; /* lower-case name → value */
  gint64 received;     /* monotonic, when its request line came */
} Request;

typedef struct
{
  LwnTestServer *server;
  Listener *listener;
  GSocket *socket;
  GSocketConnection *stream; /* owns the socket's life: closing it closes the socket */
  gint64 deadline;
  gboolean at_once; /* its request is counted among those under way */
} Connection;

static void
route_clear (Route *route)
{
  g_free (route->content_type);
  g_strfreev (route->headers);
  g_clear_pointer (&route->body, g_bytes_unref);
  g_free (route->location);
  g_free (route->etag);
  g_free (route->last_modified);
}

static void
route_unref (Route *route)
{
  g_atomic_rc_box_release_full (route, (GDestroyNotify) route_clear);
}

static void
request_free (Request *request)
{
  g_free (request->method);
  g_free (request->path);
  g_hash_table_unref (request->headers);
  g_free (request);
}

static GBytes *
gzip_bytes (GBytes *input)
{
  g_autoptr (GError) error = NULL;
  g_autoptr (GZlibCompressor) compressor = g_zlib_compressor_new (G_ZLIB_COMPRESSOR_FORMAT_GZIP, -1);
  g_autoptr (GOutputStream) memory = g_memory_output_stream_new_resizable ();
  g_autoptr (GOutputStream) stream = g_converter_output_stream_new (memory, G_CONVERTER (compressor));
  gsize length;
  const guint8 *data = g_bytes_get_data (input, &length);

  g_output_stream_write_all (stream, data, length, NULL, NULL, &error);
  g_assert_no_error (error);
  g_output_stream_close (stream, NULL, &error);
  g_assert_no_error (error);

  return g_memory_output_stream_steal_as_bytes (G_MEMORY_OUTPUT_STREAM (memory));
}

/* Sleeps @ms milliseconds; FALSE when the server is stopping instead. */
static gboolean
server_sleep (LwnTestServer *server,
              guint ms)
{
  GPollFD poll_fd;
  gboolean stopping;

  if (!g_cancellable_make_pollfd (server->stopping, &poll_fd))
    return FALSE;
  stopping = g_poll (&poll_fd, 1, (gint) ms) > 0;
  g_cancellable_release_fd (server->stopping);

  return !stopping && !g_cancellable_is_cancelled (server->stopping);
}

static gboolean
send_all (Connection *connection,
          const void *data,
          gsize length)
{
  const guint8 *bytes = data;

  while (length > 0)
    {
      gssize sent;

      if (g_get_monotonic_time () > connection->deadline)
        return FALSE;

      sent = g_socket_send (connection->socket, (const char *) bytes, length,
                            connection->server->stopping, NULL);
      if (sent <= 0)
        return FALSE;
      bytes += sent;
      length -= (gsize) sent;
    }

  return TRUE;
}

static gboolean
send_string (Connection *connection,
             const char *text)
{
  return send_all (connection, text, strlen (text));
}

/* Sends @length bytes at @data, in drips when the route asks for them. */
static gboolean
send_body (Connection *connection,
           const Route *route,
           const guint8 *data,
           gsize length)
{
  gsize step = route->drip_bytes > 0 ? route->drip_bytes : MAX (length, 1);

  for (gsize offset = 0; offset < length; offset += step)
    {
      gboolean drip_pause = offset > 0 && route->drip_interval_ms > 0;

      if (drip_pause && !server_sleep (connection->server, route->drip_interval_ms))
        return FALSE;
      if (!send_all (connection, data + offset, MIN (step, length - offset)))
        return FALSE;
    }

  return TRUE;
}

static gboolean
send_endless_body (Connection *connection,
                   const Route *route)
{
  g_autofree guint8 *filler = g_malloc (ENDLESS_CHUNK_SIZE);
  gsize chunk_size = route->drip_bytes > 0 ? MIN (route->drip_bytes, ENDLESS_CHUNK_SIZE) : ENDLESS_CHUNK_SIZE;
  g_autofree char *chunk_header = g_strdup_printf ("%zx\r\n", chunk_size);

  memset (filler, 'x', ENDLESS_CHUNK_SIZE);

  /* Ends when the client goes away, the server stops, or the deadline passes. */
  while (TRUE)
    {
      if (!send_string (connection, chunk_header))
        return FALSE;
      if (!send_all (connection, filler, chunk_size))
        return FALSE;
      if (!send_string (connection, "\r\n"))
        return FALSE;
      if (route->drip_interval_ms > 0 && !server_sleep (connection->server, route->drip_interval_ms))
        return FALSE;
    }
}

static void
reset_connection (Connection *connection)
{
  struct linger linger = { .l_onoff = 1, .l_linger = 0 };

  /* A zero linger time makes close() send RST instead of FIN. */
  setsockopt (g_socket_get_fd (connection->socket), SOL_SOCKET, SO_LINGER, &linger, sizeof linger);
  g_socket_close (connection->socket, NULL);
}

static const char *
reason_phrase (guint status)
{
  switch (status)
    {
      case 200:
        return "OK";
      case 204:
        return "No Content";
      case 301:
        return "Moved Permanently";
      case 302:
        return "Found";
      case 303:
        return "See Other";
      case 304:
        return "Not Modified";
      case 307:
        return "Temporary Redirect";
      case 308:
        return "Permanent Redirect";
      case 404:
        return "Not Found";
      case 429:
        return "Too Many Requests";
      case 500:
        return "Internal Server Error";
      case 503:
        return "Service Unavailable";
      default:
        return "Unknown";
    }
}

static gboolean
request_is_fresh (const Request *request,
                  const Route *route)
{
  const char *if_none_match = g_hash_table_lookup (request->headers, "if-none-match");
  const char *if_modified_since = g_hash_table_lookup (request->headers, "if-modified-since");

  /* RFC 9110 §13.1.3: If-Modified-Since only counts without If-None-Match. */
  if (if_none_match != NULL)
    return route->etag != NULL && g_strcmp0 (if_none_match, route->etag) == 0;

  return route->last_modified != NULL && g_strcmp0 (if_modified_since, route->last_modified) == 0;
}

/* A request counts as under way from its request line until its answer
 * starts: the client can send its next request only once the answer has
 * come, so two requests a client sent one after the other never count as
 * at once, however late this thread runs. */
static void
count_request (Connection *connection)
{
  LwnTestServer *server = connection->server;
  Listener *listener = connection->listener;

  g_mutex_lock (&server->mutex);
  connection->at_once = TRUE;
  server->n_at_once++;
  server->max_at_once = MAX (server->max_at_once, server->n_at_once);
  listener->n_at_once++;
  listener->max_at_once = MAX (listener->max_at_once, listener->n_at_once);
  g_mutex_unlock (&server->mutex);
}

static void
count_answer (Connection *connection)
{
  LwnTestServer *server = connection->server;

  g_mutex_lock (&server->mutex);
  if (connection->at_once)
    {
      connection->at_once = FALSE;
      server->n_at_once--;
      connection->listener->n_at_once--;
    }
  g_mutex_unlock (&server->mutex);
}

static void
respond (Connection *connection,
         const Request *request,
         const Route *route)
{
  g_autoptr (GString) head = g_string_new (NULL);
  guint status = route->status != 0 ? route->status : 200;
  gsize length = 0;
  const guint8 *body = route->body != NULL ? g_bytes_get_data (route->body, &length) : NULL;
  gboolean has_body;

  if (request_is_fresh (request, route))
    status = 304;
  has_body = status != 304 && status != 204 && g_strcmp0 (request->method, "HEAD") != 0;

  if (route->delay_ms > 0 && !server_sleep (connection->server, route->delay_ms))
    return;
  count_answer (connection);

  g_string_append_printf (head, "HTTP/1.1 %u %s\r\n", status, reason_phrase (status));
  g_string_append (head, "Connection: close\r\n");
  if (route->content_type != NULL)
    g_string_append_printf (head, "Content-Type: %s\r\n", route->content_type);
  if (route->location != NULL)
    g_string_append_printf (head, "Location: %s\r\n", route->location);
  if (route->etag != NULL)
    g_string_append_printf (head, "ETag: %s\r\n", route->etag);
  if (route->last_modified != NULL)
    g_string_append_printf (head, "Last-Modified: %s\r\n", route->last_modified);
  if (route->gzip && status != 304)
    g_string_append (head, "Content-Encoding: gzip\r\n");
  for (gsize i = 0; route->headers != NULL && route->headers[i] != NULL; i++)
    g_string_append_printf (head, "%s\r\n", route->headers[i]);
  if (has_body && route->endless)
    g_string_append (head, "Transfer-Encoding: chunked\r\n");
  else if (has_body)
    g_string_append_printf (head, "Content-Length: %zu\r\n", length);
  g_string_append (head, "\r\n");

  if (!send_all (connection, head->str, head->len) || !has_body)
    return;

  if (route->endless)
    send_endless_body (connection, route);
  else if (route->reset_mid_body)
    {
      if (send_body (connection, route, body, length / 2))
        reset_connection (connection);
    }
  else
    send_body (connection, route, body, length);
}

static Request *
read_request (Connection *connection)
{
  GCancellable *stopping = connection->server->stopping;
  GInputStream *base = g_io_stream_get_input_stream (G_IO_STREAM (connection->stream));
  g_autoptr (GDataInputStream) input = g_data_input_stream_new (base);
  g_autofree char *request_line = NULL;
  g_auto (GStrv) parts = NULL;
  Request *request;

  g_data_input_stream_set_newline_type (input, G_DATA_STREAM_NEWLINE_TYPE_CR_LF);
  /* The socket outlives this stream: it still has a response to carry. */
  g_filter_input_stream_set_close_base_stream (G_FILTER_INPUT_STREAM (input), FALSE);

  request_line = g_data_input_stream_read_line (input, NULL, stopping, NULL);
  if (request_line == NULL)
    return NULL;
  parts = g_strsplit (request_line, " ", 3);
  if (g_strv_length (parts) != 3)
    return NULL;

  request = g_new0 (Request, 1);
  request->received = g_get_monotonic_time ();
  request->method = g_strdup (parts[0]);
  request->path = g_strdup (parts[1]);
  request->headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);

  for (guint n_lines = 0; n_lines < MAX_HEADER_LINES; n_lines++)
    {
      g_autofree char *line = g_data_input_stream_read_line (input, NULL, stopping, NULL);
      g_autofree char *joined = NULL;
      char *colon;
      char *name;
      const char *value;
      const char *old_value;

      if (line == NULL || *line == '\0')
        break;
      colon = strchr (line, ':');
      if (colon == NULL)
        continue;
      *colon = '\0';
      name = g_ascii_strdown (g_strstrip (line), -1);
      value = g_strstrip (colon + 1);
      old_value = g_hash_table_lookup (request->headers, name);
      if (old_value != NULL)
        value = joined = g_strconcat (old_value, ", ", value, NULL);
      g_hash_table_insert (request->headers, name, g_strdup (value));
    }

  return request;
}

static gpointer
connection_thread (gpointer user_data)
{
  Connection *connection = user_data;
  LwnTestServer *server = connection->server;
  Request *request;
  Route *route = NULL;

  connection->stream = g_socket_connection_factory_create_connection (connection->socket);
  request = read_request (connection);

  if (request != NULL)
    {
      g_mutex_lock (&server->mutex);
      route = g_hash_table_lookup (server->routes, request->path);
      if (route != NULL)
        g_atomic_rc_box_acquire (route);
      g_ptr_array_add (server->requests, request);
      g_mutex_unlock (&server->mutex);
      count_request (connection);

      if (route != NULL)
        {
          respond (connection, request, route);
          route_unref (route);
        }
      else
        {
          const Route not_found = { .status = 404 };

          respond (connection, request, &not_found);
        }
      count_answer (connection);
    }

  g_io_stream_close (G_IO_STREAM (connection->stream), NULL, NULL);
  g_object_unref (connection->stream);
  g_object_unref (connection->socket);
  g_free (connection);
  return NULL;
}

static gpointer
accept_thread (gpointer user_data)
{
  Listener *listener = user_data;
  LwnTestServer *server = listener->server;

  while (TRUE)
    {
      GSocket *socket = g_socket_accept (listener->socket, server->stopping, NULL);
      Connection *connection;

      if (socket == NULL)
        break;

      g_socket_set_blocking (socket, TRUE);
      g_socket_set_timeout (socket, SOCKET_TIMEOUT_SECONDS);

      connection = g_new0 (Connection, 1);
      connection->server = server;
      connection->listener = listener;
      connection->socket = socket;
      connection->deadline = g_get_monotonic_time () + CONNECTION_DEADLINE_USEC;

      g_mutex_lock (&server->mutex);
      g_ptr_array_add (server->connection_threads,
                       g_thread_new ("lwn-test-connection", connection_thread, connection));
      g_mutex_unlock (&server->mutex);
    }

  return NULL;
}

static void
listener_free (Listener *listener)
{
  if (listener->socket != NULL)
    g_socket_close (listener->socket, NULL);
  g_clear_object (&listener->socket);
  g_free (listener);
}

/* Listens on 127.0.0.(@host + 1), on @port (0: a free one). */
static Listener *
listen_on (LwnTestServer *server,
           guint host,
           guint16 port,
           GError **error)
{
  g_autofree char *ip = g_strdup_printf ("127.0.0.%u", host + 1);
  g_autoptr (GInetAddress) loopback = g_inet_address_new_from_string (ip);
  g_autoptr (GSocketAddress) address = g_inet_socket_address_new (loopback, port);
  Listener *listener = g_new0 (Listener, 1);

  listener->server = server;
  listener->socket = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP, error);
  if (listener->socket == NULL || !g_socket_bind (listener->socket, address, TRUE, error)
      || !g_socket_listen (listener->socket, error))
    {
      listener_free (listener);
      return NULL;
    }
  return listener;
}

/**
 * lwn_test_server_new_hosts:
 * @n_hosts: how many hosts to answer as, from 1 to 254
 * @error: return location for a #GError
 *
 * Starts a server on 127.0.0.1, 127.0.0.2 and so on (@n_hosts of them, on
 * Linux all on the loopback device), on one free port, in its own threads.
 * To a client each is another host. Paths without a route get 404.
 *
 * Returns: (transfer full) (nullable): the server, or %NULL when an address
 *   cannot be listened on; free it with lwn_test_server_free()
 */
LwnTestServer *
lwn_test_server_new_hosts (guint n_hosts,
                           GError **error)
{
  g_autoptr (GSocketAddress) bound = NULL;
  LwnTestServer *server;

  g_return_val_if_fail (n_hosts >= 1 && n_hosts <= 254, NULL);

  server = g_new0 (LwnTestServer, 1);
  server->listeners = g_ptr_array_new_with_free_func ((GDestroyNotify) listener_free);
  for (guint host = 0; host < n_hosts; host++)
    {
      Listener *listener = listen_on (server, host, server->port, error);

      if (listener == NULL)
        {
          g_ptr_array_unref (server->listeners);
          g_free (server);
          return NULL;
        }
      g_ptr_array_add (server->listeners, listener);
      if (host == 0)
        {
          bound = g_socket_get_local_address (listener->socket, error);
          if (bound == NULL)
            {
              g_ptr_array_unref (server->listeners);
              g_free (server);
              return NULL;
            }
          server->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
        }
    }

  server->stopping = g_cancellable_new ();
  g_mutex_init (&server->mutex);
  server->routes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, (GDestroyNotify) route_unref);
  server->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) request_free);
  server->connection_threads = g_ptr_array_new ();
  for (guint host = 0; host < n_hosts; host++)
    {
      Listener *listener = g_ptr_array_index (server->listeners, host);

      listener->thread = g_thread_new ("lwn-test-server", accept_thread, listener);
    }

  return server;
}

/**
 * lwn_test_server_new:
 *
 * Starts a server on 127.0.0.1 on a free port, in its own threads, so that
 * the test may block in a synchronous call. Paths without a route get 404.
 *
 * Returns: (transfer full): the server; free it with lwn_test_server_free()
 */
LwnTestServer *
lwn_test_server_new (void)
{
  g_autoptr (GError) error = NULL;
  LwnTestServer *server = lwn_test_server_new_hosts (1, &error);

  g_assert_no_error (error);
  return server;
}

/**
 * lwn_test_server_free:
 * @server: (transfer full): a server
 *
 * Stops @server, interrupting any response still in progress, and waits for
 * its threads.
 */
void
lwn_test_server_free (LwnTestServer *server)
{
  g_cancellable_cancel (server->stopping);
  for (guint i = 0; i < server->listeners->len; i++)
    g_thread_join (((Listener *) g_ptr_array_index (server->listeners, i))->thread);

  /* No new connection can start now that the accept threads are gone. */
  for (guint i = 0; i < server->connection_threads->len; i++)
    g_thread_join (g_ptr_array_index (server->connection_threads, i));

  g_ptr_array_unref (server->connection_threads);
  g_ptr_array_unref (server->requests);
  g_hash_table_unref (server->routes);
  g_mutex_clear (&server->mutex);
  g_object_unref (server->stopping);
  g_ptr_array_unref (server->listeners);
  g_free (server);
}

/**
 * lwn_test_server_add_route:
 * @server: a server
 * @path: the request target to answer, query included, e.g. "/feed?x=1";
 *   or an absolute URI, which is what a client sends to a proxy, so that
 *   @server can play an HTTP proxy
 * @route: how to answer; copied
 *
 * Makes @server answer @path as @route says, replacing any earlier route.
 */
void
lwn_test_server_add_route (LwnTestServer *server,
                           const char *path,
                           const LwnTestRoute *route)
{
  Route *copy = g_atomic_rc_box_new0 (Route);
  gsize body_length = route->body_length;

  if (route->body != NULL && body_length == 0)
    body_length = strlen (route->body);

  copy->status = route->status;
  copy->content_type = g_strdup (route->content_type);
  copy->headers = g_strdupv ((GStrv) route->headers);
  copy->body = g_bytes_new (route->body, route->body != NULL ? body_length : 0);
  copy->location = g_strdup (route->location);
  copy->etag = g_strdup (route->etag);
  copy->last_modified = g_strdup (route->last_modified);
  copy->gzip = route->gzip;
  copy->endless = route->endless;
  copy->delay_ms = route->delay_ms;
  copy->drip_bytes = route->drip_bytes;
  copy->drip_interval_ms = route->drip_interval_ms;
  copy->reset_mid_body = route->reset_mid_body;

  if (copy->gzip)
    {
      GBytes *compressed = gzip_bytes (copy->body);

      g_bytes_unref (copy->body);
      copy->body = compressed;
    }

  g_mutex_lock (&server->mutex);
  g_hash_table_insert (server->routes, g_strdup (path), copy);
  g_mutex_unlock (&server->mutex);
}

/**
 * lwn_test_server_dup_url:
 * @server: a server
 * @path: an absolute path, e.g. "/feed"
 *
 * Returns: (transfer full): the http URL of @path on @server
 */
char *
lwn_test_server_dup_url (LwnTestServer *server,
                         const char *path)
{
  return lwn_test_server_dup_host_url (server, 0, path);
}

/**
 * lwn_test_server_dup_host_url:
 * @server: a server
 * @host: one of its hosts: 0 for 127.0.0.1, 1 for 127.0.0.2…
 * @path: an absolute path, e.g. "/feed"
 *
 * Returns: (transfer full): the http URL of @path on that host of @server
 */
char *
lwn_test_server_dup_host_url (LwnTestServer *server,
                              guint host,
                              const char *path)
{
  g_return_val_if_fail (host < server->listeners->len, NULL);

  return g_strdup_printf ("http://127.0.0.%u:%u%s", host + 1, server->port, path);
}

/**
 * lwn_test_server_get_max_at_once:
 * @server: a server
 *
 * A request counts from its request line until its answer starts, after
 * the route's delay: give the routes one to see requests overlap.
 *
 * Returns: the most requests @server had under way at the same time, on
 *   all its hosts together
 */
guint
lwn_test_server_get_max_at_once (LwnTestServer *server)
{
  guint max;

  g_mutex_lock (&server->mutex);
  max = server->max_at_once;
  g_mutex_unlock (&server->mutex);
  return max;
}

/**
 * lwn_test_server_get_host_max_at_once:
 * @server: a server
 * @host: one of its hosts, as for lwn_test_server_dup_host_url()
 *
 * Returns: as lwn_test_server_get_max_at_once(), on that host alone
 */
guint
lwn_test_server_get_host_max_at_once (LwnTestServer *server,
                                      guint host)
{
  guint max;

  g_return_val_if_fail (host < server->listeners->len, 0);

  g_mutex_lock (&server->mutex);
  max = ((Listener *) g_ptr_array_index (server->listeners, host))->max_at_once;
  g_mutex_unlock (&server->mutex);
  return max;
}

/**
 * lwn_test_server_count_requests:
 * @server: a server
 * @path: a request path
 *
 * Returns: how many requests for @path @server has received
 */
guint
lwn_test_server_count_requests (LwnTestServer *server,
                                const char *path)
{
  guint count = 0;

  g_mutex_lock (&server->mutex);
  for (guint i = 0; i < server->requests->len; i++)
    {
      const Request *request = g_ptr_array_index (server->requests, i);

      if (strcmp (request->path, path) == 0)
        count++;
    }
  g_mutex_unlock (&server->mutex);

  return count;
}

/**
 * lwn_test_server_get_first_request_time:
 * @server: a server
 * @path: a request path
 *
 * Returns: when the first request for @path came, in g_get_monotonic_time()'s
 *   microseconds, as the server saw it rather than when the test looks; 0
 *   if none came yet
 */
gint64
lwn_test_server_get_first_request_time (LwnTestServer *server,
                                        const char *path)
{
  gint64 received = 0;

  g_mutex_lock (&server->mutex);
  for (guint i = 0; i < server->requests->len && received == 0; i++)
    {
      const Request *request = g_ptr_array_index (server->requests, i);

      if (strcmp (request->path, path) == 0)
        received = request->received;
    }
  g_mutex_unlock (&server->mutex);

  return received;
}

/**
 * lwn_test_server_dup_request_header:
 * @server: a server
 * @path: a request path
 * @name: a header name, in any case
 *
 * Returns: (transfer full) (nullable): the value of header @name in the
 *   latest request for @path, or %NULL if there was no such request or header
 */
char *
lwn_test_server_dup_request_header (LwnTestServer *server,
                                    const char *path,
                                    const char *name)
{
  g_autofree char *key = g_ascii_strdown (name, -1);
  char *value = NULL;

  g_mutex_lock (&server->mutex);
  for (guint i = server->requests->len; i > 0; i--)
    {
      const Request *request = g_ptr_array_index (server->requests, i - 1);

      if (strcmp (request->path, path) == 0)
        {
          value = g_strdup (g_hash_table_lookup (request->headers, key));
          break;
        }
    }
  g_mutex_unlock (&server->mutex);

  return value;
}
