/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reads XML safely: libxml2 set-up, an entity budget, streamed parsing and readers that copy text out capped. */

#include "config.h"

#include <string.h>

#include <glib/gi18n.h>
#include <libxml/HTMLparser.h>
#include <libxml/SAX2.h>
#include <libxml/encoding.h>
#include <libxml/entities.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/xmlerror.h>

#include "lwn-feed-parser-error.h"
#include "lwn-url.h"
#include "lwn-xml.h"

G_DEFINE_AUTOPTR_CLEANUP_FUNC (xmlParserCtxt, xmlFreeParserCtxt)

/* Walkers recurse over elements and entities; libxml2 stops at a depth of
 * 256 without XML_PARSE_HUGE, this keeps our own stack use smaller. */
#define MAX_WALK_DEPTH 64

/* Entity lookups one document may cause (predefined ones like &amp; are not
 * looked up): far more than any feed needs, few enough that the nested
 * declarations described at budgeted_get_entity() are refused at once. */
#define MAX_ENTITY_LOOKUPS 10000

/* What all the entity references of a document may expand to, in bytes, at
 * least: the larger of this and the document's own size. */
#define MIN_EXPANSION_LIMIT (1024 * 1024)

/* Nodes that reading text may visit inside entities, over a whole document. */
#define MAX_ENTITY_WALK 1000000

/* The bytes libxml2 detects the encoding from, then the slices of the rest. */
#define PUSH_START 4
#define PUSH_CHUNK 65536

/* One document's parse, reached through the parser context's _private
 * pointer while it is read and through the document's afterwards. */
typedef struct
{
  xmlParserCtxt *ctxt; /* the document's own, not one libxml2 makes for an entity */
  LwnXmlElementFunc element_done;
  gpointer user_data;
  guint lookups;
  gsize expanded;
  gsize expansion_limit;
  gboolean refused_lookups;
  gboolean refused_expansion;
  /* What a refused reference stands for: nothing. */
  xmlEntity refused_entity;
  guint walked;
  gboolean walk_exceeded;
} XmlState;

/* No document may pull in anything from outside: not a DTD, not an external
 * entity, whatever the options. This is the last line behind the options,
 * which already keep libxml2 from trying. */
static xmlParserInputPtr
refuse_entity_loader (const char *url,
                      const char *id,
                      xmlParserCtxtPtr ctxt)
{
  return NULL;
}

static gpointer
init_once (gpointer data)
{
  xmlInitParser ();
  xmlSetExternalEntityLoader (refuse_entity_loader);
  return NULL;
}

/**
 * lwn_xml_init:
 *
 * Initialises libxml2 and installs an external-entity loader that refuses
 * everything. The loader is process-wide, so this runs once whatever the
 * number of callers and threads.
 */
void
lwn_xml_init (void)
{
  static GOnce once = G_ONCE_INIT;

  g_once (&once, init_once, NULL);
}

/**
 * lwn_xml_node_is:
 * @node: (nullable): a node
 * @ns_uri: (nullable): the namespace URI, %NULL for none
 * @name: the local name
 *
 * Returns: whether @node is the element @name in @ns_uri
 */
gboolean
lwn_xml_node_is (const xmlNode *node,
                 const char *ns_uri,
                 const char *name)
{
  if (node == NULL || node->type != XML_ELEMENT_NODE)
    return FALSE;
  if (!xmlStrEqual (node->name, (const xmlChar *) name))
    return FALSE;
  if (ns_uri == NULL)
    return node->ns == NULL || node->ns->href == NULL;
  return node->ns != NULL && xmlStrEqual (node->ns->href, (const xmlChar *) ns_uri);
}

/* The length of @text cut to at most @max_bytes on a character boundary. */
static gsize
capped_length (const char *text,
               gsize max_bytes)
{
  if (strlen (text) <= max_bytes)
    return strlen (text);
  while (max_bytes > 0 && ((guchar) text[max_bytes] & 0xC0) == 0x80)
    max_bytes--;
  return max_bytes;
}

