/* The analysis of one CUDA file, as the advisor's source files share it.
 * The data flow, one file per stage:
 *
 *   frontend.c   parse the file (libclang), find launches and kernels
 *   kernel.c     one kernel: its launch shapes and instantiations, the walk,
 *                the checks, the array inventory
 *   walk.c       the walk over a kernel body: statements in order, with the
 *                value of every local variable at each point (an environment),
 *                loops, branches and the lanes they leave active, helpers
 *   index.c      integer expressions as index polynomials (affine.h) and
 *                addresses (array + byte offset) of pointers and accesses
 *   lanes.c      the warp model: the byte address each of a warp's 32 lanes
 *                touches, and which lanes a condition leaves active
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

/* ATOMK_LOOP: what a loop-carried variable has gained since the loop began
 * (uniform across the warp). ATOMK_UNIFORM: any other value the warp
 * shares that warplint cannot know (a field of a struct parameter, a value
 * loaded from a warp-uniform address, two branches' different uniform
 * parts). */
enum { ATOMK_BUILTIN, ATOMK_PARAM, ATOMK_LOOP, ATOMK_TEMPLATE, ATOMK_UNIFORM, ATOMK_QUOTIENT };

/* M_ADDR: the expression's address is taken (&tile[i][j]): not an access.
 * M_NOESCAPE: a pointer read here (compared, tested) does not escape. */
enum { M_WRITE = 1, M_READ = 2, M_LDG = 4, M_ATOMIC = 8, M_ADDR = 16, M_NOESCAPE = 32 };

#define MAX_DIMS 4
#define MAX_LOOPS 16
#define MAX_INLINE 3
#define MAX_WARPS 32             /* 1024 threads */

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
  bool const_trip;               /* a for loop's counter with constant bounds: unrollable */
  bool unrolls;                  /* a device-code loop nvcc unrolls whole: a few constant turns, or bounds
                                    that only such loops' counters set (a triangle's inner loop) */
  bool unit_step;                /* i++, i--, i += 1, i -= 1 */
  long long trips;               /* iterations when constant, else 0 */
  bool quotient;                 /* the result of /, %, >> or & on values warplint cannot know: it may
                                    be 0 or 1, so no stride is claimed from it */
  bool per_block;                /* a value loaded from shared memory or at a block-dependent address:
                                    the same across a warp, not across the grid */
  bool maybe_unit;               /* a parameter that may well be 1 (a tensor's innermost stride, sx0):
                                    never compared with an index, named as strides are */
  bool flag;                     /* a parameter named as a 0-or-1 flag (scale_is_vector): 1 under the probe */
  bool boolean;                  /* a comparison widened to 0 or 1 (dir == 0 as an int), ir.c */
  int selector;                  /* 1 + the smallest constant a parameter is compared with where equality
                                    is its only comparison (a direction, a mode: dir == 0): its value under
                                    S_5's probe, where a size's large value would take no case; else 0 */
  int quotient_entry;            /* ATOMK_QUOTIENT: its entry in kernel_ctx.quotients */
  bool from_threads;             /* a thread index divided by a run-time size (threadIdx.x / coop):
                                    taken as one value per warp, but the warps of a block differ */
  bool loop_carried;             /* ATOMK_UNIFORM: a value a loop changes each turn in a way no counter
                                    carries, or loads each turn from an address that moves (the next
                                    reference box of an NMS while loop) */
  bool loaded;                   /* ATOMK_UNIFORM: a value loaded from memory (an index read from a
                                    list), not computed */
  bool lane_start;               /* ATOMK_LOOP: a counter that starts at the thread's own place (for (n =
                                    start + threadIdx.x; ...; n += step)): threads striding through
                                    one range together, step the number of them, ir.c */
} atom_info;

/* ATOMK_QUOTIENT: a polynomial of the thread indices divided by a constant,
 * as device code splits a thread index into a warp and a lane
 * (threadIdx.x / 32 is this atom; threadIdx.x % 32 is threadIdx.x - 32
 * times it). Evaluated thread by thread; warp_uniform when every warp of
 * the modelled block has one value (a warp's number, not a half-warp's). */
