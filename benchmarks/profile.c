#include "profile.h"

#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "json_reader.h"
#include "json_writer.h"

const char *const table2_memory_names[TABLE2_MEMORIES] = {"shared", "constant", "global",
                                                          "texture"};

static void copy_string(char *dst, size_t size, const char *src) {
  snprintf(dst, size, "%s", src ? src : "");
}

void profile_init(profile *p) {
  memset(p, 0, sizeof *p);
  copy_string(p->source, sizeof p->source, "measured");
}

void profile_free(profile *p) {
  free(p->items);
  p->items = NULL;
  p->count = p->capacity = 0;
}

static profile_measurement *find_mutable(profile *p, const char *key) {
  for (size_t i = 0; i < p->count; i++)
    if (strcmp(p->items[i].key, key) == 0) return &p->items[i];
  return NULL;
}

static profile_measurement *slot_for(profile *p, const char *key) {
  profile_measurement *m = find_mutable(p, key);
  if (m) return m;
  if (p->count == p->capacity) {
    size_t grown = p->capacity ? 2 * p->capacity : 64;
    profile_measurement *items = realloc(p->items, grown * sizeof *items);
    if (!items) abort();
    p->items = items;
    p->capacity = grown;
  }
  m = &p->items[p->count++];
  memset(m, 0, sizeof *m);
  copy_string(m->key, sizeof m->key, key);
  return m;
}

void profile_set(profile *p, const char *key, const char *unit, const stats_summary *s) {
  profile_measurement *m = slot_for(p, key);
  copy_string(m->unit, sizeof m->unit, unit);
  m->source[0] = '\0';
  m->value = s->median;
  m->min = s->min;
  m->max = s->max;
  m->n = s->n;
}

void profile_set_value(profile *p, const char *key, const char *unit, double value,
                       const char *source) {
  profile_measurement *m = slot_for(p, key);
  copy_string(m->unit, sizeof m->unit, unit);
  copy_string(m->source, sizeof m->source, source);
  m->value = m->min = m->max = value;
  m->n = 0;
}

const profile_measurement *profile_find(const profile *p, const char *key) {
  return find_mutable((profile *)p, key);
}

double profile_value(const profile *p, const char *key) {
  const profile_measurement *m = profile_find(p, key);
  return m ? m->value : NAN;
}

static void write_gpu(jsonw *w, const profile *p) {
  jsonw_key(w, "gpu");
  jsonw_object_begin(w);
  jsonw_key(w, "name"); jsonw_string(w, p->name);
  jsonw_key(w, "short"); jsonw_string(w, p->short_name);
  jsonw_key(w, "arch"); jsonw_string(w, p->arch);
  jsonw_key(w, "sm_count"); jsonw_int(w, p->sm_count);
  jsonw_key(w, "sm_clock_mhz"); jsonw_int(w, p->sm_clock_mhz);
  jsonw_key(w, "driver"); jsonw_string(w, p->driver);
  jsonw_key(w, "source"); jsonw_string(w, p->source);
  jsonw_key(w, "reference"); jsonw_string(w, p->reference);
  jsonw_object_end(w);
}

static void write_measurements(jsonw *w, const profile *p) {
  jsonw_key(w, "measurements");
  jsonw_object_begin(w);
  for (size_t i = 0; i < p->count; i++) {
    const profile_measurement *m = &p->items[i];
    jsonw_key(w, m->key);
    jsonw_object_begin(w);
    jsonw_key(w, "value"); jsonw_number(w, m->value);
    jsonw_key(w, "unit"); jsonw_string(w, m->unit);
    if (m->n > 0) {
      jsonw_key(w, "min"); jsonw_number(w, m->min);
      jsonw_key(w, "max"); jsonw_number(w, m->max);
      jsonw_key(w, "n"); jsonw_int(w, m->n);
    } else if (m->source[0]) {
      jsonw_key(w, "source"); jsonw_string(w, m->source);
    }
    jsonw_object_end(w);
  }
  jsonw_object_end(w);
}

static void write_table2(jsonw *w, const profile *p) {
  jsonw_key(w, "table2");
  jsonw_object_begin(w);
  for (int i = 0; i < TABLE2_MEMORIES; i++) {
    const table2_row *r = &p->table2[i];
    if (!r->known) continue;
    jsonw_key(w, table2_memory_names[i]);
    jsonw_object_begin(w);
    jsonw_key(w, "broadcast"); jsonw_bool(w, r->broadcast);
    jsonw_key(w, "parallel"); jsonw_bool(w, r->parallel);
    jsonw_key(w, "aligned"); jsonw_string(w, r->aligned);
    jsonw_key(w, "consecutive"); jsonw_string(w, r->consecutive);
    jsonw_object_end(w);
  }
  jsonw_object_end(w);
}

void profile_write_stream(const profile *p, FILE *out) {
  jsonw w;
  jsonw_init(&w, out, true);
  jsonw_object_begin(&w);
  jsonw_key(&w, "schema"); jsonw_string(&w, PROFILE_SCHEMA);
  write_gpu(&w, p);
  if (strcmp(p->source, "measured") == 0) {
    jsonw_key(&w, "checks");
    jsonw_object_begin(&w);
    jsonw_key(&w, "chases"); jsonw_int(&w, p->chases);
    jsonw_key(&w, "chase_failures"); jsonw_int(&w, p->chase_failures);
    jsonw_object_end(&w);
  }
  write_measurements(&w, p);
  write_table2(&w, p);
  jsonw_object_end(&w);
  fputc('\n', out);
}

