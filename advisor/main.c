/* warplint — the command line: check, arrays, explain, rules. */
#include "warplint.h"

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "json_writer.h"

extern const unsigned char wl_shim_text[];
extern const size_t wl_shim_text_size;

static const char usage_text[] =
  "usage: warplint check [options] FILES...    report warp-level memory anti-patterns\n"
  "       warplint arrays [options] FILES...   the array inventory of every kernel\n"
  "       warplint explain RULE [--gpu P]      a rule, its evidence and examples\n"
  "       warplint rules                       the catalog, checked or advice\n"
  "       warplint --help | --version\n"
  "options:\n"
  "  --format=FORMAT            text (default), json, sarif, or html: one self-contained\n"
  "                             page with a drawing of each finding's warp (check)\n"
  "  -o FILE                    write the html page to FILE (default: standard output)\n"
  "  --draw                     draw each finding's warp under it (text output)\n"
  "  --gpu NAME|FILE            GPU profile (default: the one matching --arch)\n"
  "  --arch sm_XX               target architecture (default sm_90)\n"
  "  -p BUILD_DIR               read compile_commands.json there (its -I/-D flags)\n"
  "  -j N                       analyse N files in parallel\n"
  "  --fix                      apply fix-its in place; --backup keeps FILE.orig\n"
  "  --fail-on=warning|note     exit 1 when a finding at or above it is reported\n"
  "  --ptxas                    attach nvcc's registers/local memory/spills per kernel\n"
  "  --cuda-path DIR            parse with this CUDA toolkit's headers (default: the toolkit\n"
  "                             CMake would find: CUDAToolkit_ROOT, CUDA_PATH, nvcc on PATH,\n"
  "                             /usr/local/cuda)\n"
  "  --shim                     parse with warplint's stand-in CUDA headers, even when a\n"
  "                             toolkit is installed\n"
  "  -- ARGS...                 extra compiler arguments (-I, -D) for every file\n"
  "exit status: 0 clean, 1 a finding at or above --fail-on, 2 usage or parse errors\n";

typedef struct cli {
  const char *command, *format, *gpu, *build_dir, *fail_on, *output;
  wl_options opt;
  int jobs;
  bool fix, backup, ptxas, shim, draw;
  const char **files; int file_count;
  const char **extra; int extra_count;
} cli;

static int usage_error(const char *what) {
  fprintf(stderr, "warplint: %s\n%s", what, usage_text);
  return 2;
}

/* Value of --name=value or --name value. */
static const char *option_value(int argc, char **argv, int *i, const char *name) {
  size_t n = strlen(name);
  if (strncmp(argv[*i], name, n) != 0) return NULL;
  if (argv[*i][n] == '=') return argv[*i] + n + 1;
  if (argv[*i][n] == 0 && *i + 1 < argc) return argv[++*i];
  return NULL;
}