typedef struct thread_quotient {
  poly of;                       /* thread indices and constants only, never negative */
  long long divisor;
  bool warp_uniform;
  int atom;                      /* its atom */
} thread_quotient;

/* The value a local variable (or a bound helper parameter) holds at the
 * current point of the walk. An integer is a polynomial; a pointer is an
 * address: the array it points into and a byte offset. */
typedef struct var_state {
  poly value;                    /* integers: unknown when not followed */
  CXCursor expr;                 /* the expression last assigned (lanes.c evaluates it lane by
                                    lane where value is no polynomial), or a null cursor */
  bool unroll_known;             /* a constant once constant-trip loops are unrolled */
  int array;                     /* pointers: the array pointed into, -1 when not known */
  poly offset;                   /* pointers: byte offset into it */
} var_state;

typedef struct var_info {
  CXCursor decl;
  bool pointer;
} var_info;

typedef struct array_info {
  CXCursor decl;
  char *name, *elem_type;
  int space;
  long long elem_size;           /* bytes; for a template T with no instantiation, 4 assumed */
  bool size_assumed;
  long long ext[MAX_DIMS], elements;
  int ndim;                      /* may exceed MAX_DIMS: then the S_1 padding is not modelled */
  bool is_param, param_const, param_restrict;
  bool written, read, escaped, atomic, swapped, compared, reusable;
  unsigned compare_line, compare_column;  /* first w[i] > w[j] */
  unsigned line, column;
  char patterns[160];
} array_info;

typedef enum lane_kind { LANE_UNIFORM, LANE_CONCRETE, LANE_SYMBOLIC, LANE_UNKNOWN } lane_kind;

/* Where the lanes of one warp land: byte offsets into the array. */
typedef struct lane_model {
  lane_kind kind;
  long long offset[32];          /* LANE_CONCRETE: byte offset of each lane */
  unsigned active;               /* the lanes that take part (a guard may leave some out) */
  int warp;                      /* the warp of the block modelled */
  poly stride;                   /* bytes between lanes: the coefficient of threadIdx.x */
  bool stride_const;
  long long stride_value;
  bool evaluated;                /* offsets evaluated lane by lane, not from the polynomial */
  bool probed;                   /* ... with run-time sizes given the probe's values: no stride to quote */
  bool first_turn;               /* ... on the first turn of the loops around the access */
  long long turn_value;          /* ... on the costliest turn tried of a loop scaling a value: */
  char turn_name[24];            /* its name and value there ("" where no turn was tried) */
} lane_model;

