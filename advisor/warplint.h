/* warplint — internal interfaces shared by the advisor's source files.
 * The analysis (analysis.h: frontend.c, kernel.c, walk.c, index.c, lanes.c,
 * check_*.c, findings.c) turns one CUDA file into findings and an array
 * inventory;
 * profile.c loads the rule catalog and a GPU profile; report.c prints
 * text, JSON and SARIF; report_html.c writes the HTML page; draw.c maps a
 * warp's lanes onto banks, sectors or words; main.c is the command line. */
#ifndef WARPLINT_H
#define WARPLINT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "json_reader.h"
#include "text_file.h"

#define WARPLINT_VERSION "0.1.0"

/* What a finding costs, as read from the chosen GPU profile. */
typedef struct wl_metric {
  char key[96];
  bool present;     /* false: "not measured in <profile>" */
  double value;
  char unit[16];
} wl_metric;

typedef struct wl_fix {
  unsigned line, column, length;  /* 1-based; length in bytes to replace */
  char *replacement;
} wl_fix;

/* One warp of a finding, for the drawings (the HTML report, --draw): the
 * byte offset each lane touches, relative to the lowest active lane's. */
typedef struct wl_warp {
  bool known;                      /* the lanes were modelled concretely */
  unsigned active;                 /* bit l: lane l takes part */
  long long offset[32];
  int width;                       /* bytes each lane reads or writes */
  char example[96];                /* "n = 32": the run-time sizes the drawing takes as an example, since
                                      the lanes' offsets depend on them; "" when they do not */
} wl_warp;

typedef struct wl_finding {
  char rule[8];
  const char *severity;           /* "warning" or "note" */
  unsigned line, column;
  char *kernel, *array;
  const char *space;
  char *message;
  char *notes[4];
  int note_count;
  unsigned note_line[4], note_column[4];
  wl_metric metrics[2];
  int metric_count;
  wl_fix fixes[2];
  int fix_count;
  bool confirmed_set, confirmed;   /* --ptxas verdict for L_ findings */
  wl_warp warp;                    /* the warp as the code is */
  wl_warp fixed;                   /* the same warp after the suggested fix (known: false when the
                                      fix is no change of addresses, as for S_5) */
  /* warplint verify (verify.c): what the GPU counted on this line */
  const char *measured;            /* NULL: not verified; "measured" or "not executed" */
  const char *measured_unit;       /* "sectors" or "wavefronts" */
  double measured_total, measured_ideal, measured_inst;
  double measured_excess_pct;      /* excess as a share of the line's total, % */
  double measured_kernel_share;    /* this line's excess as a share of its kernel's, %; -1 unknown */
} wl_finding;

enum {
  WL_CLASS_READONLY = 1, WL_CLASS_TEMPORAL = 2, WL_CLASS_REUSABLE = 4, WL_CLASS_WRITTEN = 8
};

typedef struct wl_array_info {
  char *kernel, *array, *element_type, *patterns, *recommended;
  const char *space;
  int classes;
  unsigned line, column;
} wl_array_info;

/* How one kernel was analysed: on its device code (each instantiation
 * the file compiles, by its name there), or from its syntax, and why. */
typedef struct wl_kernel_record {
  char *kernel;
  unsigned line, column;
  const char *analysis;            /* "device" or "syntax" */
  char *instance;                  /* device: the function's name in device code */
  char *reason;                    /* syntax: why there was no device code for it */
} wl_kernel_record;

typedef struct wl_kernel_usage {   /* from --ptxas */
  char *kernel;
  int registers, local_bytes, spill_stores, spill_loads, shared_bytes;
} wl_kernel_usage;

