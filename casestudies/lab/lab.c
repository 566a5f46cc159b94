/* lab: exercises on the memory guidelines of Fang et al., with automatic
 * feedback.
 *
 *   lab list
 *   lab start N [DIR]          copy exercise N's starting kernel to DIR
 *                              (default lab-work) for you to edit
 *   lab check N [FILE] [options]
 *
 * `check` runs warplint on FILE (default lab-work/STEM.cu, else the
 * starting kernel itself) and says which guidelines still fire; compiles
 * FILE with nvcc and prints ptxas's report of its kernels; and on a GPU
 * checks FILE's result against the problem's reference and times it against
 * the starting kernel and the teacher's solution in the same run. Exit
 * status: 0 when no guideline fires, FILE compiles and (on a GPU) its
 * result is right; 1 when one of these does not hold; 2 for a usage error
 * or a file that cannot be read. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "gpu.h"
#include "lab.h"
#include "problem.h"
#include "results.h"

#define MAX_VERSIONS 4

typedef struct options {
  const lab_exercise *ex;
  const char *file;        /* the student's kernel file */
  const char *warplint;    /* NULL: next to this program */
  const char *nvcc;
  const char *lab_dir;     /* exercises/, solutions/, lab_kernels.h */
  const char *modules;     /* the built starting kernels and solutions */
  const char *json_path;
  int arch;                /* when no GPU tells: 90 for sm_90 */
  int rounds, repeats;
  unsigned seed;
  bool cpu_only;
} options;

static char program_dir[PATH_MAX];

static void usage(FILE *out) {
  fprintf(out,
          "usage: lab list\n"
          "       lab start N [DIR]            copy exercise N's starting kernel to DIR "
          "(default lab-work)\n"
          "       lab check N [FILE] [options] guidelines, compilation, and on a GPU the "
          "result and speed-up\n"
          "check options:\n"
          "  --cpu               guidelines and compilation only, even with a GPU\n"
          "  --json FILE         one result line per version measured (common/results.h)\n"
          "  --seed N            the inputs' random seed (default: from the clock)\n"
          "  --rounds R --repeats K  timing: R interleaved rounds of K timed calls (3, 7)\n"
          "  --arch NN           compile for sm_NN when no GPU says (default 90)\n"
          "  --warplint PATH     default: warplint next to this program\n"
          "  --nvcc PATH         default: the nvcc this lab was built with\n"
          "  --lab-dir DIR       the lab's sources (default: the source tree's "
          "casestudies/lab)\n"
          "  --modules DIR       the built kernels (default: ../lib/lab from this program)\n"
          "FILE defaults to lab-work/STEM.cu when `lab start` made it, else the starting "
          "kernel.\n"
          "exit status: 0 done, 1 not yet (a guideline fires, it does not compile, or its "
          "result is wrong), 2 usage or unreadable file\n");
}

static void find_program_dir(void) {
  ssize_t n = readlink("/proc/self/exe", program_dir, sizeof program_dir - 1);
  if (n <= 0) {
    strcpy(program_dir, ".");
    return;
  }
  program_dir[n] = '\0';
  char *slash = strrchr(program_dir, '/');
  if (slash) *slash = '\0';
}

/* Formats a path into out (PATH_MAX bytes); a path that does not fit is a
 * usage error, never a silently shortened path. */
__attribute__((format(printf, 2, 3))) static void path_format(char *out, const char *format,
                                                               ...) {
  va_list args;
  va_start(args, format);
  int n = vsnprintf(out, PATH_MAX, format, args);
  va_end(args);
  if (n < 0 || n >= PATH_MAX) {
    fprintf(stderr, "lab: path too long (over %d bytes): %s...\n", PATH_MAX, out);
    exit(2);
  }
}

static bool readable(const char *path) {
  return access(path, R_OK) == 0;
}

/* One row per exercise, the columns as wide as their longest entry. */
static void print_list(void) {
  int title_width = 0, rules_width = 0;
  for (int i = 0; i < lab_exercise_count; i++) {
    int t = (int)strlen(lab_exercises[i].title), r = (int)strlen(lab_exercises[i].rules);
    if (t > title_width) title_width = t;
    if (r > rules_width) rules_width = r;
  }
  for (int i = 0; i < lab_exercise_count; i++) {
    const lab_exercise *ex = &lab_exercises[i];
    printf("%d  %-*s  %-*s  exercises/%s.cu\n", ex->number, title_width, ex->title, rules_width, ex->rules,
           ex->stem);
  }
}

