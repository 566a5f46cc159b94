/* warpbench: runs the warp-level memory experiments on the first GPU,
 * writes their result lines and the GPU profile, derives Table 2 and prints
 * it beside the paper's K20c table.
 *
 *   warpbench [--quick | --tiny] [--repeats N] [--sms N] [--only NAME[,NAME...]]
 *             [--out DIR] [--name SLUG]
 *
 * Output: DIR/SLUG.json (the profile) and DIR/SLUG.jsonl (result lines).
 * When DIR/SLUG.json exists already, every quantity that moved by more than
 * 5% since that run is listed and counted ("varies"). The SM clock is
 * measured before every experiment (clock.sm_mhz); the suite never sets it. */
#define _POSIX_C_SOURCE 200809L

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "bench.h"
#include "table2.h"

#ifndef WARPBENCH_SOURCE_DIR
#define WARPBENCH_SOURCE_DIR "."
#endif

typedef struct experiment {
  const char *name;
  void (*run)(bench_ctx *);
} experiment;

static const experiment experiments[] = {
    {"latency_chase", exp_latency_chase},
    {"warp_broadcast", exp_warp_broadcast},
    {"access_pattern", exp_access_pattern},
    {"local_array", exp_local_array},
    {"bank_conflict", exp_bank_conflict},
    {"datatype_bandwidth", exp_datatype_bandwidth},
    {"cache_structure", exp_cache_structure},
    {"onchip_bandwidth", exp_onchip_bandwidth},
    {"l2_partition", exp_l2_partition},
};
enum { EXPERIMENT_COUNT = sizeof experiments / sizeof experiments[0] };

enum { MAX_REPEATS = 64 };  /* the experiments' sample arrays */

typedef struct options {
  int quick, tiny, repeats, max_sms;
  const char *only;
  const char *out_dir;
  char slug[64];
} options;

static void usage(FILE *out) {
  fprintf(out, "usage: warpbench [--quick | --tiny] [--repeats N] [--sms N] [--only NAME[,NAME...]]\n"
               "                 [--out DIR] [--name SLUG]\n"
               "  --quick      fewer points and repeats (the GPU test)\n"
               "  --tiny       every kernel once on the smallest sizes (compute-sanitizer); figures mean nothing\n"
               "  --repeats N  launches per point (1..%d; default 11, 3 with --quick, 1 with --tiny)\n"
               "  --sms N      SMs whose L2 and DRAM latencies l2_partition measures (default all)\n"
               "experiments:", MAX_REPEATS);
  for (int i = 0; i < EXPERIMENT_COUNT; i++) fprintf(out, " %s", experiments[i].name);
  fputc('\n', out);
}

/* "NVIDIA H100 80GB HBM3" -> "nvidia-h100-80gb-hbm3". */
static void slug_of(const char *name, char *slug, size_t size) {
  size_t n = 0;
  for (const char *s = name; *s && n + 1 < size; s++) {
    char ch = *s;
    if (ch >= 'A' && ch <= 'Z') ch = (char)(ch - 'A' + 'a');
    int alnum = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9');
    if (alnum) slug[n++] = ch;
    else if (n > 0 && slug[n - 1] != '-') slug[n++] = '-';
  }
  while (n > 0 && slug[n - 1] == '-') n--;
  slug[n] = '\0';
}

static int selected(const options *o, const char *name) {
  if (!o->only) return 1;
  size_t len = strlen(name);
  for (const char *s = o->only; (s = strstr(s, name)) != NULL; s += len) {
    int starts = s == o->only || s[-1] == ',';
    int ends = s[len] == '\0' || s[len] == ',';
    if (starts && ends) return 1;
  }
  return 0;
}

/* A whole number in [low, high] or -1. */
static int int_in(const char *text, int low, int high) {
  char *end;
  errno = 0;
  long v = strtol(text, &end, 10);
  return errno == 0 && end != text && *end == '\0' && v >= low && v <= high ? (int)v : -1;
}

static int bad_number(const char *option, const char *text, int high) {
  fprintf(stderr, "warpbench: %s: \"%s\" is not a whole number from 1 to %d\n", option, text, high);
  return 0;
}