static int parse_cli(int argc, char **argv, cli *c) {
  c->files = calloc((size_t)argc, sizeof *c->files);
  c->extra = calloc((size_t)argc, sizeof *c->extra);
  for (int i = 2; i < argc; i++) {
    const char *v;
    if (strcmp(argv[i], "--") == 0) {
      for (i++; i < argc; i++) c->extra[c->extra_count++] = argv[i];
      break;
    }
    if ((v = option_value(argc, argv, &i, "--format"))) c->format = v;
    else if ((v = option_value(argc, argv, &i, "--gpu"))) c->gpu = v;
    else if ((v = option_value(argc, argv, &i, "--arch"))) c->opt.arch = v;
    else if ((v = option_value(argc, argv, &i, "--fail-on"))) c->fail_on = v;
    else if ((v = option_value(argc, argv, &i, "--cuda-path"))) c->opt.cuda_path = v;
    else if ((v = option_value(argc, argv, &i, "-p"))) c->build_dir = v;
    else if ((v = option_value(argc, argv, &i, "-o"))) c->output = v;
    else if ((v = option_value(argc, argv, &i, "-j"))) c->jobs = atoi(v);
    else if (strncmp(argv[i], "-j", 2) == 0 && argv[i][2]) c->jobs = atoi(argv[i] + 2);
    else if (strcmp(argv[i], "--fix") == 0) c->fix = true;
    else if (strcmp(argv[i], "--backup") == 0) c->backup = true;
    else if (strcmp(argv[i], "--ptxas") == 0) c->ptxas = true;
    else if (strcmp(argv[i], "--shim") == 0) c->shim = true;
    else if (strcmp(argv[i], "--draw") == 0) c->draw = true;
    else if (argv[i][0] == '-' && argv[i][1]) {
      char msg[256];
      snprintf(msg, sizeof msg, "unknown or incomplete option '%s'", argv[i]);
      return usage_error(msg);
    } else c->files[c->file_count++] = argv[i];
  }
  if (strcmp(c->format, "text") && strcmp(c->format, "json") && strcmp(c->format, "sarif") &&
      strcmp(c->format, "html"))
    return usage_error("--format must be text, json, sarif or html");
  if (c->output && strcmp(c->format, "html")) return usage_error("-o is for --format=html");
  if (c->draw && strcmp(c->format, "text")) return usage_error("--draw is for the text output");
  if (strcmp(c->fail_on, "warning") && strcmp(c->fail_on, "note"))
    return usage_error("--fail-on must be warning or note");
  if (c->jobs < 1 || c->jobs > 256) return usage_error("-j needs a number from 1 to 256");
  if (strncmp(c->opt.arch, "sm_", 3) != 0) return usage_error("--arch must look like sm_90");
  if (c->shim && c->opt.cuda_path) return usage_error("--shim and --cuda-path exclude each other");
  return 0;
}

/* ---- which headers to parse with ---- */

/* The toolkit named with --cuda-path, else the one found on the machine,
 * else none (the stand-ins). Whether this libclang parses its headers is
 * seen file by file (frontend.c). */
static int choose_headers(cli *c, char **toolkit, char **cccl) {
  *toolkit = *cccl = NULL;
  if (c->shim) return 0;
  c->opt.cuda_path_explicit = c->opt.cuda_path != NULL;
  *toolkit = c->opt.cuda_path_explicit ? wl_strdup(c->opt.cuda_path) : wl_find_cuda_toolkit();
  if (!*toolkit) return 0;
  char *header = wl_format("%s/include/cuda_runtime.h", *toolkit);
  bool usable = access(header, R_OK) == 0;
  free(header);
  if (!usable) {
    fprintf(stderr, "warplint: error: --cuda-path %s: no include/cuda_runtime.h there\n", *toolkit);
    return 2;
  }
  char *cccl_dir = wl_format("%s/include/cccl", *toolkit);
  if (access(cccl_dir, R_OK) == 0) *cccl = cccl_dir;
  else free(cccl_dir);
  c->opt.cuda_path = *toolkit;
  c->opt.cccl_include = *cccl;
  return 0;
}

/* ---- the compilation database ---- */

typedef struct job {
  const char *path;
  char **args; int arg_count;
} job;

static char *cx_string(CXString s) {
  char *r = wl_strdup(clang_getCString(s) ? clang_getCString(s) : "");
  clang_disposeString(s);
  return r;
}

static bool keeps_value(const char *flag) {
  return strcmp(flag, "-I") == 0 || strcmp(flag, "-D") == 0 || strcmp(flag, "-U") == 0 ||
         strcmp(flag, "-isystem") == 0 || strcmp(flag, "-include") == 0;
}

/* The language standard, as gcc and clang (-std=c++20) or nvcc (--std c++20,
 * --std=c++20, -std c++20) write it, as clang's -std=...; NULL otherwise. */
static char *standard_flag(char **argv, int argc, int *a) {
  const char *arg = argv[*a];
  if (strncmp(arg, "-std=", 5) == 0) return wl_strdup(arg);
  if (strncmp(arg, "--std=", 6) == 0) return wl_format("-std=%s", arg + 6);
  if ((strcmp(arg, "-std") == 0 || strcmp(arg, "--std") == 0) && *a + 1 < argc)
    return wl_format("-std=%s", argv[++*a]);
  return NULL;
}