static const lab_exercise *parse_exercise(const char *arg) {
  char *end;
  long n = strtol(arg, &end, 10);
  const lab_exercise *ex = *end || end == arg ? NULL : lab_find_exercise((int)n);
  if (!ex) fprintf(stderr, "lab: no exercise \"%s\" (1..%d; `lab list` shows them)\n", arg,
                   lab_exercise_count);
  return ex;
}

/* lab start N [DIR]: the student's own copy of the starting kernel. */
static int command_start(int argc, char **argv, const char *lab_dir) {
  if (argc < 1 || argc > 2) {
    usage(stderr);
    return 2;
  }
  const lab_exercise *ex = parse_exercise(argv[0]);
  if (!ex) return 2;
  const char *dir = argc == 2 ? argv[1] : "lab-work";
  char from[PATH_MAX], to[PATH_MAX];
  path_format(from, "%s/exercises/%s.cu", lab_dir, ex->stem);
  path_format(to, "%s/%s.cu", dir, ex->stem);
  if (mkdir(dir, 0755) != 0 && errno != EEXIST) {
    fprintf(stderr, "lab: cannot create %s: %s\n", dir, strerror(errno));
    return 2;
  }
  if (readable(to)) {
    fprintf(stderr, "lab: %s exists; it is your work, so it is left as it is\n", to);
    return 2;
  }
  FILE *in = fopen(from, "rb");
  if (!in) {
    fprintf(stderr, "lab: cannot read %s: %s\n", from, strerror(errno));
    return 2;
  }
  FILE *out = fopen(to, "wb");
  if (!out) {
    fprintf(stderr, "lab: cannot write %s: %s\n", to, strerror(errno));
    fclose(in);
    return 2;
  }
  char buffer[4096];
  size_t n;
  bool ok = true;
  while ((n = fread(buffer, 1, sizeof buffer, in)) > 0) ok = ok && fwrite(buffer, 1, n, out) == n;
  ok = !ferror(in) && ok;
  fclose(in);
  if (fclose(out) != 0 || !ok) {
    fprintf(stderr, "lab: cannot write %s\n", to);
    remove(to);
    return 2;
  }
  printf("exercise %d (%s): your copy is %s\nedit it, then run: lab check %d\n", ex->number,
         ex->title, to, ex->number);
  return 0;
}

static bool parse_int(const char *arg, const char *value, long lo, long hi, long *out) {
  char *end;
  long v = value ? strtol(value, &end, 10) : 0;
  if (!value || *end || end == value || v < lo || v > hi) {
    fprintf(stderr, "lab: %s needs a number in %ld..%ld\n", arg, lo, hi);
    return false;
  }
  *out = v;
  return true;
}

enum { OPT_CPU = 256, OPT_JSON, OPT_WARPLINT, OPT_NVCC, OPT_LAB_DIR, OPT_MODULES, OPT_SEED, OPT_ROUNDS, OPT_REPEATS,
       OPT_ARCH };
static const struct option check_options[] = {
  {"cpu", no_argument, NULL, OPT_CPU},
  {"json", required_argument, NULL, OPT_JSON},
  {"warplint", required_argument, NULL, OPT_WARPLINT},
  {"nvcc", required_argument, NULL, OPT_NVCC},
  {"lab-dir", required_argument, NULL, OPT_LAB_DIR},
  {"modules", required_argument, NULL, OPT_MODULES},
  {"seed", required_argument, NULL, OPT_SEED},
  {"rounds", required_argument, NULL, OPT_ROUNDS},
  {"repeats", required_argument, NULL, OPT_REPEATS},
  {"arch", required_argument, NULL, OPT_ARCH},
  {NULL, 0, NULL, 0},
};

/* "--seed" for OPT_SEED: an option's name as the user wrote it. */
static const char *option_name(int val) {
  static char name[32];
  for (const struct option *opt = check_options; opt->name; opt++)
    if (opt->val == val) snprintf(name, sizeof name, "--%s", opt->name);
  return name;
}

/* A number option's value, or the message that it needs one. */
static bool number_option(int opt, const char *arg, const char *value, options *o) {
  long number;
  switch (opt) {
  case OPT_SEED:
    if (!parse_int(arg, value, 1, 4294967295L, &number)) return false;
    o->seed = (unsigned)number;
    return true;
  case OPT_ROUNDS:
    if (!parse_int(arg, value, 1, 100, &number)) return false;
    o->rounds = (int)number;
    return true;
  case OPT_REPEATS:
    if (!parse_int(arg, value, 1, 1000, &number)) return false;
    o->repeats = (int)number;
    return true;
  default:
    if (!parse_int(arg, value, 50, 200, &number)) return false;
    o->arch = (int)number;
    return true;
  }
}