static const struct option long_options[] = {
  {"quick", no_argument, NULL, 'q'},   {"tiny", no_argument, NULL, 't'},
  {"repeats", required_argument, NULL, 'r'}, {"sms", required_argument, NULL, 's'},
  {"only", required_argument, NULL, 'O'}, {"out", required_argument, NULL, 'o'},
  {"name", required_argument, NULL, 'n'}, {"help", no_argument, NULL, 'h'},
  {NULL, 0, NULL, 0},
};

static int parse_args(int argc, char **argv, options *o) {
  memset(o, 0, sizeof *o);
  o->out_dir = ".";
  opterr = 0;   /* warpbench words its own errors */
  int opt;
  while ((opt = getopt_long(argc, argv, "+h", long_options, NULL)) != -1) {
    const char *a = argv[optind - 1];
    switch (opt) {
    case 'q': o->quick = 1; break;
    case 't': o->quick = o->tiny = 1; break;
    case 'r':
      if ((o->repeats = int_in(optarg, 1, MAX_REPEATS)) < 0) return bad_number("--repeats", optarg, MAX_REPEATS);
      break;
    case 's':
      if ((o->max_sms = int_in(optarg, 1, 1024)) < 0) return bad_number("--sms", optarg, 1024);
      break;
    case 'O': o->only = optarg; break;
    case 'o': o->out_dir = optarg; break;
    case 'n': snprintf(o->slug, sizeof o->slug, "%s", optarg); break;
    case 'h': usage(stdout); exit(0);
    default: fprintf(stderr, "warpbench: unknown argument \"%s\"\n", a); usage(stderr); return 0;
    }
  }
  if (optind < argc) {   /* warpbench takes no operands */
    fprintf(stderr, "warpbench: unknown argument \"%s\"\n", argv[optind]);
    usage(stderr);
    return 0;
  }
  if (o->only) {
    for (const char *s = o->only; *s;) {
      const char *comma = strchr(s, ',');
      size_t len = comma ? (size_t)(comma - s) : strlen(s);
      int known = 0;
      for (int i = 0; i < EXPERIMENT_COUNT; i++)
        if (strlen(experiments[i].name) == len && strncmp(experiments[i].name, s, len) == 0) known = 1;
      if (!known) {
        fprintf(stderr, "warpbench: --only: no experiment \"%.*s\"\n", (int)len, s);
        usage(stderr);
        return 0;
      }
      s += len + (comma ? 1 : 0);
    }
  }
  return 1;
}

static void describe_gpu(const gpu_device_info *d, const options *o, profile *p) {
  snprintf(p->name, sizeof p->name, "%s", d->name);
  snprintf(p->short_name, sizeof p->short_name, "%s", o->slug);
  snprintf(p->arch, sizeof p->arch, "sm_%d%d", d->cc_major, d->cc_minor);
  gpu_version_string(d->driver_version, p->driver, sizeof p->driver);
  p->sm_count = d->sm_count;
  p->sm_clock_mhz = d->sm_clock_khz / 1000;
  char when[32], runtime[16];
  time_t now = time(NULL);
  strftime(when, sizeof when, "%Y-%m-%d %H:%M UTC", gmtime(&now));
  gpu_version_string(d->runtime_version, runtime, sizeof runtime);
  snprintf(p->reference, sizeof p->reference,
           "warpbench%s, %s; CUDA runtime %s; median of %d launches per point after warm-up",
           o->tiny ? " --tiny" : o->quick ? " --quick" : "", when, runtime, o->repeats);
}

/* Compares with the previous profile at the same path, if there is one. */
static int compare_with_previous(const char *path, const profile *now) {
  profile before;
  char err[512];
  FILE *probe = fopen(path, "r");
  if (!probe) return 0;
  fclose(probe);
  if (!profile_read(path, &before, err, sizeof err)) {
    fprintf(stderr, "warpbench: previous profile not compared: %s\n", err);
    return 0;
  }
  printf("changes of more than 5%% since the previous run (%s):\n", path);
  int varied = profile_compare(&before, now, 0.05, stdout);
  printf("%d quantities vary by more than 5%%\n", varied);
  profile_free(&before);
  return varied;
}