/* Everything warplint learned about one input file. */
typedef struct wl_file_result {
  char *path;
  bool failed;                     /* did not parse: no findings, never fixed */
  wl_finding *findings;
  size_t finding_count, finding_cap;
  wl_array_info *arrays;
  size_t array_count, array_cap;
  char **errors;                   /* "file:line:col: error: ...": why the file was skipped */
  size_t error_count, error_cap;
  char **notes;                    /* "file:line:col: note: ...": parse errors outside the
                                      analysed kernels, kernels skipped */
  size_t note_count, note_cap;
  int kernels_analysed, kernels_skipped;
  wl_kernel_record *kernels;
  size_t kernel_count, kernel_cap;
  wl_kernel_usage *usage;
  size_t usage_count;
  /* Kernels and findings in the project headers the file includes, one
   * result per header (wl_flatten_results makes them results of their own). */
  struct wl_file_result *headers;
  size_t header_count, header_cap;
} wl_file_result;

/* A stand-in CUDA library header (advisor/shim/include), compiled in and
 * served to libclang ahead of the user's include paths. */
typedef struct wl_shim_header {
  const char *name;                /* "cublas_v2.h" */
  const char *text;
  size_t size;
} wl_shim_header;
extern const wl_shim_header wl_shim_headers[];
extern const size_t wl_shim_headers_count;

typedef struct wl_options {
  const char *arch;                /* "sm_90" */
  const char *shim_path;           /* where the compiled-in cuda_shim.h appears to libclang */
  const char *shim_text;
  size_t shim_len;
  const char *cuda_path;           /* parse with this CUDA toolkit's headers, or NULL: the stand-ins */
  const char *cccl_include;        /* the toolkit's include/cccl (CUDA 13), or NULL */
  bool cuda_path_explicit;         /* --cuda-path: a toolkit this libclang cannot parse is an error */
  bool syntax_only;                /* --model syntax: no device code, every kernel from its syntax */
  const json_value *profile;       /* may be NULL: every metric "not measured" */
  const char *profile_name;        /* file stem, e.g. "h100-sxm" */
  const char *profile_short;       /* gpu.short, e.g. "H100" */
} wl_options;

/* frontend.c: parses path with extra compiler args and fills result. */
void wl_analyze_file(void *cx_index, const char *path, const char *const *extra_args,
                     int extra_count, const wl_options *opt, wl_file_result *result);
void wl_result_free(wl_file_result *r);
/* Removes (and frees) the findings for which drop holds, keeping the order. */
void wl_drop_findings(wl_file_result *r, bool (*drop)(const wl_finding *f));
/* The results of the headers the files included, appended after the files'
 * own (one per header path, a finding several files found kept once);
 * *results grows, the new count is returned. */
size_t wl_flatten_results(wl_file_result **results, size_t count);
/* The parse alone, as wl_analyze_file does it (for the benchmark). */
bool wl_parse_only(void *cx_index, const char *path, const wl_options *opt);
void wl_result_error(wl_file_result *r, const char *fmt, ...);
void wl_result_note(wl_file_result *r, const char *fmt, ...);
/* The CUDA toolkit to parse with: explicit (--cuda-path), else CUDA_PATH,
 * CUDAToolkit_ROOT, the folder above nvcc on PATH, /usr/local/cuda (as CMake
 * looks). NULL when none has include/cuda_runtime.h. */
char *wl_find_cuda_toolkit(void);


/* profile.c */
const json_value *wl_catalog(void);                 /* embedded rules/catalog.json */
const json_value *wl_rule(const char *id);          /* any case (g_3 is G_3); NULL if unknown */
bool wl_rule_is_checked(const char *id);
json_value *wl_load_profile(const char *name_or_file, const char *arch, char *name_out,
                            size_t name_size, char *err, size_t err_size);
/* warplint's data, found from the executable's location (<bin>/../share/warplint):
 * profiles/ (WARPLINT_DATA_DIR overrides) and rules/examples/. */
const char *wl_share_dir(void);
const char *wl_data_dir(void);
void wl_metric_lookup(const wl_options *opt, const char *key, wl_metric *m);
/* "8-way 250 cycles" style text for one metric, or "not measured in P". */
void wl_metric_text(const wl_options *opt, const wl_metric *m, const char *label,
                    char *out, size_t size);