static void add_arg(job *j, const char *arg) {
  char **grown = realloc(j->args, (size_t)(j->arg_count + 2) * sizeof *grown);
  if (!grown) return;
  j->args = grown;
  j->args[j->arg_count++] = wl_strdup(arg);
}

/* Only the flags that change what the source means: -I -D -U -isystem
 * -include, each with its value joined or in the next argument, and the
 * language standard. */
static void keep_flags(job *j, char **argv, int argc) {
  for (int a = 0; a < argc; a++) {
    const char *arg = argv[a];
    char *standard = standard_flag(argv, argc, &a);
    if (standard) {
      add_arg(j, standard);
      free(standard);
    } else if (keeps_value(arg) && a + 1 < argc) {
      add_arg(j, arg);
      add_arg(j, argv[++a]);
    } else if ((strncmp(arg, "-I", 2) == 0 || strncmp(arg, "-D", 2) == 0 || strncmp(arg, "-U", 2) == 0) &&
               arg[2]) {
      add_arg(j, arg);
    }
  }
}

/* Splits a response file (CMake writes the CUDA include flags to one) into
 * words; double quotes group, backslash escapes. */
static int split_words(char *text, char **words, int cap) {
  int n = 0;
  char *p = text;
  while (*p && n < cap) {
    while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r') p++;
    if (!*p) break;
    char *out = p, *word = p;
    bool quoted = false;
    while (*p && (quoted || !(*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))) {
      if (*p == '"') { quoted = !quoted; p++; continue; }
      if (*p == '\\' && p[1]) p++;
      *out++ = *p++;
    }
    if (*p) p++;
    *out = 0;
    words[n++] = word;
  }
  return n;
}

static void response_file_flags(job *j, const char *dir, const char *name) {
  char *path = name[0] == '/' ? wl_strdup(name) : wl_format("%s/%s", dir, name);
  size_t len;
  char *text = read_text_file(path, &len);
  free(path);
  if (!text) return;
  char *words[1024];
  int n = split_words(text, words, 1024);
  keep_flags(j, words, n);
  free(text);
}

static void database_args(CXCompileCommand cmd, job *j) {
  unsigned n = clang_CompileCommand_getNumArgs(cmd);
  char **argv = calloc(n + 1, sizeof *argv);
  for (unsigned a = 0; a < n; a++) argv[a] = cx_string(clang_CompileCommand_getArg(cmd, a));
  char *dir = cx_string(clang_CompileCommand_getDirectory(cmd));
  for (unsigned a = 1; a < n; a++) {
    if (strcmp(argv[a], "--options-file") == 0 && a + 1 < n) response_file_flags(j, dir, argv[a + 1]);
    else if (argv[a][0] == '@') response_file_flags(j, dir, argv[a] + 1);
  }
  keep_flags(j, argv + 1, (int)n - 1);
  for (unsigned a = 0; a < n; a++) free(argv[a]);
  free(argv);
  free(dir);
}

static bool ends_with(const char *s, const char *suffix) {
  size_t a = strlen(s), b = strlen(suffix);
  return a >= b && strcmp(s + a - b, suffix) == 0;
}

/* Files from the command line, each with its database flags; with -p and no
 * files, every .cu file in the database. */
