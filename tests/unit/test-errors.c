/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Tests that every error domain is registered under the name its module documents. */

#include "config.h"

#include "lwn-autostart.h"
#include "lwn-feed-parser.h"
#include "lwn-fetch.h"
#include "lwn-store.h"

typedef struct
{
  const char *name;
  GQuark (*quark) (void);
} Domain;

static const Domain domains[] = {
  { "lwn-autostart-error-quark", lwn_autostart_error_quark },
  { "lwn-fetch-error-quark", lwn_fetch_error_quark },
  { "lwn-parse-error-quark", lwn_parse_error_quark },
  { "lwn-store-error-quark", lwn_store_error_quark },
};

static void
test_domain_name (gconstpointer data)
{
  const Domain *domain = data;

  g_test_summary ("An error domain's name is the one its module documents, with no spaces in it");

  g_assert_cmpstr (g_quark_to_string (domain->quark ()), ==, domain->name);
}

int
main (int argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  for (gsize i = 0; i < G_N_ELEMENTS (domains); i++)
    {
      g_autofree char *path = g_strdup_printf ("/errors/%s", domains[i].name);

      g_test_add_data_func (path, &domains[i], test_domain_name);
    }

  return g_test_run ();
}