/* report.c */
/* Ends with the summary line; draw: each finding's warp under it (--draw). */
void wl_print_text(const wl_file_result *results, size_t count, bool draw);
void wl_print_summary(FILE *out, const wl_file_result *results, size_t count);
void wl_print_json(const wl_file_result *results, size_t count, const wl_options *opt);
void wl_print_sarif(const wl_file_result *results, size_t count);
void wl_print_arrays_table(const wl_file_result *results, size_t count);

/* draw.c: where the active lanes of one warp land, for the drawings (the
 * text of check --draw and explain, the SVG of the HTML report). Offsets
 * are relative to the lowest active lane, taken as aligned: its word is in
 * bank 0, it starts a 32-byte sector and a 128-byte line. Shared: the 32
 * banks; global (texture): the 32-byte sectors touched; local: the same,
 * after the lane interleaving of local memory; constant: the 4-byte words. */
#define WL_MAP_WIDEST 32                /* bytes per lane drawn at the most */
#define WL_MAP_TARGETS 96
typedef struct wl_warp_map {
  const char *target_name;             /* "bank", "sector", "word" */
  int active, width;
  int first[32], span[32];             /* per active lane: its first target, how many it covers */
  long long target_id[WL_MAP_TARGETS]; /* bank number, sector or word, ascending */
  int target_load[WL_MAP_TARGETS];     /* shared: distinct words in the bank (worst phase); else lanes */
  int target_count;
  int phase_lanes;                     /* lanes served together (shared: 32 / words per lane) */
  int cost, best;                      /* conflict degree, sectors or words; the same when ideal */
  int lines;                           /* 128-byte lines touched (global, local) */
  int level[32];                       /* per lane, 0 (ideal) to 4 (9 times the ideal or more) */
} wl_warp_map;
bool wl_warp_map_of(const wl_warp *w, const char *space, wl_warp_map *m);
int wl_warp_level(const wl_warp_map *m, int target);     /* the colour class of one target */
void wl_warp_summary(const wl_warp_map *m, const char *space, char *out, size_t size);
/* Why a finding has no drawing ("the lanes' offsets are not known..."). */
const char *wl_warp_missing(const wl_finding *f, bool fixed);
void wl_draw_finding(FILE *out, const wl_finding *f);    /* both warps, in text */
/* The warp after the fix and the space to draw it in (C_3: the same lanes
 * in global memory), or NULL; the profile key that prices it when it is not
 * one of the finding's metrics (C_3: warp.global.distinct_N). */
const wl_warp *wl_fixed_warp(const wl_finding *f, const char **space);
bool wl_fixed_metric(const wl_finding *f, char *key, size_t size);
/* An example drawing (w->example) whose lanes are a line apart or more. */
bool wl_example_scales(const wl_warp *w);
/* explain: the rule's finding on its bad example, drawn, and the good
 * example's verdict with the bad warp after the fix. */
void wl_draw_rule_examples(FILE *out, const char *rule, const char *bad_path, const char *good_path,
                           const wl_options *opt);

/* report_html.c: the self-contained HTML page, to path (through a temporary
 * file and a rename) or to stdout when path is NULL; -1 when it cannot be
 * written (one line on stderr, no file left behind). */
int wl_print_html(const wl_file_result *results, size_t count, const wl_options *opt, const char *path);

/* fix.c: applies a file's fix-its in place (temp file + rename); the
 * number of edits made, or -1 when the file cannot be read or written. */
int wl_apply_fixes(const wl_file_result *r, bool backup);

/* ptxas.c: registers/local/spills per kernel via nvcc, when nvcc exists. */
void wl_ptxas(const char *path, const char *const *args, int arg_count, const wl_options *opt, wl_file_result *r);
/* Without --ptxas: drops the L_2 and L_3 findings of kernels nvcc keeps
 * out of local memory (asked only where there are such findings). */
void wl_local_verdicts(const char *path, const char *const *args, int arg_count, const wl_options *opt,
                       wl_file_result *r);

/* Small helpers. */
char *wl_strdup(const char *s);
char *wl_format(const char *fmt, ...);
bool wl_ends_with(const char *s, const char *suffix);

#endif
