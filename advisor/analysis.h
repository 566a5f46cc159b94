/* The analysis of one CUDA file, as the advisor's source files share it.
 * The data flow, one file per stage:
 *
 *   frontend.c   parse the file (libclang), find kernels and launches
 *   kernel.c     one kernel: its launch shape, the walk's results, the checks
 *   walk.c       the walk over a kernel body: arrays, accesses, loops, helpers
 *   index.c      subscripts as index polynomials (affine.h)
 *   lanes.c      the warp model: where the 32 lanes of a warp land
 *   check_*.c    the checks, one file per memory space (rule family),
 *                registered in checks.c
 *   findings.c   findings, the array inventory, NOLINT suppressions
 *   cx.c         small libclang helpers
 *
 * Where the model is unsure it records nothing (precision over recall). */
#ifndef WARPLINT_ANALYSIS_H
#define WARPLINT_ANALYSIS_H

#include <clang-c/Index.h>
#include <stdio.h>
#include <stdlib.h>

#include "affine.h"
#include "warplint.h"

enum space { SP_GLOBAL, SP_SHARED, SP_CONSTANT, SP_LOCAL, SP_TEXTURE, SP_COUNT };
extern const char *const wl_space_names[];

/* ATOMK_TEMPLATE: a non-type template parameter, constant in each instantiation. */
enum { ATOMK_BUILTIN, ATOMK_PARAM, ATOMK_LOOP, ATOMK_TEMPLATE };

/* M_ADDR: the subscript sits under a plain '&' (&tile[i][j]), so the access
 * width is whatever the pointer is cast to, not the element's. */
enum { M_WRITE = 1, M_READ = 2, M_LDG = 4, M_ATOMIC = 8, M_LOOP_INC = 16, M_ADDR = 32 };

#define MAX_DIMS 4
#define MAX_LOOPS 16
#define MAX_INLINE 3

#define GROW(ptr, count, cap)                                              \
  do {                                                                     \
    if ((count) == (cap)) {                                                \
      (cap) = (cap) ? 2 * (cap) : 16;                                      \
      void *grown_ = realloc((ptr), (size_t)(cap) * sizeof *(ptr));        \
      if (!grown_) { fprintf(stderr, "warplint: out of memory\n"); exit(2); } \
      (ptr) = grown_;                                                      \
    }                                                                      \
  } while (0)

typedef struct atom_info {
  int kind;
  CXCursor decl;
  char name[64];
  bool const_trip;               /* loop with constant bounds: unrollable */
  bool unit_step;                /* i++, i--, i += 1, i -= 1 */
  long long trips;               /* iterations when constant, else 0 */
} atom_info;

typedef struct var_info {
  CXCursor decl;
  int writes;                    /* stores outside the for-increment */
  int loop_atom;                 /* >= 0: a for-loop induction variable */
  bool evaluating;               /* guards against cycles */
} var_info;

typedef struct array_info {
  CXCursor decl;
  char *name, *elem_type;
  int space;
  long long elem_size, ext[MAX_DIMS], elements;
  int ndim;                      /* may exceed MAX_DIMS: then accesses are not modelled */
  bool is_param, param_const, param_restrict;
  bool written, read, escaped, atomic, swapped, compared, reusable;
  unsigned compare_line, compare_column;  /* first w[i] > w[j] */
  unsigned line, column;
  char patterns[160];
  char recommended[48];
} array_info;

typedef struct access_info {
  int array;
  CXCursor index[MAX_DIMS];
  int nidx;
  bool write, read, ldg;
  bool addr_taken;               /* under a plain '&': the element width may not be the access width */
  int loops[MAX_LOOPS];          /* atoms of the enclosing loops (-1: no induction variable) */
  int loop_count;
  unsigned line, column;
  poly off;                      /* flattened element index */
  bool flattened;                /* done already (inside an inlined helper) */
} access_info;

/* A parameter of an inlined __device__ helper, bound to the caller's array
 * or argument expression while the helper's body is walked and its
 * accesses flattened. */
typedef struct binding {
  CXCursor param;
  int array;                     /* >= 0: the caller's array */
  CXCursor arg;                  /* array < 0: the argument expression */
  bool active;
} binding;

typedef struct file_ctx file_ctx;

typedef struct kernel_ctx {
  const file_ctx *fc;
  const char *path;
  const wl_options *opt;
  wl_file_result *res;
  char *name;
  atom_info *atoms; int atom_count, atom_cap;
  var_info *vars; int var_count, var_cap;
  array_info *arrays; int array_count, array_cap;
  access_info *accesses; int access_count, access_cap;
  int loop_stack[MAX_LOOPS]; int loop_depth;
  int inc_var;                   /* var whose for-increment is being walked */
  CXFile file;                   /* the file being analysed: helpers are inlined only from it */
  binding *binds; int bind_count, bind_cap;
  CXCursor call_stack[MAX_INLINE]; int call_depth;
  long long block[3]; bool block_known;
  bool uses_dim[3];              /* threadIdx.y / .z appear in the kernel */
  int probe_loop;                /* lane_expr: this loop atom's variable moved by probe_step (-1: none) */
  long long probe_step;
} kernel_ctx;

/* Launch sites found in the file: kernel -> block shape. */
typedef struct launch_info {
  char *usr;
  long long block[3];
  bool known;
} launch_info;

/* An error diagnostic of the parse, where it is in the analysed file. */
typedef struct parse_error {
  bool in_file;                  /* false: in a header */
  unsigned offset, line, column;
  char *text;                    /* clang's message */
} parse_error;

struct file_ctx {
  const char *path;
  const wl_options *opt;
  wl_file_result *res;
  CXFile file;
  launch_info *launches; int launch_count, launch_cap;
  parse_error *errors; int error_count, error_cap;
  bool *error_inside;            /* per error: it lies in a skipped kernel */
};