/* Appends at most what fits under @max_bytes; FALSE once it is full. */
static gboolean
append_capped (GString *out,
               const char *text,
               gsize max_bytes)
{
  gsize len;

  if (text == NULL)
    return out->len < max_bytes;
  if (out->len >= max_bytes)
    return FALSE;
  len = capped_length (text, max_bytes - out->len);
  g_string_append_len (out, text, len);
  return text[len] == '\0';
}

/**
 * lwn_xml_strdup_capped:
 * @text: (nullable): UTF-8 text
 * @max_bytes: the most bytes to keep
 *
 * Returns: (transfer full) (nullable): a copy of @text cut at @max_bytes on
 *   a character boundary
 */
char *
lwn_xml_strdup_capped (const char *text,
                       gsize max_bytes)
{
  return text != NULL ? g_strndup (text, capped_length (text, max_bytes)) : NULL;
}

/* ------------------------------------------------------------------------ */
/* Reading text, with internal entities expanded                             */

/* One copy out of the tree: where it goes, and the document's budget. */
typedef struct
{
  GString *out;
  gsize max_bytes;
  gboolean markup;
  XmlState *state; /* NULL: entities are not expanded */
} Walk;

static gboolean append_children (Walk *walk,
                                 const xmlNode *node,
                                 guint depth,
                                 gboolean in_entity);

/* Counts one step inside an entity against the document's budget. */
static gboolean
charge (Walk *walk)
{
  if (walk->state->walk_exceeded)
    return FALSE;
  if (++walk->state->walked > MAX_ENTITY_WALK)
    {
      walk->state->walk_exceeded = TRUE;
      return FALSE;
    }
  return TRUE;
}

static gboolean
append_text (Walk *walk,
             const char *text)
{
  g_autofree char *escaped = NULL;

  if (walk->markup && text != NULL)
    text = escaped = g_markup_escape_text (text, -1);
  return append_capped (walk->out, text, walk->max_bytes);
}

/* libxml2 lets a document refer to entities it does not declare when it
 * names a DTD, which is never loaded; RSS 0.91's declares HTML's entities,
 * which stand for their characters here. Others stand for nothing. */
static gboolean
append_undeclared (Walk *walk,
                   const xmlNode *ref)
{
  const htmlEntityDesc *html = htmlEntityLookup (ref->name);
  char utf8[8] = { 0 };

  if (html == NULL)
    return TRUE;
  g_unichar_to_utf8 (html->value, utf8);
  return append_text (walk, utf8);
}

/* Only internal general entities expand: external ones are never loaded.
 * libxml2 parses an entity's replacement text into nodes at its first
 * reference in content or in an attribute; without them, only replacement
 * text that holds no markup and no references can stand in for them. */
static gboolean
append_entity (Walk *walk,
               const xmlNode *ref,
               guint depth)
{
  const xmlEntity *ent = (const xmlEntity *) ref->children;

  if (ent == NULL)
    return append_undeclared (walk, ref);
  if (ent->type != XML_ENTITY_DECL || ent->etype != XML_INTERNAL_GENERAL_ENTITY || walk->state == NULL || depth >= MAX_WALK_DEPTH)
    return TRUE;
  if (!charge (walk))
    return FALSE;
  if (ent->children != NULL)
    return append_children (walk, (const xmlNode *) ent, depth + 1, TRUE);
  if (ent->content != NULL && strpbrk ((const char *) ent->content, "<&") == NULL)
    return append_text (walk, (const char *) ent->content);
  return TRUE;
}