/* The operands N and FILE of `lab check`, in order. */
static bool check_operand(const char *arg, options *o) {
  if (!o->ex) return (o->ex = parse_exercise(arg)) != NULL;
  if (!o->file) {
    o->file = arg;
    return true;
  }
  fprintf(stderr, "lab: one FILE at a time (%s)\n", arg);
  return false;
}

/* Options of `lab check` (argv[0] is the first word after "check");
 * returns false on a usage error. */
static bool parse_check(int argc, char **argv, options *o) {
  static char default_file[PATH_MAX], start_file[PATH_MAX];
  opterr = 0;   /* lab words its own errors; ':' first tells a missing value apart */
  optind = 1;   /* argv - 1 is "check", in getopt's place of the program name */
  int opt;
  while ((opt = getopt_long(argc + 1, argv - 1, "-:", check_options, NULL)) != -1) {
    const char *value = optarg;
    switch (opt) {
    case 1: if (!check_operand(value, o)) return false; break;
    case OPT_CPU: o->cpu_only = true; break;
    case OPT_JSON: o->json_path = value; break;
    case OPT_WARPLINT: o->warplint = value; break;
    case OPT_NVCC: o->nvcc = value; break;
    case OPT_LAB_DIR: o->lab_dir = value; break;
    case OPT_MODULES: o->modules = value; break;
    case OPT_SEED: case OPT_ROUNDS: case OPT_REPEATS: case OPT_ARCH:
      if (!number_option(opt, option_name(opt), value, o)) return false;
      break;
    case ':':   /* an option without its value: as each said it before */
      if (optopt >= OPT_SEED && optopt <= OPT_ARCH) return number_option(optopt, option_name(optopt), NULL, o);
      fprintf(stderr, "lab: unknown option %s (or it needs a value)\n", option_name(optopt));
      return false;
    default:   /* getopt's argv is argv - 1: the word it stopped at is argv[optind - 2] */
      fprintf(stderr, "lab: unknown option %s%s\n", argv[optind - 2], optind - 1 < argc ? "" : " (or it needs a value)");
      return false;
    }
  }
  if (!o->ex) {
    fprintf(stderr, "lab: check needs an exercise number\n");
    return false;
  }
  if (!o->file) {
    path_format(default_file, "lab-work/%s.cu", o->ex->stem);
    path_format(start_file, "%s/exercises/%s.cu", o->lab_dir, o->ex->stem);
    o->file = readable(default_file) ? default_file : start_file;
    if (o->file == start_file)
      printf("(no lab-work/%s.cu: checking the starting kernel; `lab start %d` makes your "
             "copy)\n",
             o->ex->stem, o->ex->number);
  }
  return true;
}

static bool rule_taught(const lab_exercise *ex, const char *rule) {
  const char *hit = strstr(ex->rules, rule);
  size_t n = strlen(rule);
  return hit && (hit[n] == '\0' || hit[n] == ' ');
}

#define GUIDELINES_UNJUDGED (-1)   /* warplint could not judge the file */
#define GUIDELINES_UNCHECKED (-2)  /* no warplint to ask */

/* Prints the findings; returns how many, or one of the two codes above. */
static int report_guidelines(const options *o) {
  char warplint[PATH_MAX];
  if (o->warplint) path_format(warplint, "%s", o->warplint);
  else path_format(warplint, "%s/warplint", program_dir);
  printf("\nguidelines (warplint):\n");
  if (access(warplint, X_OK) != 0) {
    printf("  not checked: no warplint at %s (build it, or give --warplint PATH)\n", warplint);
    return GUIDELINES_UNCHECKED;
  }
  lab_findings findings;
  char err[512];
  if (!lab_run_warplint(warplint, o->file, o->lab_dir, &findings, err, sizeof err)) {
    printf("  not checked: %s\n", err);
    return GUIDELINES_UNJUDGED;
  }
  bool taught_fires = false;
  for (int i = 0; i < findings.count; i++) {
    const lab_finding *f = &findings.items[i];
    printf("  line %d  %s  %s: %s\n", f->line, f->rule, f->severity, f->message);
    if (f->note[0]) printf("           note: %s\n", f->note);
    taught_fires = taught_fires || rule_taught(o->ex, f->rule);
  }
  if (findings.count == 0)
    printf("  none fires: the exercise's guideline %s is followed\n", o->ex->rules);
  else if (taught_fires)
    printf("  the exercise's guideline %s still fires\n", o->ex->rules);
  else
    printf("  %s no longer fires, but the finding(s) above remain\n", o->ex->rules);
  int count = findings.count;
  lab_findings_free(&findings);
  return count;
}

