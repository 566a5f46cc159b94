#define _POSIX_C_SOURCE 200809L /* clock_gettime */
/* How long loading a JSON document takes with each candidate C library and
 * with the project's own reader (json_reader.h), on the project's documents.
 *
 * Each file is read into memory once; only parsing into a tree and freeing
 * it is timed. Every repeat times `rounds` loads with each parser in turn,
 * rotating the order so that drift favours none; the table gives the median
 * time of one load over the repeats. Prints a table and, with --results, one
 * result line (common/results.h) per file and parser.
 *
 * usage: json_load_bench [--repeats R] [--rounds K] [--label NAME] [--results FILE] FILES... */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "json_reader.h"
#include "loaders.h"
#include "results.h"
#include "stats.h"
#include "text_file.h"

#define MAX_REPEATS 1000

static bool load_project(const char *text, size_t len) {
  char err[256];
  json_value *v = json_parse(text, len, err, sizeof err);
  json_free(v);
  return v != NULL;
}

typedef struct parser {
  const char *name;
  load_fn load;
  const char *version;  /* of the library, as it says at run time */
} parser;

static parser parsers[] = {
  {"json_parse", load_project, "this build"},  /* renamed by --label */
  {"json-c", load_json_c, NULL},
  {"jansson", load_jansson, NULL},
  {"cJSON", load_cjson, NULL},
};
enum { PARSERS = sizeof parsers / sizeof *parsers };

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* Microseconds per load, over `rounds` loads. */
static double time_loads(const parser *p, const char *text, size_t len, int rounds) {
  double start = now_s();
  for (int i = 0; i < rounds; i++) p->load(text, len);
  return 1e6 * (now_s() - start) / rounds;
}

static const char *base_name(const char *path) {
  const char *slash = strrchr(path, '/');
  return slash ? slash + 1 : path;
}

static void write_result(FILE *out, const char *path, size_t len, int rounds, const parser *p,
                         const stats_summary *s) {
  result_line line;
  result_begin(&line, out, "common", "json_load", "none");
  result_param_str(&line, "file", base_name(path));
  result_param_int(&line, "bytes", (long long)len);
  result_param_str(&line, "parser", p->name);
  result_param_str(&line, "version", p->version);
  result_param_int(&line, "rounds", rounds);
  result_measure(&line, "load_us", "us", s);
  result_end(&line);
}

/* Times every parser on one file; false if the file is unreadable or a parser rejects it. */
static bool bench_file(const char *path, int repeats, int rounds, FILE *results) {
  size_t len;
  char *text = read_text_file(path, &len);
  if (!text) {
    fprintf(stderr, "%s: cannot read: %s\n", path, strerror(errno));
    return false;
  }
  for (int k = 0; k < PARSERS; k++) {
    if (!parsers[k].load(text, len)) {  /* also the warm-up */
      fprintf(stderr, "%s: %s does not parse it\n", path, parsers[k].name);
      free(text);
      return false;
    }
  }
  static double us[PARSERS][MAX_REPEATS];
  for (int r = 0; r < repeats; r++)
    for (int i = 0; i < PARSERS; i++) {
      int k = (r + i) % PARSERS;
      us[k][r] = time_loads(&parsers[k], text, len, rounds);
    }
  for (int k = 0; k < PARSERS; k++) {
    stats_summary s;
    stats_summarize(us[k], repeats, &s);
    printf("%-22s %7zu  %-26s %9.1f %9.1f %9.1f\n", base_name(path), len, parsers[k].name, s.median,
           s.min, s.max);
    if (results) write_result(results, path, len, rounds, &parsers[k], &s);
  }
  free(text);
  return true;
}

static const char usage[] =
    "usage: json_load_bench [--repeats R] [--rounds K] [--label NAME] [--results FILE] FILES...\n"
    "times loading each JSON file with json_parse, json-c, jansson and cJSON (median of R repeats\n"
    "of K loads); --results appends one JSON line per parser and file\n";

int main(int argc, char **argv) {
  int repeats = 31, rounds = 200, count = 0;
  const char *results_path = NULL;
  char **files = calloc((size_t)argc, sizeof *files);
  if (!files) return 1;
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(usage, stdout);
      free(files);
      return 0;
    }
    if (argv[i][0] == '-' && argv[i][1] == '-' && strcmp(argv[i], "--repeats") && strcmp(argv[i], "--rounds") &&
        strcmp(argv[i], "--label") && strcmp(argv[i], "--results")) {
      fprintf(stderr, "json_load_bench: unknown option %s\n%s", argv[i], usage);
      free(files);
      return 2;
    }
    if (strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) repeats = atoi(argv[++i]);
    else if (strcmp(argv[i], "--rounds") == 0 && i + 1 < argc) rounds = atoi(argv[++i]);
    else if (strcmp(argv[i], "--label") == 0 && i + 1 < argc) parsers[0].name = argv[++i];
    else if (strcmp(argv[i], "--results") == 0 && i + 1 < argc) results_path = argv[++i];
    else files[count++] = argv[i];
  }
  if (count == 0 || repeats < 1 || repeats > MAX_REPEATS || rounds < 1) {
    fputs(usage, stderr);
    free(files);
    return 2;
  }
  FILE *results = results_path ? fopen(results_path, "a") : NULL;
  if (results_path && !results) {
    fprintf(stderr, "%s: cannot open for appending: %s\n", results_path, strerror(errno));
    free(files);
    return 1;
  }
  parsers[1].version = json_c_library_version();
  parsers[2].version = jansson_library_version();
  parsers[3].version = cjson_library_version();
  printf("json-c %s, jansson %s, cJSON %s; ", parsers[1].version, parsers[2].version, parsers[3].version);
  printf("%d repeats of %d loads each; microseconds per load\n", repeats, rounds);
  printf("%-22s %7s  %-26s %9s %9s %9s\n", "file", "bytes", "parser", "median", "min", "max");
  int status = 0;
  for (int i = 0; i < count; i++)
    if (!bench_file(files[i], repeats, rounds, results)) status = 1;
  if (results) fclose(results);
  free(files);
  return status;
}