static gboolean
append_element_markup (Walk *walk,
                       const xmlNode *element,
                       guint depth,
                       gboolean in_entity)
{
  g_autoptr (GString) tag = g_string_new ("<");
  g_autofree char *end_tag = NULL;

  g_string_append (tag, (const char *) element->name);
  for (const xmlAttr *attr = element->properties; attr != NULL; attr = attr->next)
    {
      Walk value_walk = { g_string_new (NULL), LWN_XML_MAX_SHORT, FALSE, walk->state };
      g_autofree char *value = NULL;
      g_autofree char *escaped = NULL;

      append_children (&value_walk, (const xmlNode *) attr, depth + 1, in_entity);
      value = g_string_free (value_walk.out, FALSE);
      escaped = g_markup_escape_text (value, -1);
      g_string_append_printf (tag, " %s=\"%s\"", (const char *) attr->name, escaped);
    }
  g_string_append (tag, element->children == NULL ? "/>" : ">");
  if (!append_capped (walk->out, tag->str, walk->max_bytes))
    return FALSE;
  if (element->children == NULL)
    return TRUE;

  end_tag = g_strdup_printf ("</%s>", (const char *) element->name);
  return append_children (walk, element, depth + 1, in_entity) && append_capped (walk->out, end_tag, walk->max_bytes);
}

/* Text and CDATA; elements as markup or as their text; entity references
 * expanded within the document's budget. Returns FALSE to stop: the cap
 * or the budget is reached. */
static gboolean
append_children (Walk *walk,
                 const xmlNode *node,
                 guint depth,
                 gboolean in_entity)
{
  for (const xmlNode *child = node->children; child != NULL; child = child->next)
    {
      if (in_entity && !charge (walk))
        return FALSE;

      switch (child->type)
        {
          case XML_TEXT_NODE:
          case XML_CDATA_SECTION_NODE:
            if (!append_text (walk, (const char *) child->content))
              return FALSE;
            break;

          case XML_ENTITY_REF_NODE:
            if (!append_entity (walk, child, depth))
              return FALSE;
            break;

          case XML_ELEMENT_NODE:
            if (depth >= MAX_WALK_DEPTH)
              break;
            if (walk->markup ? !append_element_markup (walk, child, depth, in_entity)
                             : !append_children (walk, child, depth + 1, in_entity))
              return FALSE;
            break;

          default:
            break;
        }
    }

  return TRUE;
}

static char *
dup_walked (const xmlNode *node,
            gsize max_bytes,
            gboolean markup)
{
  const xmlNode *only = node->children;
  Walk walk = { NULL, max_bytes, markup, NULL };
  gsize len;

  /* Most elements hold one text node: copy it at its size, not at the
   * power of two a GString grows to, which would stay allocated. */
  if (only != NULL && only->next == NULL && !markup && (only->type == XML_TEXT_NODE || only->type == XML_CDATA_SECTION_NODE))
    return lwn_xml_strdup_capped ((const char *) only->content, max_bytes);

  walk.out = g_string_new (NULL);
  if (node->doc != NULL)
    walk.state = node->doc->_private;
  append_children (&walk, node, 0, FALSE);
  len = walk.out->len;
  return g_realloc (g_string_free (walk.out, FALSE), len + 1);
}

/**
 * lwn_xml_node_dup_text:
 * @node: an element or attribute
 * @max_bytes: the most bytes to return
 *
 * Internal entities are expanded within the document's budget; once it is
 * spent, lwn_xml_check_entities() fails.
 *
 * Returns: (transfer full): the text inside @node, cut at @max_bytes on a
 *   character boundary
 */
char *
lwn_xml_node_dup_text (const xmlNode *node,
                       gsize max_bytes)
{
  return dup_walked (node, max_bytes, FALSE);
}

/**
 * lwn_xml_node_dup_markup:
 * @node: an element holding inline XHTML
 * @max_bytes: the most bytes to return
 *
 * Serialises the children of @node as HTML, with local names, escaped text
 * and attribute values, and internal entities expanded as
 * lwn_xml_node_dup_text() does.
 *
 * Returns: (transfer full): HTML, cut at @max_bytes
 */