static int make_jobs(cli *c, job **out, int *count) {
  CXCompilationDatabase db = NULL;
  if (c->build_dir) {
    CXCompilationDatabase_Error err;
    db = clang_CompilationDatabase_fromDirectory(c->build_dir, &err);
    if (err != CXCompilationDatabase_NoError || !db) {
      fprintf(stderr, "warplint: error: cannot load %s/compile_commands.json\n", c->build_dir);
      return 2;
    }
  }
  job *jobs = NULL;
  int n = 0;
  if (c->file_count == 0 && db) {
    CXCompileCommands all = clang_CompilationDatabase_getAllCompileCommands(db);
    unsigned total = clang_CompileCommands_getSize(all);
    jobs = calloc(total + 1, sizeof *jobs);
    for (unsigned i = 0; i < total; i++) {
      CXCompileCommand cmd = clang_CompileCommands_getCommand(all, i);
      CXString file = clang_CompileCommand_getFilename(cmd);
      if (ends_with(clang_getCString(file), ".cu")) {
        jobs[n].path = wl_strdup(clang_getCString(file));
        database_args(cmd, &jobs[n++]);
      }
      clang_disposeString(file);
    }
    clang_CompileCommands_dispose(all);
  } else {
    jobs = calloc((size_t)c->file_count + 1, sizeof *jobs);
    for (int i = 0; i < c->file_count; i++) {
      jobs[n].path = wl_strdup(c->files[i]);
      if (db) {
        char resolved[PATH_MAX];
        const char *key = realpath(c->files[i], resolved) ? resolved : c->files[i];
        CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, key);
        if (cmds && clang_CompileCommands_getSize(cmds) > 0)
          database_args(clang_CompileCommands_getCommand(cmds, 0), &jobs[n]);
        if (cmds) clang_CompileCommands_dispose(cmds);
      }
      n++;
    }
  }
  if (db) clang_CompilationDatabase_dispose(db);
  *out = jobs;
  *count = n;
  return 0;
}

/* ---- running the analysis, in parallel with -j ---- */

typedef struct pool {
  cli *c;
  job *jobs;
  wl_file_result *results;
  int count, next;
  pthread_mutex_t lock;
} pool;

static void *worker(void *arg) {
  pool *p = arg;
  CXIndex index = clang_createIndex(0, 0);  /* one per thread: libclang indexes are not shared */
  for (;;) {
    pthread_mutex_lock(&p->lock);
    int i = p->next++;
    pthread_mutex_unlock(&p->lock);
    if (i >= p->count) break;
    job *j = &p->jobs[i];
    const char *args[256];
    int n = 0;
    for (int a = 0; a < j->arg_count && n < 200; a++) args[n++] = j->args[a];
    for (int a = 0; a < p->c->extra_count && n < 255; a++) args[n++] = p->c->extra[a];
    wl_analyze_file(index, j->path, args, n, &p->c->opt, &p->results[i]);
    if (p->c->ptxas) wl_ptxas(j->path, &p->c->opt, &p->results[i]);
  }
  clang_disposeIndex(index);
  return NULL;
}

static void analyse_all(cli *c, job *jobs, int count, wl_file_result *results) {
  pool p = {.c = c, .jobs = jobs, .results = results, .count = count};
  pthread_mutex_init(&p.lock, NULL);
  int threads = c->jobs < count ? c->jobs : count;
  pthread_t tid[256];
  int started = 0;
  for (int t = 1; t < threads; t++)
    if (pthread_create(&tid[started], NULL, worker, &p) == 0) started++;
  worker(&p);
  for (int t = 0; t < started; t++) pthread_join(tid[t], NULL);
  pthread_mutex_destroy(&p.lock);
}

static void load_profile(cli *c, json_value **profile, char *name, size_t size) {
  char err[512];
  *profile = wl_load_profile(c->gpu, c->opt.arch, name, size, err, sizeof err);
  if (!*profile) {
    /* An explicit --gpu that cannot be loaded stops the run (exit 2); without
     * one, the findings still come, only without measured estimates. */
    if (c->gpu) fprintf(stderr, "warplint: error: %s\n", err);
    else fprintf(stderr, "warplint: %s; estimates will say \"not measured\"\n", err);
    return;
  }
  c->opt.profile = *profile;
  c->opt.profile_name = name;
  c->opt.profile_short = json_string_or(json_path(*profile, "gpu.short"), name);
}

