#define _POSIX_C_SOURCE 200809L /* open_memstream, mkstemp */
/* The JSON writer's escaping and layout, the reader, and the result-line
 * schema, checked by writing with one and reading back with the other. The
 * exact bytes are checked too: profiles, reports and result lines are
 * compared and diffed as text, so the layout and the "%.9g" numbers must not
 * change under them. */
#include <stdlib.h>
#include <unistd.h>

#include "json_reader.h"
#include "json_writer.h"
#include "results.h"
#include "testing.h"

/* Runs write(ctx) into a memory buffer and returns it (caller frees). */
static char *capture(void (*write)(FILE *, void *), void *ctx) {
  char *buf = NULL;
  size_t len = 0;
  FILE *f = open_memstream(&buf, &len);
  write(f, ctx);
  fclose(f);
  return buf;
}

static void write_awkward_string(FILE *f, void *ctx) {
  json_write_escaped(f, (const char *)ctx);
}

static void escaping(void) {
  char *out = capture(write_awkward_string, "a\"b\\c\nd\te\x01" "f/");
  CHECK_STR(out, "\"a\\\"b\\\\c\\nd\\te\\u0001f/\"");
  char err[128];
  json_value *v = json_parse(out, strlen(out), err, sizeof err);
  CHECK(v && v->type == JSON_STRING);
  if (v) CHECK_STR(v->string, "a\"b\\c\nd\te\x01" "f/");
  json_free(v);
  free(out);
}

static void write_nested(FILE *f, void *ctx) {
  (void)ctx;
  jsonw w;
  jsonw_init(&w, f, true);
  jsonw_object_begin(&w);
  jsonw_key(&w, "empty");
  jsonw_array_begin(&w);
  jsonw_array_end(&w);
  jsonw_key(&w, "list");
  jsonw_array_begin(&w);
  jsonw_int(&w, 1);
  jsonw_number(&w, 2.5);
  jsonw_bool(&w, true);
  jsonw_null(&w);
  jsonw_number(&w, 0.0 / 0.0);
  jsonw_array_end(&w);
  jsonw_key(&w, "numbers");
  jsonw_array_begin(&w);
  jsonw_number(&w, 163.0);
  jsonw_number(&w, 1e9);
  jsonw_number(&w, 1.5e-7);
  jsonw_number(&w, 0.1 + 0.2);
  jsonw_int(&w, -9223372036854775807LL - 1);
  jsonw_array_end(&w);
  jsonw_key(&w, "no_object");
  jsonw_object_begin(&w);
  jsonw_object_end(&w);
  jsonw_key(&w, "inner");
  jsonw_object_begin(&w);
  jsonw_key(&w, "name");
  jsonw_string(&w, "x");
  jsonw_object_end(&w);
  jsonw_object_end(&w);
}

static void writer_and_reader_agree(void) {
  char *out = capture(write_nested, NULL);
  CHECK_STR(out, "{\n"
                 "  \"empty\": [],\n"
                 "  \"list\": [\n    1,\n    2.5,\n    true,\n    null,\n    null\n  ],\n"
                 "  \"numbers\": [\n    163,\n    1e+09,\n    1.5e-07,\n    0.3,\n    -9223372036854775808\n  ],\n"
                 "  \"no_object\": {},\n"
                 "  \"inner\": {\n    \"name\": \"x\"\n  }\n"
                 "}");
  char err[128];
  json_value *v = json_parse(out, strlen(out), err, sizeof err);
  CHECK(v != NULL);
  if (!v) { fprintf(stderr, "%s\n%s\n", err, out); free(out); return; }
  CHECK(json_get(v, "empty")->count == 0);
  const json_value *list = json_get(v, "list");
  CHECK(list && list->count == 5);
  CHECK_NEAR(json_number_or(json_at(list, 1), -1), 2.5, 0);
  CHECK(json_at(list, 2)->type == JSON_BOOL && json_at(list, 2)->boolean);
  CHECK(json_at(list, 4)->type == JSON_NULL); /* NaN is written as null */
  CHECK_STR(json_string_or(json_path(v, "inner.name"), NULL), "x");
  CHECK(json_path(v, "inner.missing") == NULL);
  CHECK(json_get(v, "no_object")->type == JSON_OBJECT && json_get(v, "no_object")->count == 0);
  CHECK_NEAR(json_number_or(json_at(json_get(v, "numbers"), 2), 0), 1.5e-7, 0);
  json_free(v);
  free(out);
}

static void reader_reports_position(void) {
  char err[128];
  const char *bad = "{\n  \"a\": [1, 2,, 3]\n}";
  json_value *v = json_parse(bad, strlen(bad), err, sizeof err);
  CHECK(v == NULL);
  CHECK(strncmp(err, "line 2, column 14", 17) == 0);
  const char *cases[] = {"", "[1 2]", "{\"a\" 1}", "\"open", "tru", "[1],", "{\"k\":1,}", "-"};
  for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
    json_value *w = json_parse(cases[i], strlen(cases[i]), err, sizeof err);
    CHECK(w == NULL);
    json_free(w);
  }
  const char *truncated = "{\n  \"a\": tru";
  CHECK(json_parse(truncated, strlen(truncated), err, sizeof err) == NULL);
  CHECK_STR(err, "line 2, column 11: unexpected end of input");
  const char *nul_after = "[1]\0x"; /* json-c stops at a NUL; the reader must not */
  CHECK(json_parse(nul_after, 5, err, sizeof err) == NULL);
  CHECK_STR(err, "line 1, column 4: trailing characters after the document");
  char deep[1000];
  memset(deep, '[', sizeof deep);
  CHECK(json_parse(deep, sizeof deep, err, sizeof err) == NULL);
  CHECK(strstr(err, "nesting") != NULL);
}