char *
lwn_xml_node_dup_markup (const xmlNode *node,
                         gsize max_bytes)
{
  return dup_walked (node, max_bytes, TRUE);
}

/**
 * lwn_xml_node_dup_attr:
 * @node: an element
 * @ns_uri: (nullable): the attribute's namespace URI, %NULL for none
 * @name: the attribute's local name
 *
 * Reads an attribute given in the document (never a DTD default), with
 * internal entities expanded as lwn_xml_node_dup_text() does.
 *
 * Returns: (transfer full) (nullable): the value, or %NULL when absent
 */
char *
lwn_xml_node_dup_attr (const xmlNode *node,
                       const char *ns_uri,
                       const char *name)
{
  for (const xmlAttr *attr = node->properties; attr != NULL; attr = attr->next)
    {
      gboolean ns_matches;

      if (!xmlStrEqual (attr->name, (const xmlChar *) name))
        continue;
      if (ns_uri == NULL)
        ns_matches = attr->ns == NULL;
      else
        ns_matches = attr->ns != NULL && xmlStrEqual (attr->ns->href, (const xmlChar *) ns_uri);
      if (ns_matches)
        return dup_walked ((const xmlNode *) attr, LWN_XML_MAX_SHORT, FALSE);
    }

  return NULL;
}

/**
 * lwn_xml_node_dup_base:
 * @node: an element
 * @document_url: (nullable): the URL the document came from
 *
 * Works out the base URL of @node from the xml:base attributes on it and
 * its ancestors (https://www.w3.org/TR/xmlbase/), resolved outward-in
 * against @document_url. This does what xmlNodeGetBase() does, but reads
 * the attributes as lwn_xml_node_dup_attr() does.
 *
 * Returns: (transfer full) (nullable): an absolute URL, or %NULL when no
 *   xml:base applies or it cannot be made absolute
 */
char *
lwn_xml_node_dup_base (const xmlNode *node,
                       const char *document_url)
{
  g_autoptr (GPtrArray) bases = NULL;
  g_autofree char *base = NULL;

  for (const xmlNode *cur = node; cur != NULL && cur->type == XML_ELEMENT_NODE; cur = cur->parent)
    {
      char *value;

      /* Most elements have no attributes at all. */
      if (cur->properties == NULL)
        continue;
      value = lwn_xml_node_dup_attr (cur, LWN_NS_XML, "base");
      if (value == NULL)
        continue;
      if (bases == NULL)
        bases = g_ptr_array_new_with_free_func (g_free);
      g_ptr_array_add (bases, value);
    }

  if (bases == NULL)
    return NULL;

  base = g_strdup (document_url);
  for (guint i = bases->len; i > 0; i--)
    {
      const char *value = g_ptr_array_index (bases, i - 1);
      char *resolved = lwn_url_resolve (base, g_strstrip ((char *) value));

      if (resolved != NULL)
        {
          g_free (base);
          base = resolved;
        }
    }

  return g_steal_pointer (&base);
}

/* ------------------------------------------------------------------------ */
/* Parsing                                                                   */

/* What @ent expands to, in bytes, counting every reference inside it that
 * libxml2 has already checked for loops; remembered in the declaration. */
static gsize
expanded_size (xmlDoc *doc,
               xmlEntity *ent,
               guint depth,
               gsize limit)
{
  gsize size = 0;

  if (ent->_private != NULL)
    return GPOINTER_TO_SIZE (ent->_private) - 1;
  if (ent->content == NULL)
    return 0;
  if (depth >= MAX_WALK_DEPTH)
    return limit + 1;

  for (const xmlChar *p = ent->content; *p != '\0' && size <= limit; p++)
    {
      const char *end;

      if (*p == '&' && p[1] != '#' && (end = strchr ((const char *) p, ';')) != NULL)
        {
          g_autofree char *name = g_strndup ((const char *) p + 1, end - (const char *) p - 1);
          xmlEntity *inner = xmlGetDocEntity (doc, (const xmlChar *) name);

          if (inner != NULL && inner->etype == XML_INTERNAL_GENERAL_ENTITY && inner->checked != 0)
            {
              size += expanded_size (doc, inner, depth + 1, limit);
              p = (const xmlChar *) end;
              continue;
            }
        }
      size++;
    }

  size = MIN (size, limit + 1);
  ent->_private = GSIZE_TO_POINTER (size + 1);
  return size;
}

