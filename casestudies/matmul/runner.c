/* matmul: times and checks the versions of the matrix-multiply case study.
 *
 *   matmul [--versions all|LIST] [--sizes 1024,2048,MxNxK,...] [--repeats N]
 *          [--json FILE] [--check]
 *
 * For every size it draws fresh random non-zero A and B, computes a
 * reference (float64 on the CPU for small problems or with --check, else
 * the strict-FP32 cuBLAS result), then for every version poisons C with
 * NaN, runs it once and compares by relative error, and times it with CUDA
 * events (warm-up, median of the repeats). The strict-FP32 cuBLAS baseline
 * always runs, since percentages are taken against it. Prints one table per
 * size and, with --json, writes one result line per version and size
 * (common/results.h). Exits 1 if any version fails its check, 77 without a
 * GPU. */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu.h"
#include "matmul.h"
#include "results.h"

#define MAX_SIZES 64
#define WARMUP 2
#define DEFAULT_REPEATS 10
/* Above this many multiply-adds the CPU reference takes too long unless
 * asked for with --check, and cuBLAS FP32 serves as the reference. */
#define CPU_REFERENCE_LIMIT (1LL << 28)
/* Relative error allowed against the reference: FP32 accumulation over
 * K = 8192 lands near 1e-6; TF32 inputs near 3e-4 (10-bit mantissa). */
#define TOLERANCE_FP32 5e-5
#define TOLERANCE_TF32 5e-3

typedef struct options {
  const matmul_version *chosen[64];
  int chosen_count;
  matmul_shape sizes[MAX_SIZES];
  int size_count;
  int repeats;
  const char *json_path;
  bool force_cpu_reference;
} options;

typedef struct device_buffers {
  float *A, *B, *C;
} device_buffers;

static void usage(FILE *out) {
  fprintf(out,
          "usage: matmul [--versions all|LIST] [--sizes 1024,2048,MxNxK,...]\n"
          "              [--repeats N] [--json FILE] [--check]\n"
          "versions:");
  for (int i = 0; i < matmul_version_count; i++) fprintf(out, " %s", matmul_versions[i]->name);
  fprintf(out, "\n");
}

static void *checked_malloc(size_t bytes) {
  void *p = malloc(bytes);
  if (!p) {
    fprintf(stderr, "matmul: out of host memory (%zu bytes)\n", bytes);
    exit(1);
  }
  return p;
}

static bool add_version(options *o, const matmul_version *v) {
  for (int i = 0; i < o->chosen_count; i++)
    if (o->chosen[i] == v) return true;
  if (o->chosen_count == (int)(sizeof o->chosen / sizeof o->chosen[0])) return false;
  o->chosen[o->chosen_count++] = v;
  return true;
}

static bool parse_versions(options *o, const char *list) {
  if (strcmp(list, "all") == 0) {
    for (int i = 0; i < matmul_version_count; i++)
      if (matmul_versions[i]->in_all) add_version(o, matmul_versions[i]);
    return true;
  }
  char *copy = checked_malloc(strlen(list) + 1);
  strcpy(copy, list);
  bool ok = true;
  for (char *name = strtok(copy, ","); name && ok; name = strtok(NULL, ",")) {
    const matmul_version *v = matmul_find(name);
    if (!v) fprintf(stderr, "matmul: unknown version \"%s\"\n", name);
    ok = v && add_version(o, v);
  }
  free(copy);
  return ok;
}

static const struct option long_options[] = {
  {"check", no_argument, NULL, 'c'},      {"help", no_argument, NULL, 'h'},
  {"versions", required_argument, NULL, 'v'}, {"sizes", required_argument, NULL, 's'},
  {"json", required_argument, NULL, 'j'}, {"repeats", required_argument, NULL, 'r'},
  {NULL, 0, NULL, 0},
};

static bool parse_options(int argc, char **argv, options *o) {
  char err[256];
  const char *versions = "all", *sizes = "1024,2048,4096";
  o->repeats = DEFAULT_REPEATS;
  opterr = 0;   /* matmul words its own errors; ':' first: a missing value is told apart */
  int opt;
  while ((opt = getopt_long(argc, argv, "+:h", long_options, NULL)) != -1) {
    const char *value = optarg;
    switch (opt) {
    case 'c': o->force_cpu_reference = true; break;
    case 'h': usage(stdout); exit(0);
    case 'v': versions = value; break;
    case 's': sizes = value; break;
    case 'j': o->json_path = value; break;
    case 'r': {
      char *end;
      long r = strtol(value, &end, 10);
      if (*end || r < 1 || r > 10000) {
        fprintf(stderr, "matmul: --repeats must be 1..10000, got \"%s\"\n", value);
        return false;
      }
      o->repeats = (int)r;
      break;
    }
    case ':':
      fprintf(stderr, "matmul: %s needs a value (or is unknown)\n", argv[optind - 1]);
      return false;
    default:
      fprintf(stderr, "matmul: unknown option %s\n", argv[optind - 1]);
      return false;
    }
  }
  if (optind < argc) {   /* matmul takes no operands */
    fprintf(stderr, "matmul: unknown option %s\n", argv[optind]);
    return false;
  }
  /* The baseline first: every percentage is taken against it. */
  add_version(o, matmul_baseline());
  if (!parse_versions(o, versions)) return false;
  o->size_count = matmul_parse_sizes(sizes, o->sizes, MAX_SIZES, err, sizeof err);
  if (o->size_count < 0) {
    fprintf(stderr, "matmul: --sizes: %s\n", err);
    return false;
  }
  return true;
}

