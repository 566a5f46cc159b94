#define _POSIX_C_SOURCE 200809L /* open_memstream */
/* The JSON writer's escaping, the reader, and the result-line schema, checked
 * by writing with one and reading back with the other. */
#include <stdlib.h>

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
  jsonw_key(&w, "inner");
  jsonw_object_begin(&w);
  jsonw_key(&w, "name");
  jsonw_string(&w, "x");
  jsonw_object_end(&w);
  jsonw_object_end(&w);
}

static void writer_and_reader_agree(void) {
  char *out = capture(write_nested, NULL);
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
  CHECK(strchr(out, '\n') == out + strlen(out) - 1); /* exactly one line */
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

int main(void) {
  escaping();
  writer_and_reader_agree();
  reader_reports_position();
  unicode_escapes();
  result_line_schema();
  missing_file_names_it();
  return test_summary();
}
