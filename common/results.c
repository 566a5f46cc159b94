#include "results.h"

void result_begin(result_line *r, FILE *out, const char *suite, const char *name,
                  const char *device) {
  jsonw_init(&r->w, out, false);
  r->params_open = false;
  r->measured = false;
  jsonw_object_begin(&r->w);
  jsonw_key(&r->w, "schema");
  jsonw_string(&r->w, RESULT_SCHEMA);
  jsonw_key(&r->w, "suite");
  jsonw_string(&r->w, suite);
  jsonw_key(&r->w, "name");
  jsonw_string(&r->w, name);
  jsonw_key(&r->w, "device");
  jsonw_string(&r->w, device ? device : "none");
}

static void param_key(result_line *r, const char *key) {
  if (!r->params_open) {
    jsonw_key(&r->w, "params");
    jsonw_object_begin(&r->w);
    r->params_open = true;
  }
  jsonw_key(&r->w, key);
}

void result_param_int(result_line *r, const char *key, long long value) {
  param_key(r, key);
  jsonw_int(&r->w, value);
}

void result_param_num(result_line *r, const char *key, double value) {
  param_key(r, key);
  jsonw_number(&r->w, value);
}

void result_param_str(result_line *r, const char *key, const char *value) {
  param_key(r, key);
  jsonw_string(&r->w, value);
}

static void close_params(result_line *r) {
  if (r->params_open) {
    jsonw_object_end(&r->w);
    r->params_open = false;
  }
}

void result_measure(result_line *r, const char *metric, const char *unit,
                    const stats_summary *s) {
  close_params(r);
  jsonw_key(&r->w, "metric");
  jsonw_string(&r->w, metric);
  jsonw_key(&r->w, "unit");
  jsonw_string(&r->w, unit);
  jsonw_key(&r->w, "median");
  jsonw_number(&r->w, s->median);
  jsonw_key(&r->w, "min");
  jsonw_number(&r->w, s->min);
  jsonw_key(&r->w, "max");
  jsonw_number(&r->w, s->max);
  jsonw_key(&r->w, "repeats");
  jsonw_int(&r->w, s->n);
  r->measured = true;
}

void result_derived(result_line *r, const char *key, double value) {
  close_params(r);
  jsonw_key(&r->w, key);
  jsonw_number(&r->w, value);
}

void result_end(result_line *r) {
  close_params(r);
  jsonw_object_end(&r->w);
  fputc('\n', r->w.out);
  fflush(r->w.out);
}