typedef struct timed_call {
  const matmul_version *version;
  const matmul_args *args;
} timed_call;

static void run_timed(void *ctx) {
  const timed_call *call = ctx;
  call->version->launch(call->args);
}

/* Runs v once on a NaN-poisoned C and copies the result to host. */
static void run_once(const matmul_version *v, const matmul_args *args, float *host_c) {
  size_t bytes = (size_t)args->M * args->N * sizeof(float);
  CUDA_CHECK(cudaMemset(args->C, 0xff, bytes));  /* all-ones bits: NaN */
  v->launch(args);
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(host_c, args->C, bytes, cudaMemcpyDeviceToHost));
}

typedef struct measurement {
  stats_summary ms;
  double gflops, rel_err;
  bool checked, passed;
  struct cudaFuncAttributes attr;
  bool has_attr;
} measurement;

static void print_header(matmul_shape s, const char *reference, const gpu_device_info *info) {
  printf("\n## %dx%dx%d  (M x N x K; reference: %s; %s, FP32 peak %.1f TFLOP/s)\n\n", s.M, s.N,
         s.K, reference, info->name, info->peak_fp32_gflops / 1000.0);
  printf("| version | arith | regs | smem B | local B | median ms | GFLOP/s | %% cuBLAS | "
         "%% peak | rel err | check |\n");
  printf("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|\n");
}

static void print_row(const matmul_version *v, const matmul_args *args, const measurement *m,
                      double baseline_gflops, const gpu_device_info *info) {
  if (v->choice)
    printf("| %s: %s | %s | ", v->name, v->choice(args), v->arith == MATMUL_TF32 ? "tf32" : "fp32");
  else
    printf("| %s | %s | ", v->name, v->arith == MATMUL_TF32 ? "tf32" : "fp32");
  if (m->has_attr)
    printf("%d | %zu | %zu | ", m->attr.numRegs, m->attr.sharedSizeBytes,
           m->attr.localSizeBytes);
  else
    printf("- | - | - | ");
  printf("%.3f | %.0f | %.1f | %.1f | ", m->ms.median, m->gflops,
         100.0 * m->gflops / baseline_gflops, 100.0 * m->gflops / info->peak_fp32_gflops);
  if (m->checked)
    printf("%.1e | %s |\n", m->rel_err, m->passed ? "ok" : "FAIL");
  else
    printf("(reference) | - |\n");
}

static void write_line(FILE *out, const matmul_version *v, const matmul_args *args,
                       const char *reference, unsigned seed, const measurement *m,
                       double baseline_gflops, const gpu_device_info *info) {
  matmul_shape s = {args->M, args->N, args->K};
  result_line r;
  result_begin(&r, out, "matmul", v->name, info->name);
  result_param_int(&r, "M", s.M);
  result_param_int(&r, "N", s.N);
  result_param_int(&r, "K", s.K);
  result_param_str(&r, "arith", v->arith == MATMUL_TF32 ? "tf32" : "fp32");
  result_param_str(&r, "reference", reference);
  result_param_int(&r, "seed", seed);
  if (v->choice) result_param_str(&r, "plan", v->choice(args));
  if (m->has_attr) {
    result_param_int(&r, "threads", v->threads);
    result_param_int(&r, "tile_m", v->tile_m);
    result_param_int(&r, "tile_n", v->tile_n);
    result_param_int(&r, "registers", m->attr.numRegs);
    result_param_int(&r, "shared_bytes", (long long)m->attr.sharedSizeBytes);
    result_param_int(&r, "local_bytes", (long long)m->attr.localSizeBytes);
  }
  result_measure(&r, "time_ms", "ms", &m->ms);
  result_derived(&r, "gflops", m->gflops);
  result_derived(&r, "ratio_to_cublas", m->gflops / baseline_gflops);
  result_derived(&r, "fraction_of_peak", m->gflops / info->peak_fp32_gflops);
  if (m->checked) {
    result_derived(&r, "rel_err", m->rel_err);
    result_derived(&r, "correct", m->passed ? 1 : 0);
  }
  result_end(&r);
}

/* Checks, times and reports every chosen version at one size; returns the
 * number of versions that failed their check. */