bool profile_write(const profile *p, const char *path, char *err, size_t err_size) {
  char temp[4096];
  snprintf(temp, sizeof temp, "%s.tmp", path);
  FILE *out = fopen(temp, "w");
  if (!out) {
    snprintf(err, err_size, "%s: cannot write: %s", temp, strerror(errno));
    return false;
  }
  profile_write_stream(p, out);
  bool ok = !ferror(out);
  if (fclose(out) != 0) ok = false;
  if (!ok) {
    snprintf(err, err_size, "%s: write failed: %s", temp, strerror(errno));
    remove(temp);
    return false;
  }
  if (rename(temp, path) != 0) {
    snprintf(err, err_size, "%s: cannot rename to %s: %s", temp, path, strerror(errno));
    remove(temp);
    return false;
  }
  return true;
}

static void read_gpu(const json_value *gpu, profile *p) {
  copy_string(p->name, sizeof p->name, json_string_or(json_get(gpu, "name"), ""));
  copy_string(p->short_name, sizeof p->short_name, json_string_or(json_get(gpu, "short"), ""));
  copy_string(p->arch, sizeof p->arch, json_string_or(json_get(gpu, "arch"), ""));
  copy_string(p->driver, sizeof p->driver, json_string_or(json_get(gpu, "driver"), ""));
  copy_string(p->source, sizeof p->source, json_string_or(json_get(gpu, "source"), "measured"));
  copy_string(p->reference, sizeof p->reference, json_string_or(json_get(gpu, "reference"), ""));
  p->sm_count = (int)json_number_or(json_get(gpu, "sm_count"), 0);
  p->sm_clock_mhz = (int)json_number_or(json_get(gpu, "sm_clock_mhz"), 0);
}

static bool read_measurements(const json_value *ms, profile *p, const char *path, char *err,
                              size_t err_size) {
  for (size_t i = 0; i < ms->count; i++) {
    const json_value *m = ms->items[i];
    const json_value *value = json_get(m, "value");
    if (!value || value->type != JSON_NUMBER) {
      snprintf(err, err_size, "%s: measurement \"%s\" has no numeric value", path, ms->keys[i]);
      return false;
    }
    profile_measurement *slot = slot_for(p, ms->keys[i]);
    copy_string(slot->unit, sizeof slot->unit, json_string_or(json_get(m, "unit"), ""));
    copy_string(slot->source, sizeof slot->source, json_string_or(json_get(m, "source"), ""));
    slot->value = value->number;
    slot->min = json_number_or(json_get(m, "min"), value->number);
    slot->max = json_number_or(json_get(m, "max"), value->number);
    slot->n = (int)json_number_or(json_get(m, "n"), 0);
  }
  return true;
}

/* Table 2 cells may be written as the paper does ("support") or as booleans. */
static bool read_support(const json_value *v) {
  if (v && v->type == JSON_BOOL) return v->boolean;
  return v && v->type == JSON_STRING && strcmp(v->string, "support") == 0;
}

static void read_table2(const json_value *t, profile *p) {
  for (int i = 0; i < TABLE2_MEMORIES; i++) {
    const json_value *row = json_get(t, table2_memory_names[i]);
    table2_row *r = &p->table2[i];
    if (!row || row->type != JSON_OBJECT) continue;
    r->known = true;
    r->broadcast = read_support(json_get(row, "broadcast"));
    r->parallel = read_support(json_get(row, "parallel"));
    copy_string(r->aligned, sizeof r->aligned, json_string_or(json_get(row, "aligned"), ""));
    copy_string(r->consecutive, sizeof r->consecutive,
                json_string_or(json_get(row, "consecutive"), ""));
  }
}

bool profile_read(const char *path, profile *p, char *err, size_t err_size) {
  profile_init(p);
  json_value *root = json_parse_file(path, err, err_size);
  if (!root) return false;
  bool ok = false;
  const char *schema = json_string_or(json_get(root, "schema"), "");
  const json_value *ms = json_get(root, "measurements");
  if (strcmp(schema, PROFILE_SCHEMA) != 0) {
    snprintf(err, err_size, "%s: schema is \"%s\", expected \"%s\"", path, schema,
             PROFILE_SCHEMA);
  } else if (!ms || ms->type != JSON_OBJECT) {
    snprintf(err, err_size, "%s: no \"measurements\" object", path);
  } else {
    read_gpu(json_get(root, "gpu"), p);
    const json_value *checks = json_get(root, "checks");
    p->chases = (long)json_number_or(json_get(checks, "chases"), 0);
    p->chase_failures = (long)json_number_or(json_get(checks, "chase_failures"), 0);
    ok = read_measurements(ms, p, path, err, err_size);
    read_table2(json_get(root, "table2"), p);
  }
  json_free(root);
  if (!ok) profile_free(p);
  return ok;
}

int profile_compare(const profile *older, const profile *newer, double tolerance, FILE *out) {
  int flagged = 0;
  for (size_t i = 0; i < newer->count; i++) {
    const profile_measurement *now = &newer->items[i];
    const profile_measurement *before = profile_find(older, now->key);
    if (!before || !isfinite(before->value) || !isfinite(now->value)) continue;
    double scale = fabs(before->value);
    double change = scale > 0 ? fabs(now->value - before->value) / scale
                              : (now->value != 0 ? INFINITY : 0);
    if (change > tolerance) {
      fprintf(out, "  varies %5.1f%%  %-44s %12.4g -> %-12.4g %s\n", 100 * change, now->key,
              before->value, now->value, now->unit);
      flagged++;
    }
  }
  return flagged;
}
