#include "json_reader.h"
#include "text_file.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deeper nesting than this is refused rather than risking the C stack. */
#define JSON_MAX_NESTING 200

typedef struct parser {
  const char *text;
  size_t len;
  size_t pos;
  int nesting;
  char *err;
  size_t err_size;
  bool failed;
} parser;

static void fail(parser *p, const char *fmt, ...) {
  if (p->failed) return;
  p->failed = true;
  int line = 1, col = 1;
  for (size_t i = 0; i < p->pos && i < p->len; i++) {
    if (p->text[i] == '\n') { line++; col = 1; } else col++;
  }
  int used = snprintf(p->err, p->err_size, "line %d, column %d: ", line, col);
  if (used < 0 || (size_t)used >= p->err_size) return;
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(p->err + used, p->err_size - (size_t)used, fmt, ap);
  va_end(ap);
}

static void skip_space(parser *p) {
  while (p->pos < p->len && strchr(" \t\r\n", p->text[p->pos]) && p->text[p->pos]) p->pos++;
}

static json_value *new_value(json_type type) {
  json_value *v = calloc(1, sizeof *v);
  if (!v) abort();
  v->type = type;
  return v;
}

static json_value *parse_value(parser *p);

static bool consume_literal(parser *p, const char *word) {
  size_t n = strlen(word);
  if (p->len - p->pos >= n && memcmp(p->text + p->pos, word, n) == 0) {
    p->pos += n;
    return true;
  }
  return false;
}