typedef struct access_info {
  int array;
  bool write, read, ldg;
  long long width;               /* bytes each lane reads or writes */
  bool size_assumed;             /* the element's type was unknown: width assumed */
  poly off;                      /* byte offset into the array */
  bool data_dependent;           /* unknown because it depends on loaded values */
  bool lane_walk;                /* ... as each lane's own start, loaded outside the loop, plus the loop's
                                    walk (data = keys + offsets[i]; data[j]): each lane walks its own span */
  bool unroll_known;             /* the index is a constant once loops are unrolled */
  lane_model lanes;
  lane_model padded;             /* shared 2-D arrays: the lanes with the last dimension padded by one */
  lane_model data_free;          /* global, lanes unknown through a per-lane value the kernel loads or counts
                                    (an atomic's result, a rank): the lanes with that value 0 in every lane,
                                    or (data_scaled) the lane's number; LANE_UNKNOWN when not evaluable */
  bool data_scaled;              /* data_free is one address with the value 0: the index scales the value,
                                    and lanes whose values differ are apart */
  long long reuse;               /* active threads of a block that touch the same element, 0 unknown */
  bool reuse_restricted;         /* a guard left only some threads of the block active */
  bool neighbour_reuse;          /* a warp's request is another warp's request through another read of
                                    the array (a stencil's row above), or most of its own warp's request
                                    through another read shifted by a few elements (in[i - 1] beside
                                    in[i]: neighbour_shifted), or read by the lanes of another row of a
                                    block whose rows split warps (neighbour_rows), ir.c */
  bool neighbour_shifted, neighbour_rows;
  unsigned neighbour_line;       /* that other read's line */
  bool window_reuse;             /* on later turns of its loop lanes read what other threads of the block
                                    read on earlier ones (a sliding window whose index the polynomial does
                                    not carry, or the copies of one read the compiler unrolled), ir.c */
  int loops[MAX_LOOPS];          /* atoms of the enclosing loops (-1: no loop-carried counter) */
  int loop_count;
  unsigned line, column;
  CXFile file;                   /* where line and column are, when not the analysed file (a header) */
  unsigned call_line;            /* in a header's helper: the kernel's line that calls it, or 0 */
  const void *inlined_at;        /* the device code's call site it was inlined at (a debug location), or NULL:
                                    copies an unrolled loop made share it, two calls' copies do not */
  bool borrowed_line;            /* the device code kept no line for it: placed where its value is used or
                                    its array named (no sign of which loop's turn made it) */
  bool hoisted;                  /* a read in no loop of the device code whose place is in a loop of the
                                    source: the compiler moved it out, loop-invariant (ir.c) */
  bool moves_pointer;            /* the device code loads or stores a pointer (an element of a table of
                                    buffers) */
  long long base_align;          /* device model: bytes the array's start is aligned to */
  int region;                    /* kernel_ctx's region at the access */
  /* A field of an aligned 8- or 16-byte record of equal fields (float4's
   * x): the record's size, the field's offset in it, the record's offset.
   * When a few statements touch every field alike, nvcc makes one vector
   * access of them: merge_vector_fields keeps one access of the record's
   * width and marks the others merged (no check sees them). */
  long long vec_size, vec_field;
  poly vec_base;
  bool merged;
} access_info;

typedef struct file_ctx file_ctx;
typedef struct host_files host_files;

/* The values of one instantiation of a template kernel's parameters: sizes
 * of its type parameters, values of its non-type ones (-1 and unknown when
 * the instantiation does not fix them). */
typedef struct template_args {
  int count;
  CXCursor param[8];
  bool is_type[8], known[8];
  long long value[8];            /* type: sizeof; non-type: the value */
  char type_name[8][64];         /* type: its spelling ("float"), for the inventory */
} template_args;

typedef struct kernel_ctx {
  file_ctx *fc;
  const char *path;
  const wl_options *opt;
  wl_file_result *res;
  char *name;
  CXFile file;                   /* helpers are inlined only from the analysed file */
  atom_info *atoms; int atom_count, atom_cap;
  thread_quotient *quotients; int quotient_count, quotient_cap;
  var_info *vars; int var_count, var_cap;
  var_state *env; int env_cap;   /* env[i]: the current state of vars[i] */
  array_info *arrays; int array_count, array_cap;
  access_info *accesses; int access_count, access_cap;
  int loop_stack[MAX_LOOPS]; int loop_depth;
  int region;                    /* which straight-line stretch the walk is in: new at every branch */
  CXCursor call_stack[MAX_INLINE]; int call_depth;
  const template_args *targs;    /* the instantiation analysed, or NULL */
  /* The block modelled: the launch's shape, or the documented default
   * (32 x 2 x 1 when threadIdx.y appears...): a warp is then 32 consecutive
   * threadIdx.x. */
  long long block[3]; bool block_known;
  int warps;                     /* warps of the modelled block */
  bool uses_dim[3];              /* threadIdx.x / .y / .z appear in the kernel */
  unsigned active[MAX_WARPS];    /* per warp: the lanes active at this point of the walk */
  int pad_array;                 /* index.c: this array's last dimension padded by one (-1: none) */
  bool params_registered;        /* the kernel's own pointer parameters are arrays; a helper's
                                    parameter is one only through the argument bound to it */
  int probe_loop;                /* lanes.c: this loop atom moved by probe_step (-1: none) */
  long long probe_step;
  long long probe_block;         /* lanes.c: blockIdx under the probe (0: the first block) */
  long long probe_uniform;       /* lanes.c: when not 0, uniform unknowns take this (large, odd) value
                                    plus a step per atom, so that lanes scaled by a row size are
                                    evaluated as rows apart (global memory only: sectors) */
  long long probe_spread;        /* ... plus this times apart_steps of the atom's number (0: 8 times the
                                    number): values far apart where two unknowns must not meet by chance
                                    (ir.c's S_5 requests and windows) */
} kernel_ctx;