/* "_Z9histogramPKfPiii" -> "histogram"; other names unchanged. */
static void kernel_name(const char *mangled, char *out, size_t size) {
  char *end;
  long n = strncmp(mangled, "_Z", 2) == 0 ? strtol(mangled + 2, &end, 10) : 0;
  if (n > 0 && (size_t)n < size && strlen(end) >= (size_t)n)
    snprintf(out, size, "%.*s", (int)n, end);
  else
    snprintf(out, size, "%.*s", (int)size - 1, mangled);
}

/* ptxas's report, one line per kernel: registers and local memory. */
static void print_resources(const char *report) {
  FILE *f = fopen(report, "r");
  if (!f) return;
  char line[1024], name[256] = "", memory[256] = "";
  while (fgets(line, sizeof line, f)) {
    char mangled[512];
    int stack, spill_stores, spill_loads, registers;
    const char *p;
    if ((p = strstr(line, "Function properties for ")) && sscanf(p + 24, "%511s", mangled) == 1)
      kernel_name(mangled, name, sizeof name);
    else if (sscanf(line, " %d bytes stack frame, %d bytes spill stores, %d bytes spill loads",
                    &stack, &spill_stores, &spill_loads) == 3)
      snprintf(memory, sizeof memory,
               "%d bytes stack frame (local memory), %d bytes spill stores, %d bytes spill loads",
               stack, spill_stores, spill_loads);
    else if (name[0] && (p = strstr(line, "Used ")) && sscanf(p, "Used %d registers", &registers) == 1) {
      printf("  %s: %d registers, %s\n", name, registers, memory);
      name[0] = memory[0] = '\0';
    }
  }
  fclose(f);
}

static void print_file(const char *path) {
  FILE *f = fopen(path, "r");
  if (!f) return;
  char line[1024];
  while (fgets(line, sizeof line, f)) printf("  %s", line);
  fclose(f);
}

/* Whether the compiled module defines the exercise's entry point. Loading
 * it needs no GPU. Only where nothing else will load it: the CUDA runtime
 * does not forget a module that was unloaded, and a module loaded again at
 * the same address then runs another module's kernels (seen on the H100,
 * 2026-11-23), so on a GPU the module is loaded once, by open_versions. */
static bool has_entry_point(const options *o, const char *so) {
  lab_module module;
  char err[PATH_MAX + 128];
  if (!lab_module_open(so, o->ex->entry_symbol, &module, err, sizeof err)) {
    printf("  %s\n", err);
    return false;
  }
  lab_module_close(&module);
  return true;
}

/* nvcc on the student's file into so = DIR/yours.so (PATH_MAX bytes);
 * false when it fails. */
static bool compile_student(const options *o, int arch, const char *dir, char *so) {
  char report[PATH_MAX];
  path_format(so, "%s/yours.so", dir);
  path_format(report, "%s/nvcc.log", dir);
  printf("\ncompiled for sm_%d (%s):\n", arch, o->nvcc);
  bool ok = lab_compile(o->nvcc, o->file, o->lab_dir, arch, so, report);
  if (ok) print_resources(report);
  else {
    printf("  nvcc failed:\n");
    print_file(report);
  }
  remove(report);
  return ok;
}

static void write_results(const options *o, const gpu_device_info *info, lab_problem *problem,
                          const lab_version *v, int count) {
  char tmp[PATH_MAX];
  path_format(tmp, "%s.tmp", o->json_path);
  FILE *out = fopen(tmp, "w");
  if (!out) {
    fprintf(stderr, "lab: cannot write %s: %s\n", tmp, strerror(errno));
    return;
  }
  for (int i = 0; i < count; i++) {
    char name[128];
    snprintf(name, sizeof name, "%s/%s", o->ex->stem, v[i].label);
    result_line r;
    result_begin(&r, out, "lab", name, info->name);
    result_param_int(&r, "exercise", o->ex->number);
    result_param_str(&r, "version", v[i].label);
    result_param_str(&r, "file", v[i].file);
    result_param_str(&r, "problem", problem->description);
    result_param_int(&r, "seed", o->seed);
    result_param_int(&r, "old_guideline", o->ex->old_guideline);
    result_measure(&r, "time_ms", "ms", &v[i].ms);
    result_derived(&r, "speedup", v[i].speedup);
    result_derived(&r, "verdict", v[i].verdict);
    result_derived(&r, "correct", v[i].correct);
    result_derived(&r, "error", v[i].error);
    result_derived(&r, "gbps", problem->min_bytes / (v[i].ms.median * 1e6));
    result_end(&r);
  }
  if (fclose(out) != 0 || rename(tmp, o->json_path) != 0) {
    fprintf(stderr, "lab: cannot write %s: %s\n", o->json_path, strerror(errno));
    remove(tmp);
  }
}

