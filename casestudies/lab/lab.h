/* The lab: exercises with automatic feedback (issue 12). Each exercise is a
 * problem (inputs, a float64 or exact reference, a check) written once in
 * host C, and kernel files that solve it: the starting kernel, the
 * teacher's solution(s), and the student's work copy. `lab check N` runs
 * warplint on the student's file, compiles it into a module and, on a GPU,
 * checks and times it against the starting kernel and the solution in the
 * same run. */
#ifndef WARPMEM_LAB_H
#define WARPMEM_LAB_H

#include <stdbool.h>
#include <stddef.h>

#include "stats.h"

/* An exercise's entry point, as a module exports it (lab_kernels.h). Its
 * real type takes the exercise's argument struct; each problem casts it
 * back to that type (void (*)(void) is C's generic function pointer). */
typedef void (*lab_entry)(void);

/* One exercise's problem, implemented in problems/: inputs, a reference,
 * a check. The sizes are fixed per problem; `create` allocates host and
 * device buffers, `fill` draws fresh random inputs from *seed and computes
 * the reference. problems/problem.h has the rest (description, floor in
 * bytes, poisoning the output). */
typedef struct lab_problem lab_problem;
typedef struct lab_problem_ops {
  lab_problem *(*create)(void);
  void (*fill)(lab_problem *p, unsigned *seed);
  /* Calls the entry point with this problem's arguments (no sync). */
  void (*call)(lab_problem *p, lab_entry entry);
  /* Copies the output back and compares it with the reference: writes the
   * error measure to *error and a one-line description to detail. */
  bool (*verify)(lab_problem *p, double *error, char *detail, size_t detail_size);
  void (*destroy)(lab_problem *p);
} lab_problem_ops;

typedef struct lab_exercise {
  int number;
  const char *stem;          /* file name without .cu: "1_transpose" */
  const char *title;
  const char *rules;         /* the guideline(s) taught, space-separated */
  const char *entry_symbol;  /* "lab_transpose_run" */
  /* A second teacher's solution measured beside the first ("5_spmv_texture"),
   * or NULL. */
  const char *second_solution;
  /* The 2017 guideline may no longer pay: the lab then says so, with the
   * numbers, instead of calling a solution that is not faster a failure. */
  bool old_guideline;
  const lab_problem_ops *ops;
} lab_exercise;

extern const lab_exercise lab_exercises[];
extern const int lab_exercise_count;
const lab_exercise *lab_find_exercise(int number);

/* feedback.c: warplint on a file. */
typedef struct lab_finding {
  char rule[8];
  char severity[16];   /* "warning", or "note" where the profile says the fix does not pay */
  int line;
  char array[64];
  char message[512];
  char note[512];      /* warplint's first note: usually the fix */
} lab_finding;
typedef struct lab_findings {
  lab_finding *items;
  int count;
} lab_findings;
/* Runs `warplint check --format=json FILE -- -ILAB_DIR`. Returns false (with
 * a message in err) when warplint could not run or could not parse FILE. */
bool lab_run_warplint(const char *warplint, const char *file, const char *lab_dir,
                      lab_findings *out, char *err, size_t err_size);
void lab_findings_free(lab_findings *f);

/* module.c: runs a program with stdout and stderr into the file OUTPUT;
 * returns its exit status, -1 when it could not run or was killed. */
int lab_run_program(char *const argv[], const char *output);

/* module.c: a kernel file compiled into a shared object and loaded. */
typedef struct lab_module {
  void *handle;
  lab_entry entry;
} lab_module;
/* Compiles SOURCE with nvcc for sm_ARCH into OUT_SO, with ptxas's resource
 * report written to REPORT. Returns false when nvcc failed (its output is
 * in REPORT). */
bool lab_compile(const char *nvcc, const char *source, const char *lab_dir, int arch,
                 const char *out_so, const char *report);
/* Loads PATH and finds SYMBOL; false with a message in err otherwise. */
bool lab_module_open(const char *path, const char *symbol, lab_module *m, char *err,
                     size_t err_size);
void lab_module_close(lab_module *m);

/* measure.c: checking and timing the versions of one exercise on the GPU. */
typedef enum lab_speed_verdict { LAB_SLOWER = -1, LAB_SAME = 0, LAB_FASTER = 1 } lab_speed_verdict;
typedef struct lab_version {
  const char *label;   /* "start", "yours", "solution", ... */
  const char *file;
  lab_module module;
  bool correct;
  double error;
  char detail[256];
  stats_summary ms;
  double speedup;      /* start's median over this median */
  lab_speed_verdict verdict;
} lab_version;
/* Checks every version once on poisoned outputs, then times them in
 * interleaved rounds (rounds x repeats samples each, CUDA events, one
 * untimed call first). versions[0] must be the starting kernel. */
void lab_measure(const lab_exercise *ex, lab_problem *problem, lab_version *versions, int count,
                 int rounds, int repeats);
/* Faster: a speed-up of at least 1.05 and a median below the fastest run
 * of the starting kernel; slower: the mirror image; else the same. */
lab_speed_verdict lab_compare(const stats_summary *start, const stats_summary *version);

#endif