/* How many probe_spread steps unknown number i stands apart under S_5's
 * probe: not in proportion to i, so that three unknowns (three strides
 * of a struct) never lie in arithmetic progression, where a window's
 * turn and two lanes' strides would meet by chance. */
static inline long long apart_steps(long long i) { return 1 + i * i % 61; }

/* Launch sites found in the file: kernel (or its template) -> block shape
 * and template arguments. */
typedef struct launch_info {
  char *usr;                     /* the kernel's, or its template's */
  char *device_name;             /* the launched function's name in device code (mangled) */
  CXCursor kernel;               /* the launched function (a template's specialization) */
  long long block[3];
  bool known;
  template_args targs;
  CXCursor callee;               /* the launched name at the launch */
  CXCursor config;               /* its <<<...>>>, where warplint reports on the block (S_4) */
  bool check_bounds;             /* a block not known at the launch, in a file checked: S_4 from the
                                    kernel's own bound (its __launch_bounds__ in the device code) */
} launch_info;

/* An error diagnostic of the parse, where it is in the analysed file. */
typedef struct parse_error {
  bool in_file;                  /* false: in a header */
  bool benign;                   /* clang's rule, not nvcc's: the kernel around it is analysed */
  unsigned offset, line, column;
  char *text;                    /* clang's message */
} parse_error;

typedef struct ast_index ast_index;
typedef struct device_code device_code;
typedef struct ir_kernel_table ir_kernel_table;

struct file_ctx {
  const char *path;
  const wl_options *opt;
  wl_file_result *res;
  CXFile file;
  CXTranslationUnit tu;
  const device_code *device;     /* the file's device code, or NULL (why: device_why) */
  char device_why[512];
  ast_index *index;              /* names.c: the user's expressions by place, built on first use */
  /* The device side's syntax tree, for code the host side's preprocessor
   * skipped (#if __CUDA_ARCH__ >= 800): parsed on first need (names.c). */
  void *cx_index;
  const char *const *extra_args; int extra_count;
  CXTranslationUnit device_tu;
  ast_index *device_index;
  bool device_index_tried;
  ir_kernel_table *kernel_table; /* ir.c: the device code's kernels by place, built on first use */
  launch_info *launches; int launch_count, launch_cap;
  parse_error *errors; int error_count, error_cap;
  bool *error_inside;            /* per error: it lies in a skipped kernel */
  host_files *own_files;         /* parsed through a precompiled header: the files read besides it, else NULL */
};

/* The compiler arguments that come before the user's (-I, -D), and the
 * in-memory headers they name (virtual paths under /__warplint__), for
 * libclang's host-side parse and clang's device-side compile alike. */
#define CUDA_SETUP_ARGS 40
#define CUDA_SETUP_FILES 256
typedef struct cuda_setup {
  const char *args[CUDA_SETUP_ARGS];
  int arg_count;
  int prefix_count;              /* args[0..prefix_count): up to the last forced -include */
  struct CXUnsavedFile files[CUDA_SETUP_FILES];
  unsigned file_count;
  char names[CUDA_SETUP_FILES][96];
  char arch_arg[64], cuda_path_arg[1024], cuda_include_arg[1024], toolkit_include_args[4][96];
} cuda_setup;
void cuda_setup_init(cuda_setup *s, const wl_options *opt, bool device);