/* libxml2 2.9.14 stops a "billion laughs" document by weighing what its
 * entities expand to, but a reference to an undeclared entity expands to
 * nothing: nested declarations that end in one ("<!ENTITY a1 '&x;&x;'>",
 * "<!ENTITY a2 '&a1;&a1;'>", …) referenced from an attribute make it check
 * an exponential number of references, unnoticed. Every lookup of a
 * non-predefined entity comes through here, so a budget on them bounds
 * that work. The same place weighs what each reference will expand to
 * when read, which libxml2 does not do without XML_PARSE_NOENT: an entity
 * of a few kilobytes referenced thousands of times is refused here.
 * xmlStopParser() is meant to be called from SAX callbacks. A refused
 * reference gets an entity that stands for nothing, never NULL: for NULL,
 * libxml2 looks the entity up itself, and the contexts it makes for the
 * entities of entities, which xmlStopParser() does not reach, went on
 * expanding them all, seconds to hours of work. */
static xmlEntityPtr
budgeted_get_entity (void *user_data,
                     const xmlChar *name)
{
  xmlParserCtxtPtr ctxt = user_data;
  XmlState *state = ctxt->_private;
  xmlEntityPtr ent;

  if (state->refused_lookups || state->refused_expansion)
    return &state->refused_entity;
  if (++state->lookups > MAX_ENTITY_LOOKUPS)
    {
      state->refused_lookups = TRUE;
      xmlStopParser (ctxt);
      return &state->refused_entity;
    }

  ent = xmlSAX2GetEntity (ctxt, name);
  if (ent != NULL && ent->etype == XML_INTERNAL_GENERAL_ENTITY)
    {
      /* Until libxml2 has checked an entity for loops at its first
       * reference, only its own text is counted. */
      gsize size = ent->checked != 0 ? expanded_size (ctxt->myDoc, ent, 0, state->expansion_limit) : (gsize) MAX (ent->length, 0);

      state->expanded += MIN (size, state->expansion_limit + 1);
      if (state->expanded > state->expansion_limit)
        {
          state->refused_expansion = TRUE;
          xmlStopParser (ctxt);
          return &state->refused_entity;
        }
    }
  return ent;
}

/* Hands each finished element near the root to the caller, and frees what
 * the caller has copied out, so that a long feed never stands whole in
 * memory as a tree. The element itself stays, empty, so that libxml2's own
 * bookkeeping of the last child (it appends text to a last text node) is
 * left alone. */
static void
end_element_cb (void *ctx,
                const xmlChar *localname,
                const xmlChar *prefix,
                const xmlChar *uri)
{
  xmlParserCtxtPtr ctxt = ctx;
  XmlState *state = ctxt->_private;
  xmlNode *element = ctxt->node;
  int depth = ctxt->nameNr;

  xmlSAX2EndElementNs (ctx, localname, prefix, uri);

  if (ctxt != state->ctxt || element == NULL || depth < 2 || depth > 3 || !ctxt->wellFormed || state->element_done == NULL)
    return;
  if (element->doc != NULL)
    element->doc->_private = state;
  if (!state->element_done (element, state->user_data))
    return;
  xmlFreeNodeList (element->children);
  element->children = NULL;
  element->last = NULL;
  xmlFreePropList (element->properties);
  element->properties = NULL;
  /* The white space before it is not the last child either. */
  if (element->prev != NULL && element->prev->type == XML_TEXT_NODE)
    {
      xmlNode *space = element->prev;

      xmlUnlinkNode (space);
      xmlFreeNode (space);
    }
}