static int run_check(cli *c, bool inventory) {
  json_value *profile = NULL;
  char profile_name[256] = "";
  load_profile(c, &profile, profile_name, sizeof profile_name);
  if (c->gpu && !profile) return 2;
  job *jobs;
  int count;
  if (make_jobs(c, &jobs, &count) != 0) { json_free(profile); return 2; }
  if (count == 0) { free(jobs); json_free(profile); return usage_error("no input files"); }
  char *toolkit, *cccl;
  if (choose_headers(c, &toolkit, &cccl) != 0) { free(jobs); json_free(profile); return 2; }
  wl_file_result *results = calloc((size_t)count, sizeof *results);
  analyse_all(c, jobs, count, results);
  int unwritten = 0;
  if (inventory) wl_print_arrays_table(results, (size_t)count);
  else if (strcmp(c->format, "json") == 0) wl_print_json(results, (size_t)count, &c->opt);
  else if (strcmp(c->format, "sarif") == 0) wl_print_sarif(results, (size_t)count);
  else if (strcmp(c->format, "html") == 0) unwritten = wl_print_html(results, (size_t)count, &c->opt, c->output);
  else wl_print_text(results, (size_t)count, c->draw);
  int status = unwritten ? 2 : 0;
  for (int i = 0; i < count; i++) {
    if (results[i].failed) status = 2;
    for (size_t f = 0; f < results[i].finding_count && status == 0; f++)
      if (strcmp(results[i].findings[f].severity, "warning") == 0 || strcmp(c->fail_on, "note") == 0) status = 1;
    if (c->fix && !results[i].failed && wl_apply_fixes(&results[i], c->backup) != 0) status = 2;
  }
  for (int i = 0; i < count; i++) {
    wl_result_free(&results[i]);
    free((char *)jobs[i].path);
    for (int a = 0; a < jobs[i].arg_count; a++) free(jobs[i].args[a]);
    free(jobs[i].args);
  }
  free(results);
  free(jobs);
  free(toolkit);
  free(cccl);
  json_free(profile);
  return status;
}

/* ---- rules and explain ---- */

static int run_rules(void) {
  const json_value *rules = json_get(wl_catalog(), "rules");
  printf("%-5s %-8s %s\n", "rule", "status", "title");
  for (size_t i = 0; rules && i < rules->count; i++) {
    const json_value *r = json_at(rules, i);
    const char *id = json_string_or(json_get(r, "id"), "?");
    printf("%-5s %-8s %s\n", id, wl_rule_is_checked(id) ? "checked" : "advice",
           json_string_or(json_get(r, "title"), ""));
  }
  return 0;
}

/* A catalog example that names a file (examples/S_1_bad.cu), as a path;
 * NULL for an example given inline. */
static char *example_path(const char *value) {
  return value && ends_with(value, ".cu") ? wl_format("%s/%s", WARPLINT_RULES_DIR, value) : NULL;
}

static void print_example(const char *label, const char *value) {
  if (!value) return;
  printf("\n%s:\n", label);
  char *path = example_path(value);
  if (path) {
    size_t len;
    char *text = read_text_file(path, &len);
    if (text) fputs(text, stdout);
    else printf("  (%s; not found at %s)\n", value, path);
    free(text);
    free(path);
  } else {
    printf("%s\n", value);
  }
}

/* A catalog key with "<arch>" resolved for one profile's architecture. */
static void resolve_key(const char *key, const char *arch, char *out, size_t size) {
  const char *at = strstr(key, "<arch>");
  if (!at) { snprintf(out, size, "%s", key); return; }
  snprintf(out, size, "%.*s%s%s", (int)(at - key), key, arch, at + 6);
}

static void metric_cell(const wl_options *opt, const char *key, char *out, size_t size) {
  wl_metric m;
  wl_metric_lookup(opt, key, &m);
  if (m.present) snprintf(out, size, "%.4g %s", m.value, m.unit);
  else snprintf(out, size, "not measured");
}