/* ---- host_pch.c: the forced includes precompiled for libclang's parse ---- */
#define HOST_PCH_EXTRA_ARGS 130           /* the user's arguments a parse through one may have */
/* The arguments of a parse of a file through the precompiled forced
 * includes of s and the user's extra, into args (room for CUDA_SETUP_ARGS +
 * HOST_PCH_EXTRA_ARGS), its path in pch; the header is built when missing.
 * 0 when there is none to use (no cache, headers that do not parse, an
 * argument it cannot be made with): the file is then parsed in full. */
int host_pch_args(CXIndex index, const cuda_setup *s, const char *const *extra, int extra_count,
                  const char **args, char *pch, size_t pch_size);
/* Whether the parse of path through pch failed where a full parse may
 * not; a header clang rejects is removed (the next parse makes it again). */
bool host_pch_rejected(CXTranslationUnit tu, enum CXErrorCode rc, const char *path, const char *pch);
/* The files a parse through a precompiled header read itself (the parsed
 * file and what it includes), not those the header holds; whether a
 * top-level cursor lies in one of them. */
host_files *host_pch_files(CXTranslationUnit tu);
bool host_pch_own(const host_files *files, CXCursor c);
void host_pch_files_free(host_files *files);

/* The first parse error inside c's extent in the analysed file, or NULL. */
const parse_error *error_within(const file_ctx *fc, CXCursor c);
/* Whether c is a kernel launch (k<<<grid, block>>>(...)): its children,
 * the kernel and the configuration call, in *l. */
typedef struct child_list child_list;
bool launch_syntax(CXCursor c, child_list *l);

/* ---- cx.c: libclang helpers ---- */
struct child_list { CXCursor c[8]; int n; };
char *cx_take(CXString s);
bool integer_literal(const char *text, long long *v);   /* 256, 0x100, 256u: its value */
char *source_text(CXCursor c);                   /* the expression as written (at most 60 bytes) */
void visit_unit(CXTranslationUnit tu, CXCursorVisitor visitor, CXClientData data);
child_list children(CXCursor c);
CXCursor strip(CXCursor c);                      /* through casts and parentheses */
void location_of(CXCursor c, unsigned *line, unsigned *column);
bool in_file(CXCursor c, CXFile file);
bool child_of_kind(CXCursor c, enum CXCursorKind kind, CXCursor *out);
bool has_attr(CXCursor c, enum CXCursorKind attr);
bool eval_int(CXCursor c, long long *v);
bool const_value(CXCursor c, long long *v);      /* a compile-time integer */
bool compile_time(CXCursor c);                   /* constants and template parameters */
long long type_size(CXType t);                   /* bytes, or -1 (dependent, incomplete) */
bool is_pointer_type(CXType t);

/* ---- walk.c: the walk over a kernel body ---- */
int find_var(const kernel_ctx *k, CXCursor decl);
int add_atom(kernel_ctx *k, int kind, CXCursor decl, const char *name);
int find_array(const kernel_ctx *k, CXCursor decl);
int array_for_decl(kernel_ctx *k, CXCursor decl);
void walk_kernel(kernel_ctx *k, CXCursor fn, CXCursor body);

/* ---- index.c: index polynomials and addresses ---- */
typedef struct address {
  int array;                     /* -1: not an array warplint tracks */
  poly off;                      /* bytes from the array's start */
  long long width;               /* bytes of the type pointed to or accessed */
  bool size_assumed;
} address;
int member_builtin(CXCursor c);                  /* threadIdx.x -> ATOM_TX, or -1 */
bool template_value(const kernel_ctx *k, CXCursor param, long long *v);
void eval_poly(kernel_ctx *k, CXCursor c, poly *out, int depth);
bool eval_pointer(kernel_ctx *k, CXCursor c, address *out, int depth);
bool eval_ref(kernel_ctx *k, CXCursor c, address *out, int depth);
bool member_offset(CXCursor member, long long *bytes);
long long subscript_step(const kernel_ctx *k, int array, CXCursor subscript);
bool unroll_known(kernel_ctx *k, CXCursor c, int depth);
bool uses_loop_atom(const kernel_ctx *k, const poly *p);
/* Whether p changes with a loop's turns: a counter's atom, or a value a
 * loop carries or loads anew each turn without a counter (an NMS loop's
 * next reference box). */