static gboolean
set_budget_error (XmlState *state,
                  GError **error)
{
  if (state->refused_lookups)
    {
      g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                   /* Translators: %d is a number, the limit on references
                    * like "&name;" in one document. */
                   _ ("XML error: more than %d entity references"), MAX_ENTITY_LOOKUPS);
      return TRUE;
    }
  if (state->refused_expansion)
    {
      g_autofree char *limit = g_format_size (state->expansion_limit);

      g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                   /* Translators: %s is a size such as "1.0 MB". */
                   _ ("XML error: entity references expand to more than %s"), limit);
      return TRUE;
    }
  return FALSE;
}

/* Sets @error from the budget, or else from libxml2's errors, if the
 * parse failed. */
static gboolean
parse_failed (xmlParserCtxt *ctxt,
              XmlState *state,
              xmlDoc *doc,
              const xmlError *first,
              GError **error)
{
  if (set_budget_error (state, error))
    return TRUE;
  if (doc != NULL && ctxt->wellFormed)
    return FALSE;
  lwn_parse_error_set_xml (error, first, xmlCtxtGetLastError (ctxt));
  return TRUE;
}

/* Hands the document to libxml2 a slice at a time: xmlCtxtReadMemory()
 * would first copy all of it into a buffer of its own. The first bytes
 * went in with the context, for libxml2 to detect the encoding. */
static xmlDoc *
push_document (xmlParserCtxt *ctxt,
               const char *data,
               gsize size,
               xmlError *first)
{
  xmlStructuredErrorFunc saved_func = xmlStructuredError;
  void *saved_data = xmlStructuredErrorContext;
  xmlDoc *doc;

  /* Per-thread in libxml2 built with threads: parsers in other threads keep
   * their own handler, and ours sees only this parse. */
  xmlSetStructuredErrorFunc (first, lwn_parse_error_keep_first);
  for (gsize done = MIN (size, PUSH_START); done < size && ctxt->wellFormed && ctxt->instate != XML_PARSER_EOF; done += PUSH_CHUNK)
    xmlParseChunk (ctxt, data + done, (int) MIN (PUSH_CHUNK, size - done), 0);
  xmlParseChunk (ctxt, NULL, 0, 1);
  xmlSetStructuredErrorFunc (saved_data, saved_func);

  doc = ctxt->myDoc;
  ctxt->myDoc = NULL;
  if (doc != NULL && !ctxt->wellFormed)
    g_clear_pointer (&doc, xmlFreeDoc);
  return doc;
}

/* A push parser context with our hooks; the SAX handler belongs to this
 * context alone. HTTP's charset outranks the XML declaration (RFC 7303,
 * section 3.2), when libxml2 knows it. */
static xmlParserCtxt *
new_context (XmlState *state,
             const char *data,
             gsize size,
             const char *charset,
             const char *document_url,
             int options)
{
  xmlCharEncodingHandler *handler = charset != NULL ? xmlFindCharEncodingHandler (charset) : NULL;
  xmlParserCtxt *ctxt;

  if (charset != NULL && handler == NULL)
    g_debug ("Unknown charset “%s” in the Content-Type; using the document’s own", charset);
  if (handler != NULL)
    options |= XML_PARSE_IGNORE_ENC;

  ctxt = xmlCreatePushParserCtxt (NULL, NULL, data, (int) MIN (size, PUSH_START), document_url);
  if (ctxt == NULL)
    {
      if (handler != NULL)
        xmlCharEncCloseFunc (handler);
      return NULL;
    }
  ctxt->_private = state;
  ctxt->sax->getEntity = budgeted_get_entity;
  ctxt->sax->endElementNs = end_element_cb;
  xmlCtxtUseOptions (ctxt, options);
  if (handler != NULL)
    xmlSwitchToEncoding (ctxt, handler);
  return ctxt;
}

