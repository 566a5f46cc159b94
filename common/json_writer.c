#include "json_writer.h"

#include <math.h>

void jsonw_init(jsonw *w, FILE *out, bool pretty) {
  w->out = out;
  w->depth = 0;
  w->need_comma[0] = false;
  w->after_key = false;
  w->pretty = pretty;
}

static void indent(jsonw *w) {
  if (!w->pretty) return;
  fputc('\n', w->out);
  for (int i = 0; i < w->depth; i++) fputs("  ", w->out);
}

/* Every value and key starts here: the comma and layout before it. */
static void before_item(jsonw *w) {
  if (w->after_key) {
    w->after_key = false;
    return;
  }
  if (w->depth > 0) {
    if (w->need_comma[w->depth]) fputc(',', w->out);
    indent(w);
  }
  w->need_comma[w->depth] = true;
}

static void open_container(jsonw *w, char c) {
  before_item(w);
  fputc(c, w->out);
  if (w->depth + 1 < JSONW_MAX_DEPTH) w->depth++;
  w->need_comma[w->depth] = false;
}

static void close_container(jsonw *w, char c) {
  bool had_members = w->need_comma[w->depth];
  if (w->depth > 0) w->depth--;
  if (had_members) indent(w);
  fputc(c, w->out);
}

void jsonw_object_begin(jsonw *w) { open_container(w, '{'); }
void jsonw_object_end(jsonw *w) { close_container(w, '}'); }
void jsonw_array_begin(jsonw *w) { open_container(w, '['); }
void jsonw_array_end(jsonw *w) { close_container(w, ']'); }

void jsonw_key(jsonw *w, const char *key) {
  before_item(w);
  json_write_escaped(w->out, key);
  fputs(w->pretty ? ": " : ":", w->out);
  w->after_key = true;
}

void json_write_escaped(FILE *out, const char *s) {
  fputc('"', out);
  for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
    switch (*p) {
    case '"': fputs("\\\"", out); break;
    case '\\': fputs("\\\\", out); break;
    case '\n': fputs("\\n", out); break;
    case '\r': fputs("\\r", out); break;
    case '\t': fputs("\\t", out); break;
    case '\b': fputs("\\b", out); break;
    case '\f': fputs("\\f", out); break;
    default:
      if (*p < 0x20) fprintf(out, "\\u%04x", *p);
      else fputc(*p, out);
    }
  }
  fputc('"', out);
}

void jsonw_string(jsonw *w, const char *s) {
  before_item(w);
  if (s) json_write_escaped(w->out, s);
  else fputs("null", w->out);
}

void jsonw_number(jsonw *w, double x) {
  before_item(w);
  if (isfinite(x)) fprintf(w->out, "%.9g", x);
  else fputs("null", w->out);
}

void jsonw_int(jsonw *w, long long x) {
  before_item(w);
  fprintf(w->out, "%lld", x);
}

void jsonw_bool(jsonw *w, bool b) {
  before_item(w);
  fputs(b ? "true" : "false", w->out);
}

void jsonw_null(jsonw *w) {
  before_item(w);
  fputs("null", w->out);
}