/* The first parse error inside c's extent in the analysed file, or NULL. */
const parse_error *error_within(const file_ctx *fc, CXCursor c);

/* ---- cx.c: libclang helpers ---- */
typedef struct child_list { CXCursor c[8]; int n; } child_list;
char *cx_take(CXString s);
child_list children(CXCursor c);
CXCursor strip(CXCursor c);                      /* through casts and parentheses */
void location_of(CXCursor c, unsigned *line, unsigned *column);
bool in_file(CXCursor c, CXFile file);
bool child_of_kind(CXCursor c, enum CXCursorKind kind, CXCursor *out);
bool has_attr(CXCursor c, enum CXCursorKind attr);
bool eval_int(CXCursor c, long long *v);
bool const_value(CXCursor c, long long *v);      /* a compile-time integer */
bool compile_time(CXCursor c);                   /* constants and template parameters */

/* ---- walk.c: the walk over a kernel body ---- */
const binding *active_binding(const kernel_ctx *k, CXCursor decl);
int find_var(kernel_ctx *k, CXCursor decl);
int add_atom(kernel_ctx *k, int kind, CXCursor decl, const char *name);
int find_array(kernel_ctx *k, CXCursor decl);
int array_for_decl(kernel_ctx *k, CXCursor decl);
void walk(kernel_ctx *k, CXCursor c, int mode);

/* ---- index.c: index polynomials ---- */
int member_builtin(CXCursor c);                  /* threadIdx.x -> ATOM_TX, or -1 */
void eval_poly(kernel_ctx *k, CXCursor c, poly *out, int depth);
long long flatten_extent_product(const array_info *a, int from, long long last_pad);
void flatten(kernel_ctx *k, access_info *x, long long pad, poly *out);
bool uses_loop_atom(const kernel_ctx *k, const poly *p);
bool uses_index_atoms(const poly *p);
void poly_text(const kernel_ctx *k, const poly *p, char *out, size_t size);

/* ---- lanes.c: the warp model ---- */
typedef enum lane_kind { LANE_UNIFORM, LANE_CONCRETE, LANE_SYMBOLIC, LANE_UNKNOWN } lane_kind;

typedef struct lane_model {
  lane_kind kind;
  long long offset[32];          /* LANE_CONCRETE: element offset of each lane */
  poly stride;                   /* coefficient of threadIdx.x, in elements */
  bool stride_const;
  long long stride_value;
  bool evaluated;                /* offsets evaluated lane by lane, not from the polynomial */
} lane_model;

bool is_thread_atom(int a);
void model_access(kernel_ctx *k, const access_info *x, long long pad, const poly *off, lane_model *m);
int count_distinct(const long long *v, int n);
int sectors(const lane_model *m, long long elem_size);
int conflict_degree(const long long *offset, long long elem_size);
int pow2_at_least(int n);
bool lanes_strided(const lane_model *m, long long elem_size, int *got, int *ideal);  /* G_3 */
bool lanes_irregular(const lane_model *m);
bool lanes_consecutive(const lane_model *m);

/* ---- findings.c ---- */
wl_finding *new_finding(kernel_ctx *k, const char *rule, const access_info *x, const array_info *a);
void add_metric(kernel_ctx *k, wl_finding *f, const char *key);
void add_note(wl_finding *f, unsigned line, unsigned column, char *text);
char *compare_text(kernel_ctx *k, wl_finding *f, const char *label_a, const char *label_b);
void set_message(wl_finding *f, char *head, char *evidence);
void append_pattern(array_info *a, const char *text);
bool is_read_only(const array_info *a);
void classify(kernel_ctx *k, array_info *a, wl_file_result *r);
void apply_suppressions(wl_file_result *r, const char *text, size_t len);

/* ---- checks.c: the registered checks ---- */
/* A check sees every access to an array of its space (after the walk, with
 * the access's warp model), and/or every such array once at the end. */
typedef struct wl_check {
  const char *rule;
  int space;
  void (*on_access)(kernel_ctx *k, access_info *x, const lane_model *m);
  void (*on_array)(kernel_ctx *k, array_info *a);
} wl_check;
extern const wl_check wl_checks[];
extern const size_t wl_check_count;

/* Each check file's entry points (check_<space>.c). */
void check_g3_strided(kernel_ctx *k, access_info *x, const lane_model *m);
void check_g2_narrow(kernel_ctx *k, access_info *x, const lane_model *m);
void check_t4_readonly_path(kernel_ctx *k, access_info *x, const lane_model *m);
void check_c2_uniform_loop_read(kernel_ctx *k, access_info *x, const lane_model *m);
void check_s5_reused_global(kernel_ctx *k, access_info *x, const lane_model *m);
void check_s1_bank_conflict(kernel_ctx *k, access_info *x, const lane_model *m);
void check_s6_private_staging(kernel_ctx *k, array_info *a);
void check_c1_constant_stride(kernel_ctx *k, access_info *x, const lane_model *m);
void check_c3_constant_divergent(kernel_ctx *k, access_info *x, const lane_model *m);
void check_l2_local_dynamic_index(kernel_ctx *k, access_info *x, const lane_model *m);
void check_l3_local_sort(kernel_ctx *k, access_info *x, const lane_model *m);
void check_l1_local_size(kernel_ctx *k, array_info *a);
/* S_4 is checked at each launch (frontend.c), not per access. */
void check_s4_launch(const file_ctx *fc, CXCursor callee, const long long *block);

/* ---- kernel.c ---- */
void analyze_kernel(file_ctx *fc, CXCursor fn, CXCursor body);

#endif