static const char *verdict_text(lab_speed_verdict v) {
  return v == LAB_FASTER ? "faster" : v == LAB_SLOWER ? "slower" : "no measurable difference";
}

static void print_table(lab_problem *problem, const lab_version *v, int count) {
  printf("  | version | result | median ms | min-max ms | GB/s | speed-up | vs start |\n");
  printf("  |---|---|---:|---:|---:|---:|---|\n");
  for (int i = 0; i < count; i++)
    printf("  | %s | %s | %.4f | %.4f-%.4f | %.0f | %.2fx | %s |\n", v[i].label,
           v[i].correct ? "ok" : "WRONG", v[i].ms.median, v[i].ms.min, v[i].ms.max,
           problem->min_bytes / (v[i].ms.median * 1e6), v[i].speedup,
           i == 0 ? "-" : verdict_text(v[i].verdict));
  for (int i = 0; i < count; i++) printf("  %s: %s: %s\n", v[i].label, v[i].file, v[i].detail);
}

/* An exercise whose 2017 guideline may no longer pay: say which way it
 * went on this GPU, with the numbers. */
static void print_old_guideline(const lab_exercise *ex, const gpu_device_info *info,
                                const lab_version *v, int count) {
  bool pays = false;
  printf("\nguideline %s (2017) on %s:", ex->rules, info->name);
  for (int i = 2; i < count; i++) {
    printf(" %s %.2fx (%.4f ms)%s", v[i].label, v[i].speedup, v[i].ms.median,
           i + 1 < count ? "," : "");
    pays = pays || v[i].verdict == LAB_FASTER;
  }
  printf(" against the starting kernel's %.4f ms: it %s here\n", v[0].ms.median,
         pays ? "pays" : "does not pay");
}

static bool open_version(lab_version *v, const char *label, const char *file, const char *so,
                         const lab_exercise *ex) {
  char err[PATH_MAX + 128];
  v->label = label;
  v->file = file;
  if (lab_module_open(so, ex->entry_symbol, &v->module, err, sizeof err)) return true;
  printf("  %s\n", err);
  return false;
}

/* The versions measured: the starting kernel first (the speed-ups are
 * against it), the student's, then the teacher's solution(s), each built
 * module beside its source file. Returns how many, or 0 when the student's
 * module lacks the entry point. A built module that cannot be loaded is a
 * broken installation: exit status 2. */
static int open_versions(const options *o, const char *student_so, lab_version *v,
                         char (*sources)[PATH_MAX], char (*modules)[PATH_MAX]) {
  const lab_exercise *ex = o->ex;
  memset(v, 0, MAX_VERSIONS * sizeof *v);
  path_format(sources[0], "%s/exercises/%s.cu", o->lab_dir, ex->stem);
  path_format(modules[0], "%s/start_%s.so", o->modules, ex->stem);
  if (!open_version(&v[0], "start", sources[0], modules[0], ex)) exit(2);
  if (!open_version(&v[1], "yours", o->file, student_so, ex)) return 0;
  const char *solutions[] = {ex->stem, ex->second_solution};
  int count = 2;
  for (int i = 0; i < 2 && solutions[i]; i++, count++) {
    path_format(sources[count], "%s/solutions/%s.cu", o->lab_dir, solutions[i]);
    path_format(modules[count], "%s/solution_%s.so", o->modules, solutions[i]);
    if (!open_version(&v[count], i == 0 ? "solution" : solutions[i], sources[count],
                      modules[count], ex))
      exit(2);
  }
  return count;
}

