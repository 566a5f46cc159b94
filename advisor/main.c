/* warplint — the command line: check, arrays, explain, rules. */
#include "device.h"
#include "warplint.h"
#include "verify.h"

#include <clang-c/CXCompilationDatabase.h>
#include <clang-c/Index.h>
#include <dirent.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "json_writer.h"

extern const unsigned char wl_shim_text[];
extern const size_t wl_shim_text_size;

static const char usage_text[] =
  "usage: warplint check [options] FILES...    report warp-level memory anti-patterns\n"
  "       warplint arrays [options] FILES...   the array inventory of every kernel\n"
  "       warplint explain RULE [--gpu P]      a rule, its evidence and examples\n"
  "       warplint rules                       the catalog, checked or advice\n"
  "       warplint verify [options] FILES -- PROGRAM ARGS...\n"
  "                                            check FILES, run PROGRAM under Nsight Compute\n"
  "                                            and give each finding what the GPU measured\n"
  "       warplint COMMAND --help | warplint --help | --version\n"
  "options:\n"
  "  --format=FORMAT            text (default), json, sarif, or html: one self-contained\n"
  "                             page with a drawing of each finding's warp (check)\n"
  "  -o FILE                    write the html page to FILE (default: standard output)\n"
  "  --draw                     draw each finding's warp under it (text output)\n"
  "  --gpu NAME|FILE            GPU profile (default: the one matching --arch)\n"
  "  --arch sm_XX               target architecture (default sm_90)\n"
  "  -p BUILD_DIR               read compile_commands.json there (its -I/-D flags)\n"
  "  --changed-since REV        only the .cu files changed since git commit REV (FILES, if\n"
  "                             given, narrow it down as git pathspecs)\n"
  "  -j N                       analyse N files in parallel\n"
  "  --fix                      apply fix-its in place; --backup keeps FILE.orig\n"
  "  --fail-on=warning|note     exit 1 when a finding at or above it is reported\n"
  "  --ptxas                    attach nvcc's registers/local memory/spills per kernel\n"
  "  --cuda-path DIR            parse with this CUDA toolkit's headers (default: the toolkit\n"
  "                             CMake would find: CUDAToolkit_ROOT, CUDA_PATH, nvcc on PATH,\n"
  "                             /usr/local/cuda)\n"
  "  --shim                     parse with warplint's stand-in CUDA headers, even when a\n"
  "                             toolkit is installed\n"
  "  --model device|syntax      model the warp on each kernel's device code, as clang compiles\n"
  "                             it for --arch (default), or on its syntax alone\n"
  "  -- ARGS...                 extra compiler arguments (-I, -D) for every file\n"
  "exit status: 0 clean, 1 a finding at or above --fail-on, 2 usage or parse errors\n";

typedef struct cli {
  const char *command, *format, *gpu, *build_dir, *fail_on, *changed_since, *output, *model;
  wl_options opt;
  int jobs;
  bool help, fix, backup, ptxas, shim, draw, arch_given;
  const char **files; int file_count;
  const char **extra; int extra_count;
  char **changed; int changed_count;   /* --changed-since: the files git names */
  char **program;                      /* verify: the program and its arguments, after -- */
} cli;

static const char *const commands[] = {"check", "arrays", "explain", "rules", "verify"};

/* A mistake on the command line: one line naming it, exit status 2. The
 * whole usage is for --help (and for no command at all). */
static int usage_error(const char *what) {
  fprintf(stderr, "warplint: %s (see warplint --help)\n", what);
  return 2;
}

/* "NAME 'VALUE' is not one of ...": the value given and the accepted ones. */
static int bad_value(const char *option, const char *value, const char *accepted) {
  char msg[512];
  snprintf(msg, sizeof msg, "%s '%s' is not one of %s", option, value, accepted);
  return usage_error(msg);
}

static bool one_of(const char *value, const char *const *accepted) {
  for (; *accepted; accepted++)
    if (strcmp(value, *accepted) == 0) return true;
  return false;
}

/* Long options; the short ones are -h, -j N, -o FILE, -p DIR. */
enum { opt_format = 256, opt_gpu, opt_arch, opt_fail_on, opt_cuda_path, opt_changed_since, opt_fix, opt_backup,
       opt_ptxas, opt_shim, opt_draw, opt_model };