bool moves_with_loop(const kernel_ctx *k, const poly *p);
bool uses_index_atoms(const kernel_ctx *k, const poly *p);
/* Whether a condition comes out alike for the lanes of a warp (every value
 * it compares known and lane-independent); *per_block set when it may
 * differ between blocks. */
bool uniform_condition(kernel_ctx *k, CXCursor c, bool *per_block, int depth);
void poly_text(const kernel_ctx *k, const poly *p, char *out, size_t size);

/* ---- lanes.c: the warp model ---- */
typedef struct lane_vals { long long v[32]; bool shifted; } lane_vals;
bool is_thread_atom(int a);
/* Whether atom a differs between the threads of a block (a thread index, a
 * quotient of them), and between the lanes of one warp. */
bool thread_atom(const kernel_ctx *k, int a);
bool lane_atom(const kernel_ctx *k, int a);
/* Atom a's value in the block's thread number `thread`: false for an atom
 * that is no thread atom. */
bool thread_atom_value(const kernel_ctx *k, int a, int thread, long long *v);
/* The terms of p with an atom that differs between a warp's lanes, and the rest. */
void lane_split(const kernel_ctx *k, const poly *p, poly *lane, poly *rest);
/* The terms of p with an atom that differs between a block's threads, and the rest. */
void thread_split(const kernel_ctx *k, const poly *p, poly *thread, poly *rest);
/* The atom of of / divisor (of: thread indices and constants, never
 * negative in the modelled block), made on first use; -1 when it cannot be. */
int quotient_atom(kernel_ctx *k, const poly *of, long long divisor);
bool lane_spread(const kernel_ctx *k, const poly *p, long long *spread);
void lane_coords(const kernel_ctx *k, int thread, long long *t);
bool lane_expr(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth);
bool lane_ref(kernel_ctx *k, CXCursor c, int warp, lane_vals *out, int depth);
/* Per warp, the lanes for which condition c can be true, and those for which
 * it can be false (a lane that cannot be told is in both); true when c is
 * the same for all lanes of each warp (known or not). */
bool lane_condition(kernel_ctx *k, CXCursor c, unsigned *when_true, unsigned *when_false);
void model_access(kernel_ctx *k, CXCursor ref, const access_info *x, lane_model *m);
/* The pieces the device-code model (ir.c) shares: lane values of a
 * polynomial, lane-value arithmetic, and a model from lanes evaluated one
 * warp at a time (eval returns false when it cannot). */
typedef bool (*lane_eval_fn)(void *ctx, int warp, lane_vals *out);
void model_evaluated(kernel_ctx *k, lane_eval_fn eval, void *ctx, long long width, int warp, lane_model *m);
void model_from_poly(const kernel_ctx *k, const poly *off, int warp, lane_model *m);
int first_active_warp(const kernel_ctx *k);
bool poly_lanes(const kernel_ctx *k, const poly *p, int warp, lane_vals *out);
void lanes_fill(lane_vals *o, long long value, bool shifted);
bool lanes_invariant(const lane_vals *a);
bool lanes_in_range(const lane_vals *a, long long low);
bool lanes_distinct(const lane_vals *v);
bool lanes_mul(const lane_vals *a, const lane_vals *b, lane_vals *out);
bool lanes_exact_op(enum CXBinaryOperatorKind op, const lane_vals *a, const lane_vals *b, lane_vals *out);
bool lanes_compare(enum CXBinaryOperatorKind op, const lane_vals *a, const lane_vals *b, lane_vals *out);
long long block_reuse(const kernel_ctx *k, const poly *off, bool *restricted);
int active_lanes(unsigned mask);
int count_distinct_active(const long long *v, unsigned active);
int sectors(const lane_model *m, long long width);
int ideal_sectors(const lane_model *m, long long width);
int conflict_degree(const lane_model *m, long long width, bool store, int *wavefronts, int *floor);
int pow2_at_least(int n);
bool lanes_strided(const kernel_ctx *k, const lane_model *m, long long width, int *got, int *ideal);  /* G_3 */
bool lanes_irregular(const lane_model *m);
bool lanes_consecutive(const lane_model *m, long long width);
bool lanes_contiguous(const lane_model *m, long long width);
bool lanes_in_runs(const lane_model *m, long long width);
/* The parameter that alone makes a symbolic lane stride (stride == width *
 * P, P maybe 1), or -1. */