/* Checks and times start, yours, the solution(s); false when yours is wrong. */
static bool measure_on_gpu(const options *o, const gpu_device_info *info, const char *so) {
  const lab_exercise *ex = o->ex;
  char sources[MAX_VERSIONS][PATH_MAX], modules[MAX_VERSIONS][PATH_MAX];
  lab_version versions[MAX_VERSIONS];
  int count = open_versions(o, so, versions, sources, modules);
  if (count == 0) {
    lab_module_close(&versions[0].module);
    return false;
  }
  lab_problem *problem = ex->ops->create();
  unsigned state = o->seed;
  ex->ops->fill(problem, &state);
  printf("\nGPU: %s (sm_%d%d); %s; seed %u; %d x %d timed runs each\n", info->name,
         info->cc_major, info->cc_minor, problem->description, o->seed, o->rounds,
         o->repeats);
  lab_measure(ex, problem, versions, count, o->rounds, o->repeats);
  print_table(problem, versions, count);
  if (o->json_path) write_results(o, info, problem, versions, count);

  const lab_version *yours = &versions[1], *solution = &versions[2];
  if (yours->correct)
    printf("\nyour kernel is correct and runs at %.2fx the starting kernel's speed (%s); the "
           "solution: %.2fx (%s)\n", yours->speedup, verdict_text(yours->verdict),
           solution->speedup, verdict_text(solution->verdict));
  else
    printf("\nyour kernel's result is wrong: %s\n", yours->detail);
  if (ex->old_guideline) print_old_guideline(ex, info, versions, count);
  ex->ops->destroy(problem);
  for (int i = 0; i < count; i++) lab_module_close(&versions[i].module);
  return yours->correct;
}

static int command_check(int argc, char **argv, options *o) {
  for (int i = 0; i < argc; i++)
    if (strcmp(argv[i], "--help") == 0 || strcmp(argv[i], "-h") == 0) {
      usage(stdout);
      return 0;
    }
  if (!parse_check(argc, argv, o)) {
    usage(stderr);
    return 2;
  }
  if (!readable(o->file)) {
    fprintf(stderr, "lab: cannot read %s: %s\n", o->file, strerror(errno));
    return 2;
  }
  printf("lab check %d: %s (%s)\nfile: %s\n", o->ex->number, o->ex->title, o->ex->rules,
         o->file);
  int findings = report_guidelines(o);

  bool gpu = !o->cpu_only && gpu_available();
  gpu_device_info info;
  int arch = o->arch;
  if (gpu) {
    gpu_device_info_get(0, &info);
    arch = info.cc_major * 10 + info.cc_minor;
  }
  char dir[] = "/tmp/lab-XXXXXX", so[PATH_MAX];
  if (!mkdtemp(dir)) {
    fprintf(stderr, "lab: cannot create a temporary folder: %s\n", strerror(errno));
    return 2;
  }
  bool compiled = compile_student(o, arch, dir, so);
  bool correct = true;
  if (compiled && gpu) {
    correct = measure_on_gpu(o, &info, so);
  } else if (compiled && (compiled = has_entry_point(o, so))) {
    printf("\n%s: result and speed not checked\n",
           o->cpu_only ? "--cpu" : "no usable GPU here");
  }
  remove(so);
  rmdir(dir);
  bool done = (findings == 0 || findings == GUIDELINES_UNCHECKED) && compiled && correct;
  if (done)
    printf("\ndone: %s, the kernel compiles%s\n",
           findings == 0 ? "no guideline fires" : "guidelines not checked (no warplint)",
           gpu ? ", its result is right" : " (its result and speed need a GPU)");
  else
    printf("\nnot yet: see above\n");
  return done ? 0 : 1;
}

int main(int argc, char **argv) {
  find_program_dir();
  char modules[PATH_MAX];
  path_format(modules, "%s/../lib/lab", program_dir);
  options o = {.nvcc = LAB_NVCC, .lab_dir = LAB_SOURCE_DIR, .modules = modules, .arch = 90,
               .rounds = 3, .repeats = 7, .seed = (unsigned)time(NULL)};
  if (argc < 2 || strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) {
    usage(argc < 2 ? stderr : stdout);
    return argc < 2 ? 2 : 0;
  }
  const char *command = argv[1];
  bool help = argc > 2 && (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0);
  if (strcmp(command, "list") == 0 && (argc == 2 || help)) {
    if (help) usage(stdout);
    else print_list();
    return 0;
  }
  if (strcmp(command, "start") == 0) {
    if (help) {
      usage(stdout);
      return 0;
    }
    return command_start(argc - 2, argv + 2, o.lab_dir);
  }
  if (strcmp(command, "check") == 0) return command_check(argc - 2, argv + 2, &o);
  fprintf(stderr, "lab: unknown command \"%s\"\n", command);
  usage(stderr);
  return 2;
}