static void unicode_escapes(void) {
  const char *text = "\"\\u00e9\\ud83d\\ude00\"";
  char err[128];
  json_value *v = json_parse(text, strlen(text), err, sizeof err);
  CHECK(v != NULL);
  if (v) CHECK_STR(v->string, "\xc3\xa9\xf0\x9f\x98\x80");
  json_free(v);
}

/* Raw UTF-8 in strings (json-c 0.18's strict mode refused every byte above
 * 0x7f there: its issue #875, fixed in 0.19), and documents that are not
 * objects, including json-c's null, which is a NULL pointer. */
static void utf8_and_scalars(void) {
  char err[128];
  const char *text = "[\"caf\xc3\xa9 \xe2\x80\x94\", 7, null]";
  json_value *v = json_parse(text, strlen(text), err, sizeof err);
  CHECK(v != NULL);
  if (!v) fprintf(stderr, "%s\n", err);
  CHECK_STR(json_string_or(json_at(v, 0), NULL), "caf\xc3\xa9 \xe2\x80\x94");
  json_free(v);
  const char *scalars[] = {"7", " -0.5e1 ", "null", "true", "\"s\""};
  const json_kind kinds[] = {JSON_NUMBER, JSON_NUMBER, JSON_NULL, JSON_BOOL, JSON_STRING};
  for (size_t i = 0; i < sizeof scalars / sizeof *scalars; i++) {
    v = json_parse(scalars[i], strlen(scalars[i]), err, sizeof err);
    CHECK(v && v->type == kinds[i]);
    json_free(v);
  }
  v = json_parse(" -0.5e1 ", 8, err, sizeof err);
  CHECK_NEAR(json_number_or(v, 0), -5, 0);
  json_free(v);
}

static void write_result_line(FILE *f, void *ctx) {
  (void)ctx;
  const double samples[] = {2.0, 1.0, 4.0};
  stats_summary s;
  stats_summarize(samples, 3, &s);
  result_line r;
  result_begin(&r, f, "unit", "a \"quoted\" name", "Test GPU");
  result_param_int(&r, "n", 1024);
  result_param_str(&r, "type", "float4");
  result_measure(&r, "time_ms", "ms", &s);
  result_derived(&r, "gbs", 123.5);
  result_end(&r);
}

static void result_line_schema(void) {
  char *out = capture(write_result_line, NULL);
  CHECK_STR(out, "{\"schema\":\"" RESULT_SCHEMA "\",\"suite\":\"unit\",\"name\":\"a \\\"quoted\\\" name\","
                 "\"device\":\"Test GPU\",\"params\":{\"n\":1024,\"type\":\"float4\"},\"metric\":\"time_ms\","
                 "\"unit\":\"ms\",\"median\":2,\"min\":1,\"max\":4,\"repeats\":3,\"gbs\":123.5}\n");
  char err[128];
  json_value *v = json_parse(out, strlen(out), err, sizeof err);
  CHECK(v != NULL);
  if (v) {
    CHECK_STR(json_string_or(json_get(v, "schema"), NULL), RESULT_SCHEMA);
    CHECK_STR(json_string_or(json_get(v, "name"), NULL), "a \"quoted\" name");
    CHECK_NEAR(json_number_or(json_path(v, "params.n"), 0), 1024, 0);
    CHECK_STR(json_string_or(json_path(v, "params.type"), NULL), "float4");
    CHECK_NEAR(json_number_or(json_get(v, "median"), 0), 2.0, 0);
    CHECK_NEAR(json_number_or(json_get(v, "min"), 0), 1.0, 0);
    CHECK_NEAR(json_number_or(json_get(v, "max"), 0), 4.0, 0);
    CHECK_NEAR(json_number_or(json_get(v, "repeats"), 0), 3, 0);
    CHECK_NEAR(json_number_or(json_get(v, "gbs"), 0), 123.5, 0);
  }
  json_free(v);
  free(out);
}

static void missing_file_names_it(void) {
  char err[256];
  json_value *v = json_parse_file("/nonexistent/profile.json", err, sizeof err);
  CHECK(v == NULL);
  CHECK(strstr(err, "/nonexistent/profile.json") != NULL);
}

/* A bad file: one line naming the file and the position. */
static void bad_file_names_it_and_the_position(void) {
  char path[] = "/tmp/test_json_XXXXXX";
  int fd = mkstemp(path);
  CHECK(fd >= 0);
  if (fd < 0) return;
  const char *bad = "{\n  \"a\": [1, 2,, 3]\n}\n";
  CHECK(write(fd, bad, strlen(bad)) == (ssize_t)strlen(bad));
  close(fd);
  char err[256], expected[256];
  CHECK(json_parse_file(path, err, sizeof err) == NULL);
  snprintf(expected, sizeof expected, "%s: line 2, column 14: ", path);
  CHECK(strncmp(err, expected, strlen(expected)) == 0 && strchr(err, '\n') == NULL);
  if (strncmp(err, expected, strlen(expected)) != 0) fprintf(stderr, "got: %s\n", err);
  remove(path);
}

int main(void) {
  escaping();
  writer_and_reader_agree();
  reader_reports_position();
  unicode_escapes();
  utf8_and_scalars();
  result_line_schema();
  missing_file_names_it();
  bad_file_names_it_and_the_position();
  return test_summary();
}