static void append_utf8(char *out, size_t *n, unsigned cp) {
  if (cp < 0x80) out[(*n)++] = (char)cp;
  else if (cp < 0x800) {
    out[(*n)++] = (char)(0xC0 | (cp >> 6));
    out[(*n)++] = (char)(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out[(*n)++] = (char)(0xE0 | (cp >> 12));
    out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[(*n)++] = (char)(0x80 | (cp & 0x3F));
  } else {
    out[(*n)++] = (char)(0xF0 | (cp >> 18));
    out[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
    out[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
    out[(*n)++] = (char)(0x80 | (cp & 0x3F));
  }
}

static bool read_hex4(parser *p, unsigned *out) {
  if (p->len - p->pos < 4) return false;
  unsigned v = 0;
  for (int i = 0; i < 4; i++) {
    char c = p->text[p->pos++];
    v <<= 4;
    if (c >= '0' && c <= '9') v |= (unsigned)(c - '0');
    else if (c >= 'a' && c <= 'f') v |= (unsigned)(c - 'a' + 10);
    else if (c >= 'A' && c <= 'F') v |= (unsigned)(c - 'A' + 10);
    else return false;
  }
  *out = v;
  return true;
}

/* Called with pos on the opening quote; returns a malloc'd string. */
static char *parse_string_raw(parser *p) {
  p->pos++;
  /* Escapes never make the text longer than the source (\uXXXX is 6 bytes
   * for at most 4 of UTF-8), so the rest of the input bounds the size. */
  char *out = malloc(p->len - p->pos + 1);
  if (!out) abort();
  size_t n = 0;
  while (p->pos < p->len) {
    unsigned char c = (unsigned char)p->text[p->pos++];
    if (c == '"') {
      out[n] = '\0';
      return out;
    }
    if (c < 0x20) {
      p->pos--;
      fail(p, "control character in string");
      break;
    }
    if (c != '\\') {
      out[n++] = (char)c;
      continue;
    }
    if (p->pos >= p->len) break;
    char e = p->text[p->pos++];
    switch (e) {
    case '"': out[n++] = '"'; break;
    case '\\': out[n++] = '\\'; break;
    case '/': out[n++] = '/'; break;
    case 'b': out[n++] = '\b'; break;
    case 'f': out[n++] = '\f'; break;
    case 'n': out[n++] = '\n'; break;
    case 'r': out[n++] = '\r'; break;
    case 't': out[n++] = '\t'; break;
    case 'u': {
      unsigned cp;
      if (!read_hex4(p, &cp)) { fail(p, "bad \\u escape"); goto error; }
      if (cp >= 0xD800 && cp < 0xDC00 && p->len - p->pos >= 6 &&
          p->text[p->pos] == '\\' && p->text[p->pos + 1] == 'u') {
        unsigned low;
        p->pos += 2;
        if (!read_hex4(p, &low) || low < 0xDC00 || low > 0xDFFF) {
          fail(p, "bad surrogate pair");
          goto error;
        }
        cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
      }
      append_utf8(out, &n, cp);
      break;
    }
    default:
      p->pos--;
      fail(p, "unknown escape '\\%c'", e);
      goto error;
    }
  }
  fail(p, "unterminated string");
error:
  free(out);
  return NULL;
}

static json_value *parse_number(parser *p) {
  size_t start = p->pos;
  if (p->text[p->pos] == '-') p->pos++;
  while (p->pos < p->len && strchr("0123456789.eE+-", p->text[p->pos]) && p->text[p->pos]) p->pos++;
  size_t n = p->pos - start;
  char buf[64];
  if (n == 0 || n >= sizeof buf) {
    p->pos = start;
    fail(p, "bad number");
    return NULL;
  }
  memcpy(buf, p->text + start, n);
  buf[n] = '\0';
  char *end;
  double x = strtod(buf, &end);
  if (*end != '\0') {
    p->pos = start;
    fail(p, "bad number '%s'", buf);
    return NULL;
  }
  json_value *v = new_value(JSON_NUMBER);
  v->number = x;
  return v;
}

static void push_member(json_value *v, char *key, json_value *item, size_t *cap) {
  if (v->count == *cap) {
    *cap = *cap ? 2 * *cap : 4;
    v->items = realloc(v->items, *cap * sizeof *v->items);
    if (v->type == JSON_OBJECT) v->keys = realloc(v->keys, *cap * sizeof *v->keys);
    if (!v->items || (v->type == JSON_OBJECT && !v->keys)) abort();
  }
  if (v->type == JSON_OBJECT) v->keys[v->count] = key;
  v->items[v->count++] = item;
}

static json_value *parse_container(parser *p, json_type type) {
  char close = type == JSON_OBJECT ? '}' : ']';
  if (++p->nesting > JSON_MAX_NESTING) {
    fail(p, "nesting deeper than %d", JSON_MAX_NESTING);
    return NULL;
  }
  p->pos++;
  json_value *v = new_value(type);
  size_t cap = 0;
  skip_space(p);
  if (p->pos < p->len && p->text[p->pos] == close) {
    p->pos++;
    p->nesting--;
    return v;
  }
  for (;;) {
    char *key = NULL;
    skip_space(p);
    if (type == JSON_OBJECT) {
      if (p->pos >= p->len || p->text[p->pos] != '"') { fail(p, "expected a member name"); break; }
      key = parse_string_raw(p);
      if (!key) break;
      skip_space(p);
      if (p->pos >= p->len || p->text[p->pos] != ':') { free(key); fail(p, "expected ':'"); break; }
      p->pos++;
    }
    json_value *item = parse_value(p);
    if (!item) { free(key); break; }
    push_member(v, key, item, &cap);
    skip_space(p);
    if (p->pos < p->len && p->text[p->pos] == ',') { p->pos++; continue; }
    if (p->pos < p->len && p->text[p->pos] == close) {
      p->pos++;
      p->nesting--;
      return v;
    }
    fail(p, "expected ',' or '%c'", close);
    break;
  }
  json_free(v);
  return NULL;
}

static json_value *parse_value(parser *p) {
  skip_space(p);
  if (p->pos >= p->len) { fail(p, "unexpected end of input"); return NULL; }
  char c = p->text[p->pos];
  if (c == '{') return parse_container(p, JSON_OBJECT);
  if (c == '[') return parse_container(p, JSON_ARRAY);
  if (c == '"') {
    char *s = parse_string_raw(p);
    if (!s) return NULL;
    json_value *v = new_value(JSON_STRING);
    v->string = s;
    return v;
  }
  if (c == '-' || (c >= '0' && c <= '9')) return parse_number(p);
  if (consume_literal(p, "true")) { json_value *v = new_value(JSON_BOOL); v->boolean = true; return v; }
  if (consume_literal(p, "false")) return new_value(JSON_BOOL);
  if (consume_literal(p, "null")) return new_value(JSON_NULL);
  fail(p, "unexpected character '%c'", c);
  return NULL;
}

json_value *json_parse(const char *text, size_t len, char *err, size_t err_size) {
  parser p = {text, len, 0, 0, err, err_size, false};
  if (err_size) err[0] = '\0';
  json_value *v = parse_value(&p);
  if (v) {
    skip_space(&p);
    if (p.pos != p.len) {
      fail(&p, "trailing characters after the document");
      json_free(v);
      v = NULL;
    }
  }
  return v;
}

json_value *json_parse_file(const char *path, char *err, size_t err_size) {
  size_t len;
  char *text = read_text_file(path, &len);
  if (!text) {
    snprintf(err, err_size, "%s: cannot read: %s", path, strerror(errno));
    return NULL;
  }
  char msg[256];
  json_value *v = json_parse(text, len, msg, sizeof msg);
  free(text);
  if (!v) snprintf(err, err_size, "%s: %s", path, msg);
  return v;
}

void json_free(json_value *v) {
  if (!v) return;
  for (size_t i = 0; i < v->count; i++) {
    json_free(v->items[i]);
    if (v->keys) free(v->keys[i]);
  }
  free(v->items);
  free(v->keys);
  free(v->string);
  free(v);
}

const json_value *json_get(const json_value *object, const char *key) {
  if (!object || object->type != JSON_OBJECT) return NULL;
  for (size_t i = 0; i < object->count; i++)
    if (strcmp(object->keys[i], key) == 0) return object->items[i];
  return NULL;
}

const json_value *json_path(const json_value *root, const char *dotted) {
  const json_value *v = root;
  char key[128];
  while (v && *dotted) {
    size_t n = strcspn(dotted, ".");
    if (n >= sizeof key) return NULL;
    memcpy(key, dotted, n);
    key[n] = '\0';
    v = json_get(v, key);
    dotted += n;
    if (*dotted == '.') dotted++;
  }
  return v;
}

const json_value *json_at(const json_value *array, size_t index) {
  if (!array || (array->type != JSON_ARRAY && array->type != JSON_OBJECT) || index >= array->count)
    return NULL;
  return array->items[index];
}

double json_number_or(const json_value *v, double fallback) {
  return v && v->type == JSON_NUMBER ? v->number : fallback;
}

const char *json_string_or(const json_value *v, const char *fallback) {
  return v && v->type == JSON_STRING ? v->string : fallback;
}