static void print_table2(const profile *measured) {
  char path[4096], err[512];
  snprintf(path, sizeof path, "%s/benchmarks/data/k20c-paper.json", WARPBENCH_SOURCE_DIR);
  profile paper;
  printf("\nTable 2, derived from this run's measurements");
  if (profile_read(path, &paper, err, sizeof err)) {
    printf(", beside the paper's (K20c):\n");
    table2_print(stdout, measured, &paper);
    profile_free(&paper);
  } else {
    printf(" (paper's table not loaded: %s):\n", err);
    table2_print(stdout, measured, NULL);
  }
}

int main(int argc, char **argv) {
  options o;
  if (!parse_args(argc, argv, &o)) return 2;
  if (!gpu_available()) {
    fprintf(stderr, "warpbench: no usable GPU\n");
    return 1;
  }
  mkdir(o.out_dir, 0777);

  profile prof;
  profile_init(&prof);
  bench_ctx c;
  memset(&c, 0, sizeof c);
  if (!o.repeats) o.repeats = o.tiny ? 1 : o.quick ? 3 : 11;
  if (!o.max_sms && o.quick) o.max_sms = o.tiny ? 2 : 4;
  c.quick = o.quick;
  c.tiny = o.tiny;
  c.repeats = o.repeats;
  c.max_sms = o.max_sms;
  c.prof = &prof;
  c.source_dir = WARPBENCH_SOURCE_DIR;
  gpu_device_info_get(0, &c.dev);
  if (!o.slug[0]) slug_of(c.dev.name, o.slug, sizeof o.slug);
  describe_gpu(&c.dev, &o, &prof);

  char results_path[4096], profile_path[4096], temp_path[4200];
  snprintf(results_path, sizeof results_path, "%s/%s.jsonl", o.out_dir, o.slug);
  snprintf(profile_path, sizeof profile_path, "%s/%s.json", o.out_dir, o.slug);
  snprintf(temp_path, sizeof temp_path, "%s.tmp", results_path);
  c.results = fopen(temp_path, "w");
  if (!c.results) {
    fprintf(stderr, "warpbench: %s: cannot write: %s\n", temp_path, strerror(errno));
    return 1;
  }
  printf("warpbench: %s, %d SMs, %d MHz peak, driver %s%s\n", c.dev.name, c.dev.sm_count,
         c.dev.sm_clock_khz / 1000, prof.driver, o.tiny ? " (tiny)" : o.quick ? " (quick)" : "");

  double mhz[EXPERIMENT_COUNT];
  int ran = 0, total = 0;
  for (int i = 0; i < EXPERIMENT_COUNT; i++) total += selected(&o, experiments[i].name);
  for (int i = 0; i < EXPERIMENT_COUNT; i++) {
    if (!selected(&o, experiments[i].name)) continue;
    long failures_before = prof.chase_failures;
    mhz[ran] = bench_sm_clock_mhz();
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    experiments[i].run(&c);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    printf("[%d/%d] %-20s %6.1f s  %4.0f MHz%s\n", ran + 1, total, experiments[i].name, seconds,
           mhz[ran], prof.chase_failures > failures_before ? "  CHECK FAILED" : "");
    bench_emit(&c, "sm_clock", "before", experiments[i].name, NULL, 0, "sm_clock", "MHz", &mhz[ran],
               1, NULL);
    ran++;
    fflush(stdout);
  }
  if (ran > 0) {
    stats_summary clock;
    stats_summarize(mhz, ran, &clock);
    profile_set(&prof, "clock.sm_mhz", "MHz", &clock);
  }
  int write_failed = ferror(c.results) != 0;
  if (fclose(c.results) != 0) write_failed = 1;
  if (write_failed || rename(temp_path, results_path) != 0) {
    fprintf(stderr, "warpbench: %s: cannot write result lines\n", results_path);
    remove(temp_path);
    return 1;
  }

  table2_infer(&prof);
  compare_with_previous(profile_path, &prof);
  char err[512];
  if (!profile_write(&prof, profile_path, err, sizeof err)) {
    fprintf(stderr, "warpbench: %s\n", err);
    return 1;
  }
  print_table2(&prof);
  printf("\n%ld chases checked, %ld wrong; profile %s, result lines %s\n", prof.chases,
         prof.chase_failures, profile_path, results_path);
  int status = prof.chase_failures == 0 ? 0 : 1;
  profile_free(&prof);
  return status;
}