int unit_stride_parameter(const kernel_ctx *k, const lane_model *m, long long width);

/* ---- findings.c ---- */
wl_finding *new_finding(kernel_ctx *k, const char *rule, const access_info *x, const array_info *a);
void add_metric(kernel_ctx *k, wl_finding *f, const char *key);
void add_note(wl_finding *f, unsigned line, unsigned column, char *text);
char *compare_text(kernel_ctx *k, wl_finding *f, const char *label_a, const char *label_b);
void set_message(wl_finding *f, char *head, char *evidence);
void judge_payoff(kernel_ctx *k, wl_finding *f);
void warp_picture(wl_warp *w, const lane_model *m, long long width);   /* for the drawings */
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
  void (*on_access)(kernel_ctx *k, access_info *x);
  void (*on_array)(kernel_ctx *k, array_info *a);
} wl_check;
extern const wl_check wl_checks[];
extern const size_t wl_check_count;

/* Each check file's entry points (check_<space>.c). */
void check_g3_strided(kernel_ctx *k, access_info *x);
void check_g2_narrow(kernel_ctx *k, access_info *x);
void check_t4_readonly_path(kernel_ctx *k, access_info *x);
void check_c2_uniform_loop_read(kernel_ctx *k, access_info *x);
void check_s5_reused_global(kernel_ctx *k, access_info *x);
void check_s1_bank_conflict(kernel_ctx *k, access_info *x);
void check_s6_private_staging(kernel_ctx *k, array_info *a);
void check_c1_constant_stride(kernel_ctx *k, access_info *x);
void check_c3_constant_divergent(kernel_ctx *k, access_info *x);
void check_l2_local_dynamic_index(kernel_ctx *k, access_info *x);
void check_l3_local_sort(kernel_ctx *k, access_info *x);
void check_l1_local_size(kernel_ctx *k, array_info *a);
/* S_4 is checked at each launch (frontend.c), not per access. */
/* branch_line: where a branch before the launch may set another shape (0: none) */
void check_s4_launch(file_ctx *fc, CXCursor callee, CXCursor config, const long long *block, unsigned branch_line,
                     bool bound);

/* ---- names.c: the AST's names for what the device code touches ---- */
/* The AST side of one kernel analysed on its device code. */
typedef struct ir_scope {
  file_ctx *fc;
  CXCursor kernel;               /* the launched specialization, or the kernel as written */
  CXCursor params[32];
  int param_count;
} ir_scope;
void ir_scope_init(ir_scope *s, file_ctx *fc, CXCursor kernel);
void ir_param_name(const ir_scope *s, int position, char *out, size_t size);
CXCursor ir_param_cursor(const ir_scope *s, int position);
/* Moves file:line:column to the first subscript of parameter decl written
 * at or after it, within a few lines; false (unmoved) where there is none. */
bool ir_read_of_after(const ir_scope *s, CXFile file, unsigned *line, unsigned *column, CXCursor decl);
/* A __shared__ / __constant__ / __device__ variable of that name (inside
 * the kernel first), or a null cursor. */