/**
 * lwn_xml_read:
 * @body: the bytes of the document
 * @charset: (nullable): the charset HTTP named; it outranks the
 *   document's own declaration when libxml2 knows it
 * @document_url: (nullable): the URL the document came from
 * @element_done: (nullable) (scope call): called as each element at depth
 *   2 or 3 ends, during the parse
 * @user_data: for @element_done
 * @error: return location for a #GError in %LWN_PARSE_ERROR
 *
 * Parses without network access, without loading any DTD or external
 * entity, with libxml2 silent, and with a budget on entity references.
 *
 * Returns: (transfer full) (nullable): the document, to be freed with
 *   lwn_xml_doc_free(), or %NULL with @error set:
 *   %LWN_PARSE_ERROR_MALFORMED (the message names the line) or
 *   %LWN_PARSE_ERROR_ENCODING
 */
xmlDoc *
lwn_xml_read (GBytes *body,
              const char *charset,
              const char *document_url,
              LwnXmlElementFunc element_done,
              gpointer user_data,
              GError **error)
{
  g_autoptr (xmlParserCtxt) ctxt = NULL;
  xmlDoc *doc;
  xmlError first = { 0 };
  XmlState *state;
  gboolean failed;
  gsize size;
  const char *data = g_bytes_get_data (body, &size);
  int options = XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING | XML_PARSE_NOCDATA;

  lwn_xml_init ();

  state = g_new0 (XmlState, 1);
  state->element_done = element_done;
  state->user_data = user_data;
  state->expansion_limit = MAX (MIN_EXPANSION_LIMIT, size);
  state->refused_entity.type = XML_ENTITY_DECL;
  state->refused_entity.name = (const xmlChar *) "refused";
  state->refused_entity.etype = XML_INTERNAL_PREDEFINED_ENTITY;
  state->refused_entity.content = (xmlChar *) "";
  state->refused_entity.orig = (xmlChar *) "";

  ctxt = new_context (state, data, size, charset, document_url, options);
  if (ctxt == NULL)
    {
      g_set_error_literal (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                           _ ("Could not set up the XML parser"));
      g_free (state);
      return NULL;
    }

  state->ctxt = ctxt;
  doc = push_document (ctxt, data, size, &first);
  state->ctxt = NULL;
  state->element_done = NULL;
  if (doc != NULL)
    doc->_private = state;

  failed = parse_failed (ctxt, state, doc, &first, error);
  xmlResetError (&first);
  if (!failed)
    return doc;
  if (doc != NULL)
    lwn_xml_doc_free (doc);
  else
    g_free (state);
  return NULL;
}

/**
 * lwn_xml_check_entities:
 * @doc: a document from lwn_xml_read()
 * @error: return location for a #GError in %LWN_PARSE_ERROR
 *
 * Reading text expands internal entities within a budget for the whole
 * document; text read after it ran out lacks them.
 *
 * Returns: %FALSE, with @error set to %LWN_PARSE_ERROR_MALFORMED, if the
 *   budget ran out
 */
gboolean
lwn_xml_check_entities (const xmlDoc *doc,
                        GError **error)
{
  const XmlState *state = doc->_private;

  if (state != NULL && state->walk_exceeded)
    {
      g_set_error (error, LWN_PARSE_ERROR, LWN_PARSE_ERROR_MALFORMED,
                   /* Translators: %d is a number of steps. */
                   _ ("XML error: entity references take more than %d steps to expand"), MAX_ENTITY_WALK);
      return FALSE;
    }
  return TRUE;
}

/**
 * lwn_xml_doc_free:
 * @doc: (transfer full): a document from lwn_xml_read()
 */
void
lwn_xml_doc_free (xmlDoc *doc)
{
  g_free (doc->_private);
  xmlFreeDoc (doc);
}