static const struct option long_options[] = {
  {"help", no_argument, NULL, 'h'},
  {"format", required_argument, NULL, opt_format},
  {"gpu", required_argument, NULL, opt_gpu},
  {"arch", required_argument, NULL, opt_arch},
  {"fail-on", required_argument, NULL, opt_fail_on},
  {"cuda-path", required_argument, NULL, opt_cuda_path},
  {"changed-since", required_argument, NULL, opt_changed_since},
  {"fix", no_argument, NULL, opt_fix},
  {"backup", no_argument, NULL, opt_backup},
  {"ptxas", no_argument, NULL, opt_ptxas},
  {"shim", no_argument, NULL, opt_shim},
  {"draw", no_argument, NULL, opt_draw},
  {"model", required_argument, NULL, opt_model},
  {NULL, 0, NULL, 0},
};

/* The checks between options, once all are read. */
static int check_options(const cli *c) {
  static const char *const formats[] = {"text", "json", "sarif", "html", NULL};
  static const char *const levels[] = {"warning", "note", NULL};
  static const char *const models[] = {"device", "syntax", NULL};
  if (!one_of(c->format, formats)) return bad_value("--format", c->format, "text, json, sarif or html");
  if (c->output && strcmp(c->format, "html")) return usage_error("-o is for --format=html");
  if (c->draw && strcmp(c->format, "text")) return usage_error("--draw is for the text output");
  if (!one_of(c->fail_on, levels)) return bad_value("--fail-on", c->fail_on, "warning or note");
  if (c->jobs < 1 || c->jobs > 256) return usage_error("-j needs a number from 1 to 256");
  if (strncmp(c->opt.arch, "sm_", 3) != 0) return usage_error("--arch must look like sm_90");
  if (c->shim && c->opt.cuda_path) return usage_error("--shim and --cuda-path exclude each other");
  if (!one_of(c->model, models)) return bad_value("--model", c->model, "device or syntax");
  return 0;
}

/* argv[1] is the command; its options and FILES may come in any order
 * (getopt_long hands the FILES back in order, as option 1); what follows
 * "--" is passed to the compiler. */