CXCursor ir_variable_named(const ir_scope *s, const char *name, int space);
/* mangled.c: the kernel's name inside an Itanium-mangled name (_Z6kernelPf,
 * _ZN2ns6kernelEPf: kernel), and the template arguments of a template
 * kernel's instance as its mangled device name gives them (the sizes of
 * builtin and class types, integral values), matched to tmpl's parameters. */
bool mangled_kernel_name(const char *mangled, char *out, size_t size);
void mangled_template_args(CXTranslationUnit tu, CXCursor tmpl, const char *mangled, template_args *t);

/* The array an access at file:line:column names: its declaration (a null
 * cursor when it is no variable, as for p.data), its name as written;
 * *line and *column move to the name's when it is on that line or a few
 * lines on (a store's place is its `=`, a copy's read may be on the next
 * line); *field: the access names a field of the element (a[i].x).
 * local: the access is to a variable of the function's own (an alloca). */
CXCursor ir_array_at(const ir_scope *s, CXFile file, unsigned *line, unsigned *column, bool local, char *name,
                     size_t size, bool *field);
/* The value an expression at file:line:column reads, as written (p.numAttr,
 * sizes[1], n), for naming a value the model knows only as loaded; false
 * when no short expression is there. */
bool ir_value_text_at(const ir_scope *s, CXFile file, unsigned line, unsigned column, char *out, size_t size);
/* The variable an update at file:line:column names (i in i += 4), or false. */
bool ir_name_at(const ir_scope *s, CXFile file, unsigned line, unsigned column, char *name, size_t size);
/* Whether an accessor (a getter, a proxy's operator=: a non-static method
 * of at most two statements that subscripts nothing; a free function whose
 * body is one such return, a load wrapper) is declared on that line;
 * access_line is the line in it of the access asked about. */
bool ir_accessor_at(const ir_scope *s, CXFile file, unsigned line, unsigned access_line);
bool ir_parameter_field_at(const ir_scope *s, CXFile file, unsigned line, unsigned column);
/* Where the kernel (as written, helpers aside) subscripts decl, when it
 * does so once in that direction: the place of an access the compiler kept
 * no line for (a loop of one turn folded away). */
bool ir_sole_access(const ir_scope *s, CXCursor decl, bool write, CXFile *file, unsigned *line, unsigned *column);
/* The counter of the innermost loop around file:line:column, or false. */
bool ir_loop_at(const ir_scope *s, CXFile file, unsigned line, unsigned column, char *name, size_t size);
/* Whether the body of a for, while or do statement of the source holds the place. */
bool ir_in_source_loop(const ir_scope *s, CXFile file, unsigned line, unsigned column);
/* The file of that path when it is the user's (parsed, not a system
 * header), else NULL. */
CXFile ir_user_file(const ir_scope *s, const char *path);
void ast_index_free(ast_index *x);
/* frontend.c: the file's device-side parse (__CUDA_ARCH__ defined), or NULL. */
CXTranslationUnit wl_parse_device_side(file_ctx *fc);
bool same_file(CXFile a, CXFile b);           /* by device and inode, whatever the path */
unsigned long long file_id(CXFile f);          /* the same for every path to one file; 0 for none */

/* ---- ir.c: the lane model on device code ---- */
void ir_analyze(kernel_ctx *k, const device_code *code, void *function, const ir_scope *scope);
/* The kernel functions of fc's device code defined where fn is (its
 * instantiations), with their names (malloc'd); how many. */
int ir_kernels_of(file_ctx *fc, CXCursor fn, void **functions, char **names, int max);
long long ir_max_threads(void *function);
void ir_kernel_table_free(ir_kernel_table *t);

/* ---- frontend.c ---- */
/* The result a finding in `file` goes to: the analysed file's, or one of
 * its headers' (made on first use). */
wl_file_result *result_for_file(file_ctx *fc, CXFile file);
void record_kernel(file_ctx *fc, CXCursor fn, const char *analysis, const char *instance, const char *reason);

/* ---- kernel.c ---- */
void analyze_kernel(file_ctx *fc, CXCursor fn, CXCursor body);

#endif