static void print_evidence(const json_value *rule, const wl_options *opt, const wl_options *paper) {
  const json_value *keys = json_get(rule, "profile_keys");
  if (!keys || keys->count == 0) return;
  printf("\nevidence:\n  %-40s %-22s %s\n", "key", opt->profile_name ? opt->profile_name : "(no profile)",
         paper->profile_name ? paper->profile_name : "(no K20c profile)");
  for (size_t i = 0; i < keys->count; i++) {
    const char *key = json_string_or(json_at(keys, i), "");
    char ours[128], theirs[128], a[64], b[64];
    resolve_key(key, opt->arch, ours, sizeof ours);
    resolve_key(key, json_string_or(json_path(paper->profile, "gpu.arch"), "sm_35"), theirs, sizeof theirs);
    metric_cell(opt, ours, a, sizeof a);
    metric_cell(paper, theirs, b, sizeof b);
    printf("  %-40s %-22s %s\n", key, a, b);
  }
}

static int run_explain(cli *c) {
  if (c->file_count != 1) return usage_error("explain needs one rule id, e.g. warplint explain S_1");
  const json_value *rule = wl_rule(c->files[0]);
  if (!rule) {
    fprintf(stderr, "warplint: error: no rule '%s' (see: warplint rules)\n", c->files[0]);
    return 2;
  }
  json_value *profile = NULL, *k20c = NULL;
  char name[256] = "", paper_name[256] = "", err[512];
  load_profile(c, &profile, name, sizeof name);
  wl_options paper = c->opt;
  k20c = wl_load_profile("k20c-paper", "sm_35", paper_name, sizeof paper_name, err, sizeof err);
  paper.profile = k20c;
  paper.profile_name = k20c ? paper_name : NULL;
  paper.profile_short = "K20c";
  const char *id = json_string_or(json_get(rule, "id"), "?");
  printf("%s: %s (%s)\n\n", id, json_string_or(json_get(rule, "title"), ""),
         wl_rule_is_checked(id) ? "checked by warplint" : "advice");
  printf("guideline: %s\n\nwhy: %s\n", json_string_or(json_get(rule, "guideline"), ""),
         json_string_or(json_get(rule, "why"), ""));
  const char *paper_ref = json_string_or(json_get(rule, "paper"), NULL);
  if (paper_ref) printf("\npaper: %s\n", paper_ref);
  print_evidence(rule, &c->opt, &paper);
  const char *fix = json_string_or(json_get(rule, "fix"), NULL);
  if (fix) printf("\nfix: %s\n", fix);
  print_example("bad", json_string_or(json_get(rule, "bad"), NULL));
  print_example("good", json_string_or(json_get(rule, "good"), NULL));
  char *bad = example_path(json_string_or(json_get(rule, "bad"), NULL));
  char *good = example_path(json_string_or(json_get(rule, "good"), NULL));
  wl_draw_rule_examples(stdout, id, bad, good, &c->opt);
  free(bad);
  free(good);
  json_free(profile);
  json_free(k20c);
  return 0;
}

int main(int argc, char **argv) {
  if (argc < 2) return usage_error("no command");
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) { fputs(usage_text, stdout); return 0; }
  if (strcmp(argv[1], "--version") == 0) { printf("warplint %s\n", WARPLINT_VERSION); return 0; }
  cli c = {.command = argv[1], .format = "text", .fail_on = "warning", .jobs = 1};
  c.opt.arch = "sm_90";
  c.opt.shim_path = WARPLINT_SHIM_VIRTUAL_PATH;
  c.opt.shim_text = (const char *)wl_shim_text;
  c.opt.shim_len = wl_shim_text_size;
  int rc = parse_cli(argc, argv, &c);
  if (rc == 0) {
    if (strcmp(c.command, "check") == 0) rc = run_check(&c, false);
    else if (strcmp(c.command, "arrays") == 0) rc = run_check(&c, true);
    else if (strcmp(c.command, "explain") == 0) rc = run_explain(&c);
    else if (strcmp(c.command, "rules") == 0) rc = run_rules();
    else rc = usage_error("unknown command (check, arrays, explain, rules)");
  }
  free(c.files);
  free(c.extra);
  return rc;
}
