/* The rule catalog (rules/catalog.json, compiled in) and GPU profiles
 * (benchmarks/data/<gpu>.json, read at run time from warplint's data folder).
 * Every number warplint prints comes from a profile through wl_metric_lookup. */
#include "warplint.h"

#include <dirent.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

extern const unsigned char wl_catalog_json[];
extern const size_t wl_catalog_json_size;

static json_value *catalog;

const json_value *wl_catalog(void) {
  if (!catalog) {
    char err[256];
    catalog = json_parse((const char *)wl_catalog_json, wl_catalog_json_size, err, sizeof err);
    if (!catalog) {
      fprintf(stderr, "warplint: the compiled-in rule catalog is broken: %s\n", err);
      exit(2);
    }
  }
  return catalog;
}

const json_value *wl_rule(const char *id) {
  const json_value *rules = json_get(wl_catalog(), "rules");
  for (size_t i = 0; rules && i < rules->count; i++) {
    const json_value *rule = json_at(rules, i);
    if (strcasecmp(json_string_or(json_get(rule, "id"), ""), id) == 0) return rule;
  }
  return NULL;
}

bool wl_rule_is_checked(const char *id) {
  return strcmp(json_string_or(json_get(wl_rule(id), "check"), ""), "static") == 0;
}

/* <the executable's folder>/WARPLINT_DATA_RELATIVE (../share/warplint):
 * the build copies the profiles and rule examples there and `cmake
 * --install` puts them at the same place relative to bin/, so an installed
 * warplint and a moved build folder both find their data, and no path of
 * the source tree is compiled in. */
const char *wl_share_dir(void) {
  static char dir[PATH_MAX];
  if (dir[0]) return dir;
  char exe[PATH_MAX];
  ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n <= 0) {
    snprintf(dir, sizeof dir, "(unknown: /proc/self/exe is unreadable; set WARPLINT_DATA_DIR)");
    return dir;
  }
  exe[n] = 0;
  *strrchr(exe, '/') = 0;  /* the link is an absolute path with no "..": the folder of the executable */
  const char *relative = WARPLINT_DATA_RELATIVE;
  for (char *up; strncmp(relative, "../", 3) == 0 && (up = strrchr(exe, '/')) && up != exe; relative += 3) *up = 0;
  snprintf(dir, sizeof dir, "%.*s/%s", (int)(sizeof dir - strlen(relative) - 2), exe, relative);
  return dir;
}

const char *wl_data_dir(void) {
  static char dir[PATH_MAX + 16];
  const char *env = getenv("WARPLINT_DATA_DIR");
  if (env && *env) return env;
  if (!dir[0]) snprintf(dir, sizeof dir, "%s/profiles", wl_share_dir());
  return dir;
}

static bool looks_like_path(const char *s) {
  return strchr(s, '/') || (strlen(s) > 5 && strcmp(s + strlen(s) - 5, ".json") == 0);
}

static void stem_of(const char *path, char *out, size_t size) {
  const char *base = strrchr(path, '/');
  base = base ? base + 1 : path;
  snprintf(out, size, "%s", base);
  char *dot = strrchr(out, '.');
  if (dot && strcmp(dot, ".json") == 0) *dot = 0;
}

static json_value *load_checked(const char *path, char *err, size_t err_size) {
  json_value *p = json_parse_file(path, err, err_size);
  if (!p) return NULL;
  if (strcmp(json_string_or(json_get(p, "schema"), ""), "warpmem.profile/1") != 0 ||
      !json_get(p, "measurements")) {
    snprintf(err, err_size, "%s: not a GPU profile (schema warpmem.profile/1 with measurements)", path);
    json_free(p);
    return NULL;
  }
  return p;
}

static int by_name(const void *a, const void *b) { return strcmp(a, b); }

/* The profile for --gpu NAME|FILE, or else the one whose gpu.arch matches
 * arch (a measured one before a transcribed one). */
json_value *wl_load_profile(const char *name_or_file, const char *arch, char *name_out, size_t name_size,
                            char *err, size_t err_size) {
  char path[8192];
  if (name_or_file) {
    if (looks_like_path(name_or_file)) snprintf(path, sizeof path, "%s", name_or_file);
    else snprintf(path, sizeof path, "%s/%s.json", wl_data_dir(), name_or_file);
    stem_of(path, name_out, name_size);
    return load_checked(path, err, err_size);
  }
  DIR *dir = opendir(wl_data_dir());
  if (!dir) {
    snprintf(err, err_size, "no GPU profile: cannot open data folder %s (set WARPLINT_DATA_DIR or use --gpu FILE)",
             wl_data_dir());
    return NULL;
  }
  json_value *best = NULL;
  char others[1024] = "";   /* "h100-sxm (sm_90), k20c-paper (sm_35)": the profiles there, for the error */
  struct dirent *e;
  char names[256][200];
  int count = 0;
  while ((e = readdir(dir)) && count < 256) {
    size_t len = strlen(e->d_name);
    if (len > 5 && strcmp(e->d_name + len - 5, ".json") == 0) snprintf(names[count++], sizeof names[0], "%.199s", e->d_name);
  }
  closedir(dir);
  qsort(names, (size_t)count, sizeof names[0], by_name);
  for (int i = 0; i < count; i++) {
    snprintf(path, sizeof path, "%s/%.199s", wl_data_dir(), names[i]);
    char ignored[256];
    json_value *p = load_checked(path, ignored, sizeof ignored);
    if (!p) continue;
    const json_value *gpu = json_get(p, "gpu");
    bool arch_match = strcmp(json_string_or(json_get(gpu, "arch"), ""), arch) == 0;
    bool measured = strcmp(json_string_or(json_get(gpu, "source"), ""), "measured") == 0;
    char stem[200];
    stem_of(path, stem, sizeof stem);
    size_t used = strlen(others);
    snprintf(others + used, sizeof others - used, "%s%s (%s)", used ? ", " : "", stem,
             json_string_or(json_get(gpu, "arch"), "no arch"));
    if (arch_match && (!best || measured)) {
      json_free(best);
      best = p;
      stem_of(path, name_out, name_size);
      if (measured) break;
    } else {
      json_free(p);
    }
  }
  if (!best && others[0])
    snprintf(err, err_size, "no GPU profile for %s in %s; it has %s: name one with --gpu", arch, wl_data_dir(),
             others);
  else if (!best) snprintf(err, err_size, "no GPU profile for %s in %s", arch, wl_data_dir());
  return best;
}

void wl_metric_lookup(const wl_options *opt, const char *key, wl_metric *m) {
  memset(m, 0, sizeof *m);
  snprintf(m->key, sizeof m->key, "%s", key);
  const json_value *measurements = json_get(opt->profile, "measurements");
  const json_value *v = json_get(measurements, key);
  const json_value *value = json_get(v, "value");
  if (!value || value->type != JSON_NUMBER) return;
  m->present = true;
  m->value = value->number;
  snprintf(m->unit, sizeof m->unit, "%s", json_string_or(json_get(v, "unit"), ""));
}

void wl_metric_text(const wl_options *opt, const wl_metric *m, const char *label, char *out, size_t size) {
  const char *profile = opt->profile_name ? opt->profile_name : "no profile";
  if (!m->present) {
    snprintf(out, size, "%s: %s not measured in %s", label, m->key, profile);
    return;
  }
  snprintf(out, size, "%s %.4g %s (%s)", label, m->value, m->unit, m->key);
}
