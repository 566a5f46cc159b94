/* How much warplint's analysis adds to libclang's parse.
 *
 * For a corpus of CUDA files (each analysed `copies` times), every repeat
 * times two passes over the same files in one process: a bare libclang parse
 * with exactly the arguments warplint uses (wl_parse_only), and warplint's
 * whole per-file work (wl_analyze_file: read, parse, walk, model, check).
 * Reports the median of each and their ratio; the target is < 1.25.
 * Prints a table and one result line (common/results.h) per run.
 *
 * With --cuda-path DIR both passes parse with that CUDA toolkit's headers,
 * as warplint does by default where a toolkit is installed; without it,
 * with warplint's stand-in headers.
 *
 * --pass parse|analysis runs that pass alone, once: under valgrind
 * --tool=callgrind its instruction count is a measure of the work that the
 * load of a shared machine does not disturb (advisor/bench/README.md).
 *
 * usage: warplint_bench [--copies N] [--repeats R] [--results FILE] [--cuda-path DIR]
 *                       [--pass parse|analysis] FILES... */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <clang-c/Index.h>

#include "results.h"
#include "stats.h"
#include "device.h"
#include "warplint.h"

extern const unsigned char wl_shim_text[];
extern const size_t wl_shim_text_size;

static double now_s(void) {
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double time_parse(CXIndex index, char **files, int count, int copies, const wl_options *opt) {
  double start = now_s();
  for (int c = 0; c < copies; c++)
    for (int i = 0; i < count; i++) wl_parse_only(index, files[i], opt);
  return now_s() - start;
}

static double time_analyze(CXIndex index, char **files, int count, int copies, const wl_options *opt,
                           size_t *findings) {
  double start = now_s();
  *findings = 0;
  for (int c = 0; c < copies; c++) {
    for (int i = 0; i < count; i++) {
      wl_file_result r;
      wl_analyze_file(index, files[i], NULL, 0, opt, &r);
      *findings += r.finding_count;
      wl_result_free(&r);
    }
  }
  return now_s() - start;
}

int main(int argc, char **argv) {
  device_init();
  int copies = 10, repeats = 5, count = 0;
  const char *results_path = NULL, *cuda_path = NULL, *only = NULL;
  char **files = calloc((size_t)argc, sizeof *files);
  const char *usage = "usage: warplint_bench [--copies N] [--repeats R] [--results FILE] [--cuda-path DIR]\n"
                      "                      [--pass parse|analysis] FILES...\n"
                      "  times libclang's parse alone against warplint's whole analysis of FILES\n";
  for (int i = 1; i < argc; i++) {
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      fputs(usage, stdout);
      free(files);
      return 0;
    }
    if (strcmp(argv[i], "--copies") == 0 && i + 1 < argc) copies = atoi(argv[++i]);
    else if (strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) repeats = atoi(argv[++i]);
    else if (strcmp(argv[i], "--results") == 0 && i + 1 < argc) results_path = argv[++i];
    else if (strcmp(argv[i], "--cuda-path") == 0 && i + 1 < argc) cuda_path = argv[++i];
    else if (strcmp(argv[i], "--pass") == 0 && i + 1 < argc) only = argv[++i];
    else if (argv[i][0] == '-') {
      fprintf(stderr, "warplint_bench: unknown or incomplete option '%s'\n%s", argv[i], usage);
      free(files);
      return 2;
    } else files[count++] = argv[i];
  }
  if (count == 0 || copies < 1 || repeats < 1 || repeats > 100) {
    fputs(usage, stderr);
    free(files);
    return 2;
  }
  wl_options opt = {.arch = "sm_90", .shim_path = WARPLINT_SHIM_VIRTUAL_PATH,
                    .shim_text = (const char *)wl_shim_text, .shim_len = wl_shim_text_size,
                    .cuda_path = cuda_path};
  char *cccl = cuda_path ? wl_format("%s/include/cccl", cuda_path) : NULL;
  if (cccl && access(cccl, R_OK) == 0) opt.cccl_include = cccl;
  char name[256], err[512];
  json_value *profile = wl_load_profile(NULL, "sm_90", name, sizeof name, err, sizeof err);
  opt.profile = profile;
  opt.profile_name = profile ? name : NULL;
  CXIndex index = clang_createIndex(0, 0);
  size_t findings = 0;
  if (only) {
    bool parse_pass = strcmp(only, "parse") == 0;
    double s = parse_pass ? time_parse(index, files, count, copies, &opt)
                          : time_analyze(index, files, count, copies, &opt, &findings);
    printf("%s pass: %d files x %d copies in %.3f s\n", only, count, copies, s);
    clang_disposeIndex(index);
    json_free(profile);
    free(files);
    free(cccl);
    return 0;
  }
  time_analyze(index, files, count, 1, &opt, &findings);  /* warm-up: page cache, libclang state */
  double parse[100], analyze[100], ratio[100];
  for (int r = 0; r < repeats; r++) {
    /* alternate the order so drift does not favour one side */
    if (r % 2 == 0) {
      parse[r] = time_parse(index, files, count, copies, &opt);
      analyze[r] = time_analyze(index, files, count, copies, &opt, &findings);
    } else {
      analyze[r] = time_analyze(index, files, count, copies, &opt, &findings);
      parse[r] = time_parse(index, files, count, copies, &opt);
    }
    ratio[r] = analyze[r] / parse[r];
  }
  stats_summary sp, sa, sr;
  stats_summarize(parse, repeats, &sp);
  stats_summarize(analyze, repeats, &sa);
  stats_summarize(ratio, repeats, &sr);
  int parses = count * copies;
  printf("corpus: %d files x %d copies = %d parses per pass, %d repeats, %zu findings per pass; headers: %s\n",
         count, copies, parses, repeats, findings, cuda_path ? cuda_path : "stand-ins");
  printf("warplint analysis: %.1f files per minute\n", 60.0 * parses / sa.median);
  printf("%-22s %10s %10s %10s\n", "pass", "median s", "min s", "max s");
  printf("%-22s %10.3f %10.3f %10.3f\n", "libclang parse only", sp.median, sp.min, sp.max);
  printf("%-22s %10.3f %10.3f %10.3f\n", "warplint analysis", sa.median, sa.min, sa.max);
  printf("ratio analysis/parse: median %.3f (min %.3f, max %.3f); analysis adds %.1f%% (target < 25%%)\n",
         sr.median, sr.min, sr.max, 100.0 * (sr.median - 1.0));
  FILE *out = results_path ? fopen(results_path, "a") : NULL;
  if (results_path && !out) fprintf(stderr, "%s: cannot open for appending\n", results_path);
  if (out) {
    result_line line;
    result_begin(&line, out, "advisor", "warplint_overhead", "none");
    result_param_int(&line, "files", count);
    result_param_int(&line, "copies", copies);
    result_param_int(&line, "repeats", repeats);
    result_param_str(&line, "headers", cuda_path ? "toolkit" : "stand-ins");
    result_measure(&line, "analysis_over_parse", "ratio", &sr);
    result_derived(&line, "parse_s_median", sp.median);
    result_derived(&line, "analysis_s_median", sa.median);
    result_end(&line);
    fclose(out);
  }
  clang_disposeIndex(index);
  json_free(profile);
  free(files);
  free(cccl);
  return 0;
}