static int run_size(const options *o, matmul_shape s, const gpu_device_info *info, FILE *json) {
  size_t a_count = (size_t)s.M * s.K, b_count = (size_t)s.K * s.N, c_count = (size_t)s.M * s.N;
  float *host_a = checked_malloc(a_count * sizeof(float));
  float *host_b = checked_malloc(b_count * sizeof(float));
  float *host_c = checked_malloc(c_count * sizeof(float));
  float *baseline_c = NULL;
  double *reference = NULL;
  unsigned seed = (unsigned)time(NULL) ^ (unsigned)(s.M * 2654435761u + s.N * 40503u + s.K);
  unsigned state = seed;
  matmul_fill_random(host_a, a_count, &state);
  matmul_fill_random(host_b, b_count, &state);

  device_buffers d;
  CUDA_CHECK(cudaMalloc((void **)&d.A, a_count * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&d.B, b_count * sizeof(float)));
  CUDA_CHECK(cudaMalloc((void **)&d.C, c_count * sizeof(float)));
  CUDA_CHECK(cudaMemcpy(d.A, host_a, a_count * sizeof(float), cudaMemcpyHostToDevice));
  CUDA_CHECK(cudaMemcpy(d.B, host_b, b_count * sizeof(float), cudaMemcpyHostToDevice));
  matmul_args args = {s.M, s.N, s.K, 1.0f, 0.0f, d.A, d.B, d.C};

  bool cpu_reference = o->force_cpu_reference || (long long)s.M * s.N * s.K <= CPU_REFERENCE_LIMIT;
  const char *reference_name = cpu_reference ? "cpu_fp64" : "cublas_fp32";
  if (cpu_reference) {
    reference = checked_malloc(c_count * sizeof(double));
    matmul_reference(s.M, s.N, s.K, 1.0, host_a, host_b, 0.0, NULL, reference);
  }
  print_header(s, cpu_reference ? "CPU float64" : "cuBLAS strict FP32", info);

  double flops = 2.0 * s.M * s.N * s.K;
  double baseline_gflops = 0;
  int failures = 0;
  for (int i = 0; i < o->chosen_count; i++) {
    const matmul_version *v = o->chosen[i];
    bool is_baseline = v == matmul_baseline();
    measurement m;
    memset(&m, 0, sizeof m);
    if (v->attributes) {
      v->attributes(&m.attr);
      m.has_attr = true;
    }
    run_once(v, &args, host_c);
    double tolerance = v->arith == MATMUL_TF32 ? TOLERANCE_TF32 : TOLERANCE_FP32;
    if (cpu_reference) {
      m.checked = true;
      m.rel_err = matmul_rel_error(host_c, reference, c_count);
    } else if (is_baseline) {
      baseline_c = checked_malloc(c_count * sizeof(float));
      memcpy(baseline_c, host_c, c_count * sizeof(float));
    } else {
      m.checked = true;
      m.rel_err = matmul_rel_error_f(host_c, baseline_c, c_count);
    }
    m.passed = !m.checked || m.rel_err <= tolerance;
    if (!m.passed) failures++;

    timed_call call = {v, &args};
    gpu_time_ms(run_timed, &call, WARMUP, o->repeats, &m.ms, NULL);
    m.gflops = flops / (m.ms.median * 1e6);
    if (is_baseline) baseline_gflops = m.gflops;
    print_row(v, &args, &m, baseline_gflops, info);
    if (json) write_line(json, v, &args, reference_name, seed, &m, baseline_gflops, info);
  }
  fflush(stdout);

  CUDA_CHECK(cudaFree(d.A));
  CUDA_CHECK(cudaFree(d.B));
  CUDA_CHECK(cudaFree(d.C));
  free(host_a);
  free(host_b);
  free(host_c);
  free(baseline_c);
  free(reference);
  return failures;
}

int main(int argc, char **argv) {
  options o;
  memset(&o, 0, sizeof o);
  if (!parse_options(argc, argv, &o)) {
    usage(stderr);
    return 2;
  }
  if (!gpu_available()) {
    fprintf(stderr, "matmul: no usable GPU; nothing measured\n");
    return GPU_SKIP_EXIT;
  }
  gpu_device_info info;
  gpu_device_info_get(0, &info);

  /* Result lines go to a temporary file renamed at the end, so a failed
   * run never leaves a half-written FILE behind. */
  char tmp_path[4096];
  FILE *json = NULL;
  if (o.json_path) {
    snprintf(tmp_path, sizeof tmp_path, "%s.tmp", o.json_path);
    json = fopen(tmp_path, "w");
    if (!json) {
      fprintf(stderr, "matmul: cannot write %s: %s\n", tmp_path, strerror(errno));
      return 1;
    }
  }
  int failures = 0;
  for (int i = 0; i < o.size_count; i++) failures += run_size(&o, o.sizes[i], &info, json);
  matmul_release_library();
  matmul_release_workspace();
  if (json) {
    if (fclose(json) != 0 || rename(tmp_path, o.json_path) != 0) {
      fprintf(stderr, "matmul: cannot write %s: %s\n", o.json_path, strerror(errno));
      remove(tmp_path);
      return 1;
    }
  }
  if (failures) fprintf(stderr, "matmul: %d check(s) failed\n", failures);
  return failures ? 1 : 0;
}