static int parse_cli(int argc, char **argv, cli *c) {
  c->files = calloc((size_t)argc, sizeof *c->files);
  c->extra = calloc((size_t)argc, sizeof *c->extra);
  int end = argc;  /* getopt_long never sees "--" and what follows */
  for (int i = 2; i < argc; i++)
    if (strcmp(argv[i], "--") == 0) { end = i; break; }
  /* after "--": verify's program and its arguments, else the compiler's */
  if (end < argc && strcmp(c->command, "verify") == 0) c->program = argv + end + 1;
  else
    for (int i = end + 1; i < argc; i++) c->extra[c->extra_count++] = argv[i];
  opterr = 0;   /* warplint words its own errors */
  optind = 2;
  int opt;
  while ((opt = getopt_long(end, argv, "-hj:o:p:", long_options, NULL)) != -1) {
    switch (opt) {
    case 1: c->files[c->file_count++] = optarg; break;   /* a FILE, in order among the options */
    case 'h': c->help = true; return 0;
    case 'j': c->jobs = atoi(optarg); break;
    case 'o': c->output = optarg; break;
    case 'p': c->build_dir = optarg; break;
    case opt_format: c->format = optarg; break;
    case opt_gpu: c->gpu = optarg; break;
    case opt_arch: c->opt.arch = optarg; c->arch_given = true; break;
    case opt_fail_on: c->fail_on = optarg; break;
    case opt_cuda_path: c->opt.cuda_path = optarg; break;
    case opt_changed_since: c->changed_since = optarg; break;
    case opt_fix: c->fix = true; break;
    case opt_backup: c->backup = true; break;
    case opt_ptxas: c->ptxas = true; break;
    case opt_shim: c->shim = true; break;
    case opt_draw: c->draw = true; break;
    case opt_model: c->model = optarg; break;
    default: {
      char msg[256];
      snprintf(msg, sizeof msg, "unknown or incomplete option '%s'", argv[optind - 1]);
      return usage_error(msg);
    }
    }
  }
  c->opt.syntax_only = strcmp(c->model, "syntax") == 0;
  return check_options(c);
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
  const char *problem;   /* why the path cannot be analysed (a folder with no .cu file), or NULL */
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
 * -include, each with its value joined or in the next argument, the
 * language standard, and relocatable device code. */
/* nvcc's relocatable device code (-rdc=true, -dc), which dynamic
 * parallelism needs: clang's -fgpu-rdc. */
static bool relocatable_flag(char **argv, int argc, int *a) {
  const char *arg = argv[*a];
  if (strcmp(arg, "-rdc=true") == 0 || strcmp(arg, "--relocatable-device-code=true") == 0 ||
      strcmp(arg, "-dc") == 0 || strcmp(arg, "--device-c") == 0)
    return true;
  if ((strcmp(arg, "-rdc") == 0 || strcmp(arg, "--relocatable-device-code") == 0) && *a + 1 < argc &&
      strcmp(argv[*a + 1], "true") == 0) {
    ++*a;
    return true;
  }
  return false;
}

static void keep_flags(job *j, char **argv, int argc) {
  for (int a = 0; a < argc; a++) {
    const char *arg = argv[a];
    char *standard = standard_flag(argv, argc, &a);
    if (standard) {
      add_arg(j, standard);
      free(standard);
    } else if (relocatable_flag(argv, argc, &a)) {
      add_arg(j, "-fgpu-rdc");
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

/* ---- folders on the command line: the .cu files inside them ---- */

typedef struct name_list { char **names; int count, cap; } name_list;

static void name_list_add(name_list *l, char *name) {
  if (l->count == l->cap) {
    int cap = l->cap ? 2 * l->cap : 16;
    char **grown = realloc(l->names, (size_t)cap * sizeof *grown);
    if (!grown) { free(name); return; }
    l->names = grown;
    l->cap = cap;
  }
  l->names[l->count++] = name;
}

static int by_string(const void *a, const void *b) { return strcmp(*(char *const *)a, *(char *const *)b); }

/* Every .cu file under folder (hidden folders left out), sorted by path. */
static void collect_cu_files(const char *folder, name_list *out) {
  DIR *dir = opendir(folder);
  if (!dir) return;
  struct dirent *e;
  while ((e = readdir(dir))) {
    if (e->d_name[0] == '.') continue;
    char *path = wl_format("%s%s%s", folder, wl_ends_with(folder, "/") ? "" : "/", e->d_name);
    struct stat st;
    if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
      collect_cu_files(path, out);
      free(path);
    } else if (wl_ends_with(e->d_name, ".cu")) {
      name_list_add(out, path);
    } else {
      free(path);
    }
  }
  closedir(dir);
}

static bool is_folder(const char *path) {
  struct stat st;
  return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* One job per file; a folder stands for the .cu files under it, and a
 * folder with none is one job that says so. */
static void add_path_jobs(const char *path, job **jobs, int *n, int *cap) {
  name_list files = {0};
  if (is_folder(path)) collect_cu_files(path, &files);
  else name_list_add(&files, wl_strdup(path));
  if (files.count > 1) qsort(files.names, (size_t)files.count, sizeof *files.names, by_string);
  int needed = files.count ? files.count : 1;
  if (*n + needed > *cap) {
    *cap = 2 * (*n + needed);
    job *grown = realloc(*jobs, (size_t)*cap * sizeof *grown);
    if (!grown) { *cap = *n; return; }
    *jobs = grown;
  }
  if (files.count == 0) {
    (*jobs)[(*n)++] = (job){.path = wl_strdup(path), .problem = "a folder with no .cu file in it"};
  }
  for (int i = 0; i < files.count; i++) (*jobs)[(*n)++] = (job){.path = files.names[i]};
  free(files.names);
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
  if (c->file_count == 0 && db && !c->changed_since) {
    CXCompileCommands all = clang_CompilationDatabase_getAllCompileCommands(db);
    unsigned total = clang_CompileCommands_getSize(all);
    jobs = calloc(total + 1, sizeof *jobs);
    for (unsigned i = 0; i < total; i++) {
      CXCompileCommand cmd = clang_CompileCommands_getCommand(all, i);
      CXString file = clang_CompileCommand_getFilename(cmd);
      if (wl_ends_with(clang_getCString(file), ".cu")) {
        jobs[n].path = wl_strdup(clang_getCString(file));
        database_args(cmd, &jobs[n++]);
      }
      clang_disposeString(file);
    }
    clang_CompileCommands_dispose(all);
  } else {
    int cap = c->file_count + 1, listed = 0;
    jobs = calloc((size_t)cap, sizeof *jobs);
    for (int i = 0; i < c->file_count; i++) add_path_jobs(c->files[i], &jobs, &listed, &cap);
    for (; n < listed; n++) {
      if (jobs[n].problem) continue;
      if (db) {
        char resolved[PATH_MAX];
        const char *key = realpath(jobs[n].path, resolved) ? resolved : jobs[n].path;
        CXCompileCommands cmds = clang_CompilationDatabase_getCompileCommands(db, key);
        if (cmds && clang_CompileCommands_getSize(cmds) > 0)
          database_args(clang_CompileCommands_getCommand(cmds, 0), &jobs[n]);
        if (cmds) clang_CompileCommands_dispose(cmds);
      }
    }
  }
  if (db) clang_CompilationDatabase_dispose(db);
  *out = jobs;
  *count = n;
  return 0;
}

/* ---- --changed-since REV: the .cu files git says changed ---- */

/* Runs git (args[0] is "git") in the current folder, its stdout in *out
 * (malloc'd, NUL-terminated) and its stderr dropped: warplint says what went
 * wrong itself. Returns git's exit status; 127 when git cannot be run. */
static int git_output(const char *const *args, char **out, size_t *len) {
  int fd[2];
  *out = NULL;
  *len = 0;
  if (pipe(fd) != 0) return 127;
  pid_t pid = fork();
  if (pid < 0) {
    close(fd[0]);
    close(fd[1]);
    return 127;
  }
  if (pid == 0) {
    int null = open("/dev/null", O_WRONLY);
    dup2(fd[1], STDOUT_FILENO);
    if (null >= 0) dup2(null, STDERR_FILENO);
    close(fd[0]);
    close(fd[1]);
    execvp("git", (char *const *)args);
    _exit(127);
  }
  close(fd[1]);
  size_t cap = 4096;
  char *text = malloc(cap);
  ssize_t got = 0;
  while (text && (got = read(fd[0], text + *len, cap - *len - 1)) > 0) {
    *len += (size_t)got;
    if (cap - *len < 2) {
      char *grown = realloc(text, cap *= 2);
      if (!grown) free(text);
      text = grown;
    }
  }
  close(fd[0]);
  int status = 0;
  waitpid(pid, &status, 0);
  if (!text) return 127;
  text[*len] = 0;
  *out = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 127;
}

/* The toplevel folder of the repository and the commit REV names, each
 * checked; 2 with one line on stderr when this is no git repository or REV
 * no commit of it. */
static int git_repository_and_commit(const char *rev, char **top, char **commit) {
  size_t len;
  *commit = NULL;
  const char *toplevel[] = {"git", "rev-parse", "--show-toplevel", NULL};
  int rc = git_output(toplevel, top, &len);
  if (rc != 0) {
    char cwd[PATH_MAX];
    if (rc == 127) fprintf(stderr, "warplint: error: --changed-since needs git, which cannot be run\n");
    else fprintf(stderr, "warplint: error: --changed-since: %s is not in a git repository\n",
                 getcwd(cwd, sizeof cwd) ? cwd : "the current folder");
    free(*top);
    return 2;
  }
  (*top)[strcspn(*top, "\n")] = 0;
  char *spec = wl_format("%s^{commit}", rev);
  const char *verify[] = {"git", "rev-parse", "--verify", "--quiet", spec, NULL};
  rc = rev[0] == '-' ? 1 : git_output(verify, commit, &len);  /* a leading '-' would be an option */
  free(spec);
  if (rc != 0) {
    fprintf(stderr, "warplint: error: --changed-since: '%s' is not a commit of the repository %s\n", rev, *top);
    free(*top);
    free(*commit);
    return 2;
  }
  (*commit)[strcspn(*commit, "\n")] = 0;
  return 0;
}

/* Replaces the FILES of the command line by the .cu files changed since
 * --changed-since REV (git diff --name-only: the working tree against REV;
 * deleted files left out), FILES narrowing the diff as git pathspecs. Each
 * is named relative to the current folder when it lies under it. */
static int changed_files(cli *c) {
  char *top = NULL, *commit = NULL, *names = NULL, cwd[PATH_MAX];
  if (git_repository_and_commit(c->changed_since, &top, &commit) != 0) return 2;
  const char **args = calloc((size_t)c->file_count + 10, sizeof *args);
  int n = 0;
  const char *diff[] = {"git", "diff", "--name-only", "--no-relative", "-z", "--diff-filter=d", commit, "--"};
  for (size_t i = 0; i < sizeof diff / sizeof diff[0]; i++) args[n++] = diff[i];
  for (int i = 0; i < c->file_count; i++) args[n++] = c->files[i];
  size_t len;
  int rc = git_output(args, &names, &len);
  free(args);
  if (rc != 0) fprintf(stderr, "warplint: error: --changed-since: git diff %s failed in %s\n", c->changed_since, top);
  size_t cwd_len = getcwd(cwd, sizeof cwd) ? strlen(cwd) : 0;
  c->changed = calloc(len / 2 + 2, sizeof *c->changed);  /* a name and its NUL take 2 bytes at least */
  for (size_t at = 0; rc == 0 && at < len; at += strlen(names + at) + 1) {
    if (!wl_ends_with(names + at, ".cu")) continue;
    char *path = wl_format("%s/%s", top, names + at);
    bool below = cwd_len && strncmp(path, cwd, cwd_len) == 0 && path[cwd_len] == '/';
    c->changed[c->changed_count++] = below ? wl_strdup(path + cwd_len + 1) : wl_strdup(path);
    free(path);
  }
  free(c->files);
  c->files = calloc((size_t)c->changed_count + 1, sizeof *c->files);
  for (int i = 0; i < c->changed_count; i++) c->files[i] = c->changed[i];
  c->file_count = c->changed_count;
  if (rc == 0 && c->file_count == 0) fprintf(stderr, "warplint: no .cu file changed since %s\n", c->changed_since);
  free(top);
  free(commit);
  free(names);
  return rc == 0 ? 0 : 2;
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
  /* one per thread: libclang indexes are not shared; without the
   * precompiled header's declarations in its walks (cx.c's visit_unit) */
  CXIndex index = clang_createIndex(1, 0);
  for (;;) {
    pthread_mutex_lock(&p->lock);
    int i = p->next++;
    pthread_mutex_unlock(&p->lock);
    if (i >= p->count) break;
    job *j = &p->jobs[i];
    if (j->problem) {
      p->results[i].path = wl_strdup(j->path);
      p->results[i].failed = true;
      wl_result_error(&p->results[i], "%s: error: %s", j->path, j->problem);
      continue;
    }
    const char *args[256];
    int n = 0;
    for (int a = 0; a < j->arg_count && n < 200; a++) args[n++] = j->args[a];
    for (int a = 0; a < p->c->extra_count && n < 255; a++) args[n++] = p->c->extra[a];
    wl_analyze_file(index, j->path, args, n, &p->c->opt, &p->results[i]);
    if (p->c->ptxas) wl_ptxas(j->path, args, n, &p->c->opt, &p->results[i]);
    else wl_local_verdicts(j->path, args, n, &p->c->opt, &p->results[i]);
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
    /* An explicit --gpu, or an --arch no profile was measured on, stops the
     * run (exit 2); without either, the findings still come, only without
     * measured estimates (a lone binary, away from its data folder). */
    if (c->gpu || c->arch_given) fprintf(stderr, "warplint: error: %s\n", err);
    else fprintf(stderr, "warplint: %s; estimates will say \"not measured\"\n", err);
    return;
  }
  c->opt.profile = *profile;
  c->opt.profile_name = name;
  c->opt.profile_short = json_string_or(json_path(*profile, "gpu.short"), name);
}

/* A file that parsed but holds no kernel (a text file, host code only) is
 * said to have none, so that "0 kernels" is not taken for a clean bill. */
static void note_no_kernel(wl_file_result *results, int count) {
  for (int i = 0; i < count; i++) {
    wl_file_result *r = &results[i];
    long kernels = r->kernels_analysed + r->kernels_skipped;   /* its headers' too */
    for (size_t h = 0; h < r->header_count; h++) kernels += r->headers[h].kernels_analysed;
    if (!r->failed && kernels == 0)
      wl_result_note(r, "%s: note: no kernel found (no __global__ function defined in this file)", r->path);
  }
}

/* --fix: applies each file's fix-its, says what it applied, and leaves the
 * findings it fixed out of the report and the exit status: they are moved
 * past finding_count, which *total keeps for wl_result_free. Returns 2 when
 * a file could not be rewritten, else 0. */
static int apply_fixes(const cli *c, wl_file_result *results, size_t count, size_t *total) {
  FILE *say = strcmp(c->format, "text") == 0 ? stdout : stderr;  /* never inside JSON or SARIF */
  int status = 0;
  for (size_t i = 0; i < count; i++) {
    wl_file_result *r = &results[i];
    total[i] = r->finding_count;
    if (r->failed) continue;
    int applied = wl_apply_fixes(r, c->backup);
    if (applied < 0) { status = 2; continue; }
    if (applied == 0) continue;
    if (c->backup)
      fprintf(say, "warplint: applied %d fix-it%s to %s; backup %s.orig\n", applied, applied == 1 ? "" : "s",
              r->path, r->path);
    else fprintf(say, "warplint: applied %d fix-it%s to %s\n", applied, applied == 1 ? "" : "s", r->path);
    size_t kept = 0;   /* the findings with no fix-it, in their order, first */
    for (size_t f = 0; f < r->finding_count; f++) {
      if (r->findings[f].fix_count) continue;
      wl_finding unfixed = r->findings[f];
      r->findings[f] = r->findings[kept];
      r->findings[kept++] = unfixed;
    }
    r->finding_count = kept;
  }
  return status;
}

static int run_check(cli *c, bool inventory) {
  json_value *profile = NULL;
  char profile_name[256] = "";
  load_profile(c, &profile, profile_name, sizeof profile_name);
  if ((c->gpu || c->arch_given) && !profile) return 2;
  if (c->changed_since && changed_files(c) != 0) { json_free(profile); return 2; }
  job *jobs;
  int count;
  if (make_jobs(c, &jobs, &count) != 0) { json_free(profile); return 2; }
  wl_measurement measured = {0};
  bool verify = strcmp(c->command, "verify") == 0;
  if (verify && count > 0 && wl_verify_measure(c->program, &measured) != 0) { free(jobs); json_free(profile); return 2; }
  /* Nothing changed since REV is a clean run, with its (empty) report. */
  if (count == 0 && !c->changed_since) { free(jobs); json_free(profile); return usage_error("no input files"); }
  char *toolkit, *cccl;
  if (choose_headers(c, &toolkit, &cccl) != 0) { free(jobs); json_free(profile); return 2; }
  wl_file_result *results = calloc((size_t)count + 1, sizeof *results);
  analyse_all(c, jobs, count, results);
  note_no_kernel(results, count);
  /* the project headers' kernels and findings, as results of their own */
  size_t total = wl_flatten_results(&results, (size_t)count);
  if (verify) wl_verify_attach(results, total, &measured);
  wl_measurement_free(&measured);
  size_t *findings = calloc(total + 1, sizeof *findings);
  for (size_t i = 0; i < total; i++) findings[i] = results[i].finding_count;
  int unfixed = c->fix ? apply_fixes(c, results, total, findings) : 0;
  int unwritten = 0;
  if (inventory) wl_print_arrays_table(results, total);
  else if (strcmp(c->format, "json") == 0) wl_print_json(results, total, &c->opt);
  else if (strcmp(c->format, "sarif") == 0) wl_print_sarif(results, total);
  else if (strcmp(c->format, "html") == 0) unwritten = wl_print_html(results, total, &c->opt, c->output);
  else wl_print_text(results, total, c->draw);
  int status = unwritten || unfixed ? 2 : 0;
  for (size_t i = 0; i < total; i++) {
    if (results[i].failed) status = 2;
    for (size_t f = 0; f < results[i].finding_count && status == 0; f++)
      if (strcmp(results[i].findings[f].severity, "warning") == 0 || strcmp(c->fail_on, "note") == 0) status = 1;
  }
  for (size_t i = 0; i < total; i++) {
    results[i].finding_count = findings[i];   /* the fixed ones too, to be freed */
    wl_result_free(&results[i]);
  }
  for (int i = 0; i < count; i++) {
    free((char *)jobs[i].path);
    for (int a = 0; a < jobs[i].arg_count; a++) free(jobs[i].args[a]);
    free(jobs[i].args);
  }
  free(results);
  free(findings);
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
  return value && wl_ends_with(value, ".cu") ? wl_format("%s/rules/%s", wl_share_dir(), value) : NULL;
}

/* An example's text without the test suite's markers: "// expect: S_1"
 * and what follows it on its line, with the blanks before it, are for
 * tests/advisor, not for the reader. */
static void print_without_markers(const char *text) {
  for (const char *line = text; *line;) {
    size_t len = strcspn(line, "\n");
    const char *marker = strstr(line, "// expect:");
    size_t keep = marker && (size_t)(marker - line) < len ? (size_t)(marker - line) : len;
    while (keep > 0 && keep < len && (line[keep - 1] == ' ' || line[keep - 1] == '\t')) keep--;
    printf("%.*s\n", (int)keep, line);
    line += len + (line[len] == '\n');
  }
}

static void print_example(const char *label, const char *value) {
  if (!value) return;
  printf("\n%s:\n", label);
  char *path = example_path(value);
  if (path) {
    size_t len;
    char *text = read_text_file(path, &len);
    if (text) print_without_markers(text);
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

/* A profile's value for key, with its unit and, for a transcribed profile,
 * where in the paper it is ("320 cycles (Fig. 11(b))"); false when absent. */
static bool evidence_cell(const wl_options *opt, const char *key, char *out, size_t size) {
  wl_metric m;
  wl_metric_lookup(opt, key, &m);
  if (!m.present) return false;
  bool transcribed = strcmp(json_string_or(json_path(opt->profile, "gpu.source"), ""), "transcribed") == 0;
  const char *source = json_string_or(json_get(json_get(json_get(opt->profile, "measurements"), key), "source"),
                                      NULL);
  const char *detail = source ? strstr(source, " (") : NULL;
  if (transcribed && source)
    snprintf(out, size, "%.4g %s (%.*s)", m.value, m.unit, detail ? (int)(detail - source) : 60, source);
  else snprintf(out, size, "%.4g %s", m.value, m.unit);
  return true;
}

/* "label: a, b, c" wrapped under the evidence table. */
static void print_key_list(const char *label, const char **keys, int count) {
  if (count == 0) return;
  int column = printf("  %s:", label);
  for (int i = 0; i < count; i++) {
    if (column + (int)strlen(keys[i]) + 2 > 100) column = printf("\n   ") - 1;
    column += printf(" %s%s", keys[i], i + 1 < count ? "," : "");
  }
  printf("\n");
}

typedef struct evidence_row {
  const char *key;                 /* as the catalog names it, "<arch>" unresolved */
  char ours_key[128], paper_key[128];
  char ours[96], paper[160];
  bool has_ours, has_paper;
} evidence_row;

/* The rule's profile keys: what the chosen profile and the paper's K20c
 * profile hold, side by side (one column when they are the same profile),
 * then which keys each lacks, said once instead of a row of blanks. */
static void print_evidence(const json_value *rule, const wl_options *opt, const wl_options *paper) {
  const json_value *keys = json_get(rule, "profile_keys");
  if (!keys || keys->count == 0) return;
  bool same = opt->profile_name && paper->profile_name && strcmp(opt->profile_name, paper->profile_name) == 0;
  const wl_options *ours = same ? NULL : opt;
  const char *paper_arch = json_string_or(json_path(paper->profile, "gpu.arch"), "sm_35");
  size_t n = keys->count;
  evidence_row *rows = calloc(n, sizeof *rows);
  const char **unmeasured = calloc(n, sizeof *unmeasured), **not_in_paper = calloc(n, sizeof *not_in_paper);
  int unmeasured_count = 0, not_in_paper_count = 0, shown = 0, width = 3;
  for (size_t i = 0; i < n; i++) {
    evidence_row *r = &rows[i];
    r->key = json_string_or(json_at(keys, i), "");
    resolve_key(r->key, opt->arch, r->ours_key, sizeof r->ours_key);
    resolve_key(r->key, paper_arch, r->paper_key, sizeof r->paper_key);
    r->has_ours = ours && evidence_cell(ours, r->ours_key, r->ours, sizeof r->ours);
    r->has_paper = evidence_cell(paper, r->paper_key, r->paper, sizeof r->paper);
    if (ours && !r->has_ours) unmeasured[unmeasured_count++] = r->ours_key;
    if (!r->has_paper) not_in_paper[not_in_paper_count++] = r->paper_key;
    if (r->has_ours || r->has_paper) {
      shown++;
      if ((int)strlen(r->key) > width) width = (int)strlen(r->key);
    }
  }
  printf("\nevidence:\n");
  if (shown) {
    printf("  %-*s", width, "key");
    if (ours) printf("  %-22s", ours->profile_name ? ours->profile_name : "(no profile)");
    printf("  K20c (the paper)\n");
  }
  for (size_t i = 0; i < n; i++) {
    if (!rows[i].has_ours && !rows[i].has_paper) continue;
    printf("  %-*s", width, rows[i].key);
    if (ours) printf("  %-22s", rows[i].has_ours ? rows[i].ours : "-");
    printf("  %s\n", rows[i].has_paper ? rows[i].paper : "-");
  }
  if (ours && !ours->profile) {
    printf("  no profile for %s was loaded: no measured values\n", ours->arch);
  } else if (ours) {
    char label[160];
    snprintf(label, sizeof label, "not measured in %s", ours->profile_name);
    if (unmeasured_count == (int)n) printf("  %s has none of these values\n", ours->profile_name);
    else print_key_list(label, unmeasured, unmeasured_count);
  }
  if (!paper->profile) printf("  the paper's K20c profile (k20c-paper.json) is not in %s\n", wl_data_dir());
  else if (not_in_paper_count == (int)n) printf("  the paper gives none of these values\n");
  else print_key_list("the paper gives no value for", not_in_paper, not_in_paper_count);
  free(rows);
  free(unmeasured);
  free(not_in_paper);
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
  if ((c->gpu || c->arch_given) && !profile) return 2;   /* as check does */
  wl_options paper = c->opt;
  k20c = wl_load_profile("k20c-paper", "sm_35", paper_name, sizeof paper_name, err, sizeof err);
  if (!k20c) fprintf(stderr, "warplint: %s\n", err);
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

static bool known_command(const char *name) {
  for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
    if (strcmp(name, commands[i]) == 0) return true;
  return false;
}

int main(int argc, char **argv) {
  device_init();
  if (argc < 2) {
    fprintf(stderr, "warplint: no command\n%s", usage_text);
    return 2;
  }
  if (strcmp(argv[1], "--help") == 0 || strcmp(argv[1], "-h") == 0) { fputs(usage_text, stdout); return 0; }
  if (strcmp(argv[1], "--version") == 0) {
    /* what decides how files parse: the libclang and the headers it will use */
    CXString clang_version = clang_getClangVersion();
    char *toolkit = wl_find_cuda_toolkit();
    printf("warplint %s\nlibclang: %s\nCUDA headers: %s\nprofiles: %s\nrule examples: %s/rules/examples\n",
           WARPLINT_VERSION, clang_getCString(clang_version), toolkit ? toolkit : "none found (stand-ins)",
           wl_data_dir(), wl_share_dir());
    clang_disposeString(clang_version);
    free(toolkit);
    return 0;
  }
  if (!known_command(argv[1])) return bad_value("command", argv[1], "check, arrays, explain, rules or verify");
  cli c = {.command = argv[1], .format = "text", .fail_on = "warning", .model = "device", .jobs = 1};
  c.opt.arch = "sm_90";
  c.opt.shim_path = WARPLINT_SHIM_VIRTUAL_PATH;
  c.opt.shim_text = (const char *)wl_shim_text;
  c.opt.shim_len = wl_shim_text_size;
  int rc = parse_cli(argc, argv, &c);
  if (rc == 0 && c.help) fputs(usage_text, stdout);
  else if (rc == 0 && (strcmp(c.command, "check") == 0 || strcmp(c.command, "verify") == 0)) rc = run_check(&c, false);
  else if (rc == 0 && strcmp(c.command, "arrays") == 0) rc = run_check(&c, true);
  else if (rc == 0 && strcmp(c.command, "explain") == 0) rc = run_explain(&c);
  else if (rc == 0) rc = run_rules();
  free(c.files);
  free(c.extra);
  for (int i = 0; i < c.changed_count; i++) free(c.changed[i]);
  free(c.changed);
  return rc;
}
