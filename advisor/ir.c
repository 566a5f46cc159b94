/* The lane model on device code: one kernel's LLVM IR, as clang emits it
 * for --arch at -O3 (device.c), turned into the same array accesses the
 * checks read (access_info, with a byte-offset polynomial and a warp model
 * per access).
 *
 * What the compiler emits is what the hardware runs: templates are
 * instantiated, helpers inlined, __CUDA_ARCH__ resolved, struct layouts
 * are byte offsets, vector widths are the ones chosen. So the model needs
 * few rules:
 *   - thread- and block-index reads (intrinsics, or the built-in variables'
 *     fields) are the lane and block atoms; kernel parameters, and values
 *     computed only from them and block indices, are uniform;
 *   - integers are polynomials over those atoms; an operation that is no
 *     polynomial gives a fresh uniform atom when its operands are uniform,
 *     else a lane-varying value evaluated lane by lane where possible;
 *   - a loop's counters are its header's phi recurrences: init + step * L
 *     with L the iteration (an atom of the loop);
 *   - a value loaded from a lane-varying address, or joined after a branch
 *     on a lane-varying condition, is lane-varying;
 *   - the lanes that reach a block follow its branch conditions, lane by
 *     lane where they can be told;
 *   - the memory space is the address's root: a kernel pointer parameter
 *     (global), a __shared__ / __constant__ / __device__ variable, a
 *     private array still in memory (local), or a pointer loaded from
 *     memory (global);
 *   - every access maps back to file:line:column through the debug
 *     locations, the innermost one in the user's code.
 * Names, declared types and the array inventory come from the AST (ast
 * cursors handed in by kernel.c). Where the model is unsure it records
 * nothing. */
#include "analysis.h"
#include "device.h"

#include <llvm-c/DebugInfo.h>
#include <limits.h>
#include <math.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Values are followed through the device code recursively, as deep as a
 * cipher's rounds chain them (bitcracker's SHA-256 and AES: 1,543 levels
 * of about 5 KB of stack each), on a thread whose stack holds this many;
 * where no such thread can be made, as deep as a default stack holds. */
#define IR_MAX_DEPTH 16384
#define IR_STACK_BYTES (256u << 20)
#define IR_SHALLOW_DEPTH 64
/* The value run-time sizes take where lanes are evaluated under the probe
 * (lanes.c adds 8 per atom): large, a multiple of 8, no power of two. */
#define PROBE_SIZE 4104
/* S_5's requests: the step between run-time unknowns under the probe,
 * one per probe, so that two unknowns a code's constant offset happens to
 * bridge under one probe (zigzag[2 * s] and zigzag[2 * s + 1] + 128) are
 * apart under the other */
#define PROBE_SPREAD(probe) ((probe) == PROBE_SIZE ? 8 : 520)
/* model_without_data: a per-lane value the kernel loads or counts taken as
 * 0 in every lane, or as the lane's number */
enum { PROBE_DATA_OFF, PROBE_DATA_ZERO, PROBE_DATA_LANE };
/* an under-aligned access of more pieces than this (a large struct copied
 * at once) is kept whole */
#define MAX_PIECES 16

/* ---- a map from IR values (pointers) to small integers ---- */

typedef struct ptr_map {
  const void **keys;
  int *values;
  size_t cap, count;
} ptr_map;

static size_t ptr_hash(const void *p, size_t cap) {
  unsigned long long x = (unsigned long long)(size_t)p;
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return (size_t)x & (cap - 1);
}

static int map_get(const ptr_map *m, const void *key) {
  if (!m->cap) return -1;
  for (size_t i = ptr_hash(key, m->cap);; i = (i + 1) & (m->cap - 1)) {
    if (m->keys[i] == key) return m->values[i];
    if (!m->keys[i]) return -1;
  }
}

static void map_put(ptr_map *m, const void *key, int value) {
  if (2 * (m->count + 1) > m->cap) {
    ptr_map grown = {.cap = m->cap ? 2 * m->cap : 256};
    grown.keys = calloc(grown.cap, sizeof *grown.keys);
    grown.values = calloc(grown.cap, sizeof *grown.values);
    if (!grown.keys || !grown.values) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
    for (size_t i = 0; i < m->cap; i++)
      if (m->keys[i]) map_put(&grown, m->keys[i], m->values[i]);
    free(m->keys);
    free(m->values);
    *m = grown;
  }
  size_t i = ptr_hash(key, m->cap);
  while (m->keys[i] && m->keys[i] != key) i = (i + 1) & (m->cap - 1);
  if (!m->keys[i]) m->count++;
  m->keys[i] = key;
  m->values[i] = value;
}

static void map_free(ptr_map *m) {
  free(m->keys);
  free(m->values);
  memset(m, 0, sizeof *m);
}

/* The most constant turns of a loop nvcc's unroller takes whole where
 * clang's left it rolled (a loop nest of a few turns each). */
#define UNROLLED_TRIPS 16

/* ---- the kernel's state ---- */

#define WARP_SLOTS 64            /* private variables' bytes whose sharing is remembered */

enum { BASE_ARG, BASE_GLOBAL, BASE_ALLOCA, BASE_LOADED, BASE_BYVAL, BASE_BUILTIN };

/* Where a pointer points: the root object of its address. */
typedef struct ir_base {
  int kind;
  LLVMValueRef value;            /* the argument, global, alloca or load */
  int arg;                       /* BASE_ARG, BASE_BYVAL: the parameter's position */
  int space;
  int array;                     /* kernel_ctx's array, -1 until an access names it, -2: none */
  int from;                      /* BASE_LOADED: the base it was loaded from, at offset `at` */
  poly at;
  int builtin;                   /* BASE_BUILTIN: ATOM_TX, ATOM_BX, ATOM_BDX or ATOM_GDX */
  bool library;                  /* BASE_GLOBAL: no file of the user's declares it */
  bool parameter_copy;           /* BASE_ALLOCA: a copy of a by-value kernel parameter, only read:
                                    what it holds is the same for the grid */
  bool joined_store;             /* one of the arrays a pointer chosen at run time stores to */
} ir_base;

/* What the model knows of one value: an integer as a polynomial (or
 * unknown, with why), a pointer as a base and a byte offset. */
typedef struct ir_value {
  poly p;
  int base;                      /* pointers: -1 unknown */
  bool pointer;
  bool evaluable;                /* unknown, but its lanes may be evaluated one by one */
  bool busy;                     /* being evaluated (a cycle through a phi) */
} ir_value;

typedef struct ir_block {
  LLVMBasicBlockRef bb;
  int *succ, nsucc, *pred, npred, pred_cap;
  int idom, rpo;                 /* immediate dominator; position in reverse post-order */
  int loop;                      /* innermost loop holding the block, -1 */
  unsigned active[MAX_WARPS];
} ir_block;

typedef struct ir_loop {
  int header, parent, depth;
  unsigned char *body;           /* per block: in the loop */
  int atom;                      /* the iteration atom of its first counter, -1 */
  bool divergent_exit;           /* lanes may leave it at different iterations */
} ir_loop;

typedef struct ir_kernel {
  kernel_ctx *k;
  const device_code *code;
  LLVMValueRef fn;
  const ir_scope *scope;
  ir_block *blocks;
  int block_count;
  ptr_map block_of;
  ir_loop *loops;
  int loop_count;
  ir_value **value_chunks;        /* VALUE_CHUNK values each: their addresses never move */
  int value_count, chunk_count, chunk_cap;
  ptr_map value_of;
  ir_base *bases;
  int base_count, base_cap;
  LLVMValueRef *addresses;       /* per access of k: its address in the device code */
  int address_cap;
  int depth;
  int first_turn;                /* 1 + the block of an access evaluated on the first turn of its loops, 0 */
  int turn_loop;                 /* 1 + a loop around that access evaluated on a later turn, 0 */
  int turn;                      /* ... that turn (0: the first) */
  bool any_arm;                  /* a join of lane-varying paths takes its first arm that evaluates */
  bool branching;                /* a branch's condition is evaluated: a join takes its first arm only
                                    where every arm can be evaluated (a constant beside a loaded value
                                    does not decide which side is taken) */
  bool apart_unknowns;           /* under the probe each uniform unknown takes a value of its own */
  bool per_warp_values;          /* ... and a value one per warp, or of no known reach, was used */
  int probe_data;                /* PROBE_DATA_*: what a per-lane loaded or counted value is taken as */
  LLVMValueRef probe_leaf;       /* ... that value: one per address, or the address is not evaluated */
  int max_depth;                 /* IR_MAX_DEPTH on the analysis's own stack, else IR_SHALLOW_DEPTH */
  LLVMValueRef turns_phi;        /* the scaled phi whose turns turns_reached holds (model_turns) */
  unsigned (*turns_reached)[MAX_WARPS]; /* ... per turn tried and block: row turn * block_count + block */
  struct warp_slot { LLVMValueRef alloca; long long at, width; bool shared; } slots[WARP_SLOTS];
  int slot_count;                /* warp_slot's answers so far */
} ir_kernel;

/* ---- the control-flow graph: dominators and loops ---- */

static void add_edge(ir_kernel *ik, int from, int to) {
  ir_block *b = &ik->blocks[to];
  GROW(b->pred, b->npred, b->pred_cap);
  b->pred[b->npred++] = from;
}

static int intersect(const ir_kernel *ik, int a, int b) {
  while (a != b) {
    while (ik->blocks[a].rpo > ik->blocks[b].rpo) a = ik->blocks[a].idom;
    while (ik->blocks[b].rpo > ik->blocks[a].rpo) b = ik->blocks[b].idom;
  }
  return a;
}

static bool dominates(const ir_kernel *ik, int a, int b) {
  while (b != a && b != 0 && ik->blocks[b].idom >= 0 && ik->blocks[b].idom != b) b = ik->blocks[b].idom;
  return a == b;
}

static void build_cfg(ir_kernel *ik) {
  int n = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(ik->fn); bb; bb = LLVMGetNextBasicBlock(bb)) n++;
  ik->blocks = calloc((size_t)n, sizeof *ik->blocks);
  if (!ik->blocks) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  ik->block_count = n;
  int i = 0;
  for (LLVMBasicBlockRef bb = LLVMGetFirstBasicBlock(ik->fn); bb; bb = LLVMGetNextBasicBlock(bb), i++) {
    ik->blocks[i].bb = bb;
    ik->blocks[i].idom = -1;
    ik->blocks[i].rpo = -1;
    ik->blocks[i].loop = -1;
    map_put(&ik->block_of, bb, i);
  }
  for (i = 0; i < n; i++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(ik->blocks[i].bb);
    unsigned ns = term ? LLVMGetNumSuccessors(term) : 0;
    ik->blocks[i].succ = calloc(ns + 1, sizeof(int));
    for (unsigned s = 0; s < ns; s++) {
      int to = map_get(&ik->block_of, LLVMGetSuccessor(term, s));
      ik->blocks[i].succ[ik->blocks[i].nsucc++] = to;
      add_edge(ik, i, to);
    }
  }
  /* reverse post-order by an explicit depth-first search */
  int *order = calloc((size_t)n, sizeof *order), *stack = calloc((size_t)n, sizeof *stack);
  int *next = calloc((size_t)n, sizeof *next);
  unsigned char *seen = calloc((size_t)n, 1);
  int top = 0, done = 0;
  stack[top++] = 0;
  seen[0] = 1;
  while (top) {
    int b = stack[top - 1];
    if (next[b] < ik->blocks[b].nsucc) {
      int s = ik->blocks[b].succ[next[b]++];
      if (!seen[s]) { seen[s] = 1; stack[top++] = s; }
    } else {
      order[done++] = b;
      top--;
    }
  }
  for (i = 0; i < done; i++) ik->blocks[order[done - 1 - i]].rpo = i;
  /* dominators (Cooper, Harvey and Kennedy's iteration over reverse post-order) */
  ik->blocks[0].idom = 0;
  for (bool changed = true; changed;) {
    changed = false;
    for (int r = done - 1; r >= 0; r--) {
      int b = order[r];
      if (b == 0) continue;
      int idom = -1;
      for (int p = 0; p < ik->blocks[b].npred; p++) {
        int q = ik->blocks[b].pred[p];
        if (ik->blocks[q].idom < 0) continue;
        idom = idom < 0 ? q : intersect(ik, q, idom);
      }
      if (idom >= 0 && ik->blocks[b].idom != idom) { ik->blocks[b].idom = idom; changed = true; }
    }
  }
  /* natural loops: a back edge u -> h where h dominates u */
  for (int u = 0; u < n; u++) {
    if (ik->blocks[u].rpo < 0) continue;
    for (int s = 0; s < ik->blocks[u].nsucc; s++) {
      int h = ik->blocks[u].succ[s];
      if (!dominates(ik, h, u)) continue;
      int li = -1;
      for (int l = 0; l < ik->loop_count; l++)
        if (ik->loops[l].header == h) li = l;
      if (li < 0) {
        ik->loops = realloc(ik->loops, (size_t)(ik->loop_count + 1) * sizeof *ik->loops);
        li = ik->loop_count++;
        ik->loops[li] = (ir_loop){.header = h, .parent = -1, .atom = -1, .body = calloc((size_t)n, 1)};
        ik->loops[li].body[h] = 1;
      }
      /* the blocks that reach u without passing h */
      top = 0;
      if (!ik->loops[li].body[u]) { ik->loops[li].body[u] = 1; stack[top++] = u; }
      while (top) {
        int b = stack[--top];
        for (int p = 0; p < ik->blocks[b].npred; p++) {
          int q = ik->blocks[b].pred[p];
          if (!ik->loops[li].body[q] && ik->blocks[q].rpo >= 0) { ik->loops[li].body[q] = 1; stack[top++] = q; }
        }
      }
    }
  }
  /* nesting: a loop's parent is the smallest other loop holding its header */
  for (int l = 0; l < ik->loop_count; l++) {
    int size_l = 0;
    for (int b = 0; b < n; b++) size_l += ik->loops[l].body[b];
    int best = -1, best_size = 0;
    for (int o = 0; o < ik->loop_count; o++) {
      if (o == l || !ik->loops[o].body[ik->loops[l].header]) continue;
      int size_o = 0;
      for (int b = 0; b < n; b++) size_o += ik->loops[o].body[b];
      if (size_o <= size_l && !(size_o == size_l && o > l)) continue;
      if (best < 0 || size_o < best_size) { best = o; best_size = size_o; }
    }
    ik->loops[l].parent = best;
  }
  for (int l = 0; l < ik->loop_count; l++) {
    int d = 0;
    for (int p = ik->loops[l].parent; p >= 0 && d < 64; p = ik->loops[p].parent) d++;
    ik->loops[l].depth = d;
  }
  for (int b = 0; b < n; b++)
    for (int l = 0; l < ik->loop_count; l++)
      if (ik->loops[l].body[b] && (ik->blocks[b].loop < 0 || ik->loops[l].depth > ik->loops[ik->blocks[b].loop].depth))
        ik->blocks[b].loop = l;
  free(order);
  free(stack);
  free(next);
  free(seen);
}

static int block_index(const ir_kernel *ik, LLVMValueRef inst) {
  return map_get(&ik->block_of, LLVMGetInstructionParent(inst));
}

/* ---- atoms and polynomials ---- */

static int new_atom(kernel_ctx *k, int kind, const char *name) {
  GROW(k->atoms, k->atom_count, k->atom_cap);
  atom_info *a = &k->atoms[k->atom_count];
  memset(a, 0, sizeof *a);
  a->kind = kind;
  a->decl = clang_getNullCursor();
  snprintf(a->name, sizeof a->name, "%s", name);
  return k->atom_count++;
}

/* Whether p is the same for every lane of a warp: known, with no thread
 * index, or unknown but not lane-varying. */
static bool uniform(const ir_kernel *ik, const poly *p) {
  if (p->unknown) return !p->lane_varying;
  for (int i = 0; i < p->count; i++)
    for (int a = 0; a < p->terms[i].degree; a++)
      if (lane_atom(ik->k, p->terms[i].atoms[a])) return false;
  return true;
}

/* Whether p may differ between blocks or warps (a block or thread index, or
 * a per-block atom): not the same for the grid. */
static bool per_block(const kernel_ctx *k, const poly *p) {
  if (p->unknown) return true;
  for (int i = 0; i < p->count; i++)
    for (int a = 0; a < p->terms[i].degree; a++) {
      int atom = p->terms[i].atoms[a];
      if ((atom >= ATOM_TX && atom <= ATOM_BZ) || (atom >= ATOM_FIRST_SYMBOL && k->atoms[atom].per_block))
        return true;
    }
  return false;
}

static bool uses_thread_atom(const kernel_ctx *k, const poly *p) {
  if (p->unknown) return false;
  for (int i = 0; i < p->count; i++)
    for (int a = 0; a < p->terms[i].degree; a++)
      if (thread_atom(k, p->terms[i].atoms[a])) return true;
  return false;
}

/* Whether p holds a value one per warp that the warps of a block need not
 * share (an atom loaded at a thread index's address). */
static bool from_threads_atom(const kernel_ctx *k, const poly *p) {
  for (int i = 0; !p->unknown && i < p->count; i++)
    for (int a = 0; a < p->terms[i].degree; a++)
      if (p->terms[i].atoms[a] >= ATOM_FIRST_SYMBOL && k->atoms[p->terms[i].atoms[a]].from_threads) return true;
  return false;
}

/* p depends on a thread index, directly or through a value that is one
 * per warp but not per block (from_threads): the warps of a block may
 * differ in it. */
static bool differs_between_warps(const kernel_ctx *k, const poly *p) {
  return uses_thread_atom(k, p) || from_threads_atom(k, p);
}

/* A parameter named as a 0-or-1 flag is (scale_is_vector, is_bias,
 * has_mask, use_scale): an index it multiplies (amax[row * scale_is_vector])
 * is one element for the warp or consecutive ones, never strided. */
static bool flag_name(const char *name) {
  static const char *const prefixes[] = {"is_", "has_", "use_", "enable_"};
  for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
    if (strncmp(name, prefixes[i], strlen(prefixes[i])) == 0) return true;
  size_t n = strlen(name);
  return strstr(name, "_is_") || (n > 5 && strcmp(name + n - 5, "_flag") == 0);
}

static void lane_varying(poly *p, bool data_dependent) {
  poly_unknown(p, data_dependent);
  p->lane_varying = true;
}

/* A warp-uniform value warplint cannot know, as an atom of its own. */
static void uniform_atom(ir_kernel *ik, const char *name, bool block, bool quotient, poly *out) {
  int a = new_atom(ik->k, ATOMK_UNIFORM, name);
  ik->k->atoms[a].per_block = block;
  ik->k->atoms[a].quotient = quotient;
  poly_atom(out, a);
}

/* ---- values ---- */

static const ir_value *value_of(ir_kernel *ik, LLVMValueRef v);

#define VALUE_CHUNK 1024

static ir_value *value_at(const ir_kernel *ik, int i) { return &ik->value_chunks[i / VALUE_CHUNK][i % VALUE_CHUNK]; }

/* v's entry in the table, made empty on first use. Entries never move, so
 * a value's address stays good while others are evaluated. */
static ir_value *slot(ir_kernel *ik, LLVMValueRef v) {
  int i = map_get(&ik->value_of, v);
  if (i >= 0) return value_at(ik, i);
  if (ik->value_count == ik->chunk_count * VALUE_CHUNK) {
    GROW(ik->value_chunks, ik->chunk_count, ik->chunk_cap);
    ik->value_chunks[ik->chunk_count] = malloc(VALUE_CHUNK * sizeof(ir_value));
    if (!ik->value_chunks[ik->chunk_count]) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
    ik->chunk_count++;
  }
  i = ik->value_count++;
  ir_value *r = value_at(ik, i);
  memset(r, 0, sizeof *r);
  r->base = -1;
  map_put(&ik->value_of, v, i);
  return r;
}

static const poly *int_of(ir_kernel *ik, LLVMValueRef v) { return &value_of(ik, v)->p; }

static long long type_bytes(const ir_kernel *ik, LLVMTypeRef t) {
  return (long long)LLVMStoreSizeOfType(ik->code->layout, t);
}

static bool is_pointer(LLVMValueRef v) { return LLVMGetTypeKind(LLVMTypeOf(v)) == LLVMPointerTypeKind; }

/* The name of a called function, or "". */
static const char *callee_name(LLVMValueRef call) {
  LLVMValueRef f = LLVMGetCalledValue(call);
  if (!f || !LLVMIsAFunction(f)) return "";
  size_t len;
  return LLVMGetValueName2(f, &len);
}

/* The identifier a mangled name begins with (_Z9atomicAddPff: atomicAdd)
 * or, with last, ends with (_ZZ6kernelPfE4tile: tile, _ZN2ns5tableE:
 * table); the name itself when it is not mangled. */
static void plain_name(const char *mangled, bool last, char *out, size_t size) {
  snprintf(out, size, "%s", mangled);
  if (strncmp(mangled, "_Z", 2) != 0) return;
  size_t end = strlen(mangled);
  if (last) {
    /* a discriminator (_0, __12) and the nested name's closing E */
    const char *u = strrchr(mangled, '_');
    if (u && u > mangled + 2 && u[1] && strspn(u + 1, "0123456789") == strlen(u + 1)) {
      end = (size_t)(u - mangled);
      while (end > 0 && mangled[end - 1] == '_') end--;
    }
    if (end > 0 && mangled[end - 1] == 'E') end--;
    /* the last <length><name> that ends there (an earlier digit may seem
     * to, as the 8 of _ZZ5rows8PfE4tile) */
    for (size_t i = end; i-- > 2;) {
      if (mangled[i] < '1' || mangled[i] > '9' || (mangled[i - 1] >= '0' && mangled[i - 1] <= '9')) continue;
      char *after;
      long len = strtol(mangled + i, &after, 10);
      if ((size_t)(after - mangled) + (size_t)len == end) {
        snprintf(out, size, "%.*s", (int)len, after);
        return;
      }
    }
    return;
  }
  const char *p = mangled + 2;
  while (*p == 'N' || *p == 'L') p++;
  char *after;
  long len = strtol(p, &after, 10);
  if (len > 0 && (long)strlen(after) >= len) snprintf(out, size, "%.*s", (int)len, after);
}

static int builtin_atom_of(const char *name) {
  static const char *const names[] = {"tid.x", "tid.y", "tid.z", "ctaid.x", "ctaid.y", "ctaid.z",
                                      "ntid.x", "ntid.y", "ntid.z", "nctaid.x", "nctaid.y", "nctaid.z"};
  const char *p = strstr(name, "llvm.nvvm.read.ptx.sreg.");
  if (!p) return -1;
  p += strlen("llvm.nvvm.read.ptx.sreg.");
  for (int i = 0; i < 12; i++)
    if (strcmp(p, names[i]) == 0) return i;
  return -1;
}

static int new_base(ir_kernel *ik, int kind, LLVMValueRef v, int space) {
  for (int i = 0; i < ik->base_count; i++)
    if (ik->bases[i].value == v && ik->bases[i].kind == kind) return i;
  GROW(ik->bases, ik->base_count, ik->base_cap);
  ir_base *b = &ik->bases[ik->base_count];
  memset(b, 0, sizeof *b);
  b->kind = kind;
  b->value = v;
  b->space = space;
  b->array = -1;
  b->from = -1;
  return ik->base_count++;
}

/* The built-in variables as the stand-ins declare them (globals named
 * threadIdx, blockIdx, blockDim, gridDim). */
static int builtin_global(LLVMValueRef g) {
  size_t len;
  const char *name = LLVMGetValueName2(g, &len);
  static const char *const names[] = {"threadIdx", "blockIdx", "blockDim", "gridDim"};
  for (int i = 0; i < 4; i++)
    if (strcmp(name, names[i]) == 0) return 3 * i;
  return -1;
}

/* The user's declaration of global variable g in that space, or a null
 * cursor. */
static CXCursor global_decl(ir_kernel *ik, LLVMValueRef g, int space) {
  char name[128];
  size_t len;
  plain_name(LLVMGetValueName2(g, &len), true, name, sizeof name);
  return ir_variable_named(ik->scope, name, space);
}

/* The root of a global variable's address: its space from the address
 * space it is declared in (3 shared, 4 constant, else global). clang puts
 * a __device__ const table in the constant space; nvcc keeps it global
 * (ld.global.nc), as does the user's declaration: global, then. A
 * variable no file of the user's declares, in any space (curand's
 * precalc_xorwow_matrix, read by curand_init; the math library's
 * __cudart_i2opi_f, read by sinf's slow path), is a library's: its
 * placement is not the user's to change. */
static int global_base(ir_kernel *ik, LLVMValueRef g) {
  int builtin = builtin_global(g);
  if (builtin >= 0) {
    int b = new_base(ik, BASE_BUILTIN, g, SP_GLOBAL);
    ik->bases[b].builtin = builtin;
    return b;
  }
  unsigned as = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
  int space = as == 3 ? SP_SHARED : as == 4 ? SP_CONSTANT : SP_GLOBAL;
  bool global = !clang_Cursor_isNull(global_decl(ik, g, SP_GLOBAL)),
       constant = !clang_Cursor_isNull(global_decl(ik, g, SP_CONSTANT)),
       shared = !clang_Cursor_isNull(global_decl(ik, g, SP_SHARED));
  if (space == SP_CONSTANT && !constant && global) space = SP_GLOBAL;
  int b = new_base(ik, BASE_GLOBAL, g, space);
  ik->bases[b].library = !global && !constant && !shared;
  return b;
}

static void pointer_unknown(ir_value *r, bool lane_dependent) {
  r->base = -1;
  poly_unknown(&r->p, false);
  r->p.lane_varying = lane_dependent;
}

/* A pointer loaded from memory at (from, at): one base per such address. */
static int loaded_base(ir_kernel *ik, LLVMValueRef load, int from, const poly *at) {
  for (int i = 0; i < ik->base_count; i++)
    if (ik->bases[i].kind == BASE_LOADED && ik->bases[i].from == from && poly_equal(&ik->bases[i].at, at)) return i;
  int b = new_base(ik, BASE_LOADED, load, SP_GLOBAL);
  ik->bases[b].from = from;
  ik->bases[b].at = *at;
  return b;
}

static int loop_of_header(const ir_kernel *ik, int block) {
  for (int l = 0; l < ik->loop_count; l++)
    if (ik->loops[l].header == block) return l;
  return -1;
}

static bool user_location(ir_kernel *ik, LLVMValueRef inst, CXFile *file, unsigned *line, unsigned *column);
static bool value_location(ir_kernel *ik, LLVMValueRef inst, CXFile *file, unsigned *line, unsigned *column);

/* The name of the variable a counter's step updates, from the AST at the
 * step's location (i in `i += 4`), or "loop". */
static void counter_name(ir_kernel *ik, LLVMValueRef step, char *out, size_t size) {
  CXFile file;
  unsigned line, column;
  snprintf(out, size, "loop");
  if (LLVMIsAInstruction(step) && value_location(ik, step, &file, &line, &column))
    ir_name_at(ik->scope, file, line, column, out, size);
}

static void gep_offset(ir_kernel *ik, LLVMValueRef gep, poly *off, bool *evaluable);

static LLVMValueRef strip_int_casts(LLVMValueRef v) {
  for (int hops = 0; hops < 4 && (LLVMIsASExtInst(v) || LLVMIsAZExtInst(v) || LLVMIsATruncInst(v)); hops++)
    v = LLVMGetOperand(v, 0);
  return v;
}

/* next = phi + s, s + phi, phi - s, phi | s (disjoint), or a GEP on phi
 * (the step in bytes), or a chain of them (a counter bumped inside the
 * body as well as by the loop: col += 1 three times, then col += 4 *
 * blockDim.x); the step's value in *step. */
static bool recurrence_step_at(ir_kernel *ik, LLVMValueRef phi, LLVMValueRef next, poly *step, int depth) {
  next = strip_int_casts(next);
  if (next == phi) { poly_const(step, 0); return true; }
  if (depth > 8 || !LLVMIsAInstruction(next)) return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(next);
  poly inner, own;
  if (op == LLVMGetElementPtr) {
    bool evaluable;
    if (!recurrence_step_at(ik, phi, LLVMGetOperand(next, 0), &inner, depth + 1)) return false;
    gep_offset(ik, next, &own, &evaluable);
    if (own.unknown || !uniform(ik, &own)) return false;
    poly_add(step, &inner, &own, 1);
    return !step->unknown;
  }
  if (op != LLVMAdd && op != LLVMSub && !(op == LLVMOr && LLVMGetIsDisjoint(next))) return false;
  for (unsigned side = 0; side < 2; side++) {
    if (side == 1 && op == LLVMSub) break;             /* s - phi counts down the other way */
    if (!recurrence_step_at(ik, phi, LLVMGetOperand(next, side), &inner, depth + 1)) continue;
    const poly *s = int_of(ik, LLVMGetOperand(next, 1 - side));
    if (s->unknown || !uniform(ik, s)) return false;
    poly_add(step, &inner, s, op == LLVMSub ? -1 : 1);
    return !step->unknown;
  }
  return false;
}

static bool recurrence_step(ir_kernel *ik, LLVMValueRef phi, LLVMValueRef next, poly *step) {
  return strip_int_casts(next) != phi && recurrence_step_at(ik, phi, next, step, 0);
}

/* The branch in the loop whose compare tests its counter (phi, or its next
 * value): the branch, or NULL. */
static LLVMValueRef exit_branch(ir_kernel *ik, int loop, LLVMValueRef phi, LLVMValueRef next) {
  const ir_loop *l = &ik->loops[loop];
  for (int b = 0; b < ik->block_count; b++) {
    if (!l->body[b]) continue;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(ik->blocks[b].bb);
    if (!term || !LLVMIsABranchInst(term) || !LLVMIsConditional(term)) continue;
    LLVMValueRef cond = LLVMGetCondition(term);
    if (!LLVMIsAICmpInst(cond)) continue;
    LLVMValueRef x = LLVMGetOperand(cond, 0), y = LLVMGetOperand(cond, 1);
    if (x == phi || x == next || y == phi || y == next) return term;
  }
  return NULL;
}

/* An integer compare of a and c as `bits`-wide values. */
static bool icmp_holds(LLVMIntPredicate pred, long long a, long long c, unsigned bits) {
  unsigned long long mask = bits >= 64 ? ~0ULL : (1ULL << bits) - 1;
  unsigned long long ua = (unsigned long long)a & mask, uc = (unsigned long long)c & mask;
  switch (pred) {
  case LLVMIntEQ: return ua == uc;
  case LLVMIntNE: return ua != uc;
  case LLVMIntUGT: return ua > uc;
  case LLVMIntUGE: return ua >= uc;
  case LLVMIntULT: return ua < uc;
  case LLVMIntULE: return ua <= uc;
  case LLVMIntSGT: return a > c;
  case LLVMIntSGE: return a >= c;
  case LLVMIntSLT: return a < c;
  default: return a <= c;
  }
}

/* A loop's exit compare of its counter (phi, or its next value) with a
 * bound, as trip counts and scaled turns both read it. */
typedef struct {
  LLVMValueRef bound;            /* what the counter is compared with */
  LLVMIntPredicate pred;
  bool counter_left;             /* the counter is the compare's left operand */
  bool uses_next;                /* ... as its value after the turn's step */
  bool exit_if_true;             /* the compare holding sends the loop out */
  bool constant_bound;           /* the bound is a constant: */
  long long limit;               /* ... its value */
  unsigned bits;                 /* ... and width */
} exit_compare;

static bool parse_exit(ir_kernel *ik, int loop, LLVMValueRef phi, LLVMValueRef next, exit_compare *c) {
  LLVMValueRef term = exit_branch(ik, loop, phi, next);
  if (!term) return false;
  LLVMValueRef cond = LLVMGetCondition(term), x = LLVMGetOperand(cond, 0), y = LLVMGetOperand(cond, 1);
  c->uses_next = x == next || y == next;
  c->counter_left = x == phi || x == next;
  c->bound = c->counter_left ? y : x;
  c->pred = LLVMGetICmpPredicate(cond);
  c->constant_bound = LLVMIsAConstantInt(c->bound) != NULL;
  c->limit = c->constant_bound ? LLVMConstIntGetSExtValue(c->bound) : 0;
  c->bits = c->constant_bound ? LLVMGetIntTypeWidth(LLVMTypeOf(c->bound)) : 0;
  /* the true arm leaves where its block is outside the loop */
  int taken = map_get(&ik->block_of, LLVMGetSuccessor(term, 0));
  c->exit_if_true = taken < 0 || !ik->loops[loop].body[taken];
  return true;
}

/* Whether a compare with a constant bound sends the loop out when the
 * counter's side of it is v. */
static bool exit_leaves(const exit_compare *c, long long v) {
  return icmp_holds(c->pred, c->counter_left ? v : c->limit, c->counter_left ? c->limit : v, c->bits) ==
         c->exit_if_true;
}

/* The bound a loop's counter is compared with to end it, or NULL. */
static LLVMValueRef exit_bound(ir_kernel *ik, int loop, LLVMValueRef phi, LLVMValueRef next) {
  exit_compare c;
  return parse_exit(ik, loop, phi, next, &c) ? c.bound : NULL;
}

/* Whether the source asked for the loop to stay rolled (#pragma unroll 1,
 * or a count): its latch's llvm.loop metadata says so. */
static bool unroll_limited(ir_kernel *ik, int loop) {
  unsigned kind = LLVMGetMDKindIDInContext(ik->code->context, "llvm.loop", 9);
  const ir_loop *l = &ik->loops[loop];
  for (int b = 0; b < ik->block_count; b++) {
    if (!l->body[b]) continue;
    LLVMValueRef term = LLVMGetBasicBlockTerminator(ik->blocks[b].bb);
    LLVMValueRef md = term ? LLVMGetMetadata(term, kind) : NULL;
    if (!md) continue;
    unsigned n = LLVMGetMDNodeNumOperands(md);
    LLVMValueRef *ops = calloc(n ? n : 1, sizeof *ops);
    LLVMGetMDNodeOperands(md, ops);
    static const char *const limits[] = {"llvm.loop.unroll.disable", "llvm.loop.unroll.count",
                                         "llvm.loop.unroll.runtime.disable"};
    bool limited = false;
    for (unsigned i = 0; i < n && !limited; i++) {
      unsigned count = ops[i] && LLVMIsAMDNode(ops[i]) ? LLVMGetMDNodeNumOperands(ops[i]) : 0;
      if (count < 1 || count > 4) continue;
      LLVMValueRef first[4] = {0};
      LLVMGetMDNodeOperands(ops[i], first);
      unsigned len = 0;
      const char *name = first[0] ? LLVMGetMDString(first[0], &len) : NULL;
      for (size_t m = 0; name && m < sizeof limits / sizeof limits[0]; m++)
        limited = limited || (len == strlen(limits[m]) && memcmp(name, limits[m], len) == 0);
    }
    free(ops);
    if (limited) return true;
  }
  return false;
}

/* Whether p holds only constants and counters of loops nvcc unrolls whole. */
static bool set_by_unrolled(const kernel_ctx *k, const poly *p) {
  if (p->unknown) return false;
  for (int a = 0; a < k->atom_count; a++)
    if (poly_uses_atom(p, a) && !(k->atoms[a].kind == ATOMK_LOOP && k->atoms[a].unrolls)) return false;
  return true;
}

/* Constant trips of a loop whose exit compares the counter (or its next
 * value) with a constant; 0 when not known. */
static long long constant_trips(ir_kernel *ik, int loop, LLVMValueRef phi, LLVMValueRef next, long long init,
                                long long step) {
  exit_compare c;
  if (step == 0 || !parse_exit(ik, loop, phi, next, &c) || !c.constant_bound) return 0;
  for (long long t = 0; t < (1LL << 20); t++)
    if (exit_leaves(&c, init + t * step + (c.uses_next ? step : 0))) return c.uses_next ? t + 1 : t;
  return 0;
}

/* The value a loop header's phi enters loop with (*init) and the one it
 * takes from inside the loop (*next); each NULL where there is none or
 * where its arms differ. */
static void loop_arms(ir_kernel *ik, LLVMValueRef phi, int loop, LLVMValueRef *init, LLVMValueRef *next) {
  bool init_differs = false, next_differs = false;
  *init = *next = NULL;
  for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
    int from = map_get(&ik->block_of, LLVMGetIncomingBlock(phi, i));
    LLVMValueRef v = LLVMGetIncomingValue(phi, i);
    bool inside = from >= 0 && ik->loops[loop].body[from];
    LLVMValueRef *slot = inside ? next : init;
    bool *differs = inside ? &next_differs : &init_differs;
    if (*slot && *slot != v) *differs = true;
    *slot = v;
  }
  if (init_differs) *init = NULL;
  if (next_differs) *next = NULL;
}

/* A loop header's phi: a counter init + step * L, with L the loop's
 * iteration (one atom per counter), when every value from inside the loop
 * is the phi moved by the same uniform step. */
static bool counter_phi(ir_kernel *ik, LLVMValueRef phi, ir_value *r) {
  int loop = loop_of_header(ik, block_index(ik, phi));
  if (loop < 0) return false;
  LLVMValueRef init, next;
  loop_arms(ik, phi, loop, &init, &next);
  if (!init || !next) return false;
  const ir_value *start = value_of(ik, init);
  if (r->pointer && start->base < 0) return false;
  if (start->p.unknown && !start->p.lane_varying) return false;
  poly step;
  int base = start->base;
  poly start_p = start->p;
  if (!recurrence_step(ik, phi, next, &step)) return false;
  char name[64];
  counter_name(ik, next, name, sizeof name);
  int atom = new_atom(ik->k, ATOMK_LOOP, name);
  poly L;
  poly_atom(&L, atom);
  r->base = base;
  poly moved;
  poly_mul(&moved, &step, &L);
  poly_add(&r->p, &start_p, &moved, 1);
  r->evaluable = r->p.unknown && start->evaluable;   /* lane by lane: the first turn's */
  atom_info *a = &ik->k->atoms[atom];
  poly start_lane, start_rest;
  lane_split(ik->k, &start_p, &start_lane, &start_rest);
  a->lane_start = start_p.unknown ? start_p.lane_varying : start_lane.count > 0;
  long long step_value, init_value;
  if (poly_is_const(&step, &step_value)) {
    a->unit_step = step_value == 1 || step_value == -1;
    if (!r->pointer && poly_is_const(&start_p, &init_value)) {
      a->trips = constant_trips(ik, loop, phi, next, init_value, step_value);
      a->const_trip = a->trips > 0;
    }
    /* what clang's -O3 left rolled and nvcc unrolls whole: a few constant
     * turns, or a loop whose start and bound only such loops' counters set
     * (for n2 = (L + n1) % 2; n2 <= L - n1 inside n1 <= L) */
    LLVMValueRef bound = r->pointer ? NULL : exit_bound(ik, loop, phi, next);
    a->unrolls = ((a->const_trip && a->trips <= UNROLLED_TRIPS) ||
                  (bound && set_by_unrolled(ik->k, &start_p) && set_by_unrolled(ik->k, int_of(ik, bound)) &&
                   !poly_is_const(&start_p, &init_value))) &&
                 !unroll_limited(ik, loop);
  }
  if (ik->loops[loop].atom < 0) ik->loops[loop].atom = atom;
  return true;
}

/* The condition of block b's conditional branch or switch, or NULL. */
static LLVMValueRef branch_condition(const ir_kernel *ik, int b) {
  LLVMValueRef term = LLVMGetBasicBlockTerminator(ik->blocks[b].bb);
  if (term && LLVMIsABranchInst(term) && LLVMIsConditional(term)) return LLVMGetCondition(term);
  if (term && LLVMIsASwitchInst(term)) return LLVMGetOperand(term, 0);
  return NULL;
}

/* A join of values (phi, select) under a uniform choice: the common value;
 * else, when every arm has the same lane part (none, for unknown uniform
 * arms), that part plus a fresh uniform atom; else lane-varying. */
static void uniform_join(ir_kernel *ik, const poly *const *arms, int n, bool block, poly *out) {
  bool equal = true, lanes_equal = true;
  poly lane0, rest;
  if (arms[0]->unknown) poly_const(&lane0, 0);
  else lane_split(ik->k, arms[0], &lane0, &rest);
  for (int i = 0; i < n; i++) {
    if (arms[i]->unknown && arms[i]->lane_varying) { lane_varying(out, arms[i]->data_dependent); return; }
    equal = equal && !arms[i]->unknown && poly_equal(arms[i], arms[0]);
    poly lane;
    if (arms[i]->unknown) poly_const(&lane, 0);
    else lane_split(ik->k, arms[i], &lane, &rest);
    lanes_equal = lanes_equal && poly_equal(&lane, &lane0);
    block = block || per_block(ik->k, arms[i]);
  }
  if (equal) { *out = *arms[0]; return; }
  if (!lanes_equal) { lane_varying(out, false); return; }
  poly u;
  uniform_atom(ik, "(joined)", block, false, &u);
  /* one value per warp, which the warps of a block need not share where
   * an arm's warp-uniform part holds threadIdx.y (a row per warp) */
  atom_info *a = &ik->k->atoms[u.terms[0].atoms[0]];
  for (int i = 0; i < n; i++) {
    if (arms[i]->unknown) continue;
    poly lane, warp_part;
    lane_split(ik->k, arms[i], &lane, &warp_part);
    a->from_threads = a->from_threads || differs_between_warps(ik->k, &warp_part);
  }
  if (arms[0]->unknown) { *out = u; return; }
  poly_add(out, &lane0, &u, 1);
}

/* The incoming value of phi from block from, or NULL. */
static LLVMValueRef incoming_from(LLVMValueRef phi, LLVMBasicBlockRef from) {
  for (unsigned i = 0; i < LLVMCountIncoming(phi); i++)
    if (LLVMGetIncomingBlock(phi, i) == from) return LLVMGetIncomingValue(phi, i);
  return NULL;
}

/* A widened twin of another phi of its block: on every edge a sign or
 * zero extension of the other's value (the optimiser keeps a grid-stride
 * loop's int counter and its 64-bit copy for a size_t bound apart): the
 * other's value. */
static bool twin_phi(ir_kernel *ik, LLVMValueRef phi, ir_value *r) {
  unsigned n = LLVMCountIncoming(phi);
  for (LLVMValueRef q = LLVMGetFirstInstruction(LLVMGetInstructionParent(phi)); q && LLVMIsAPHINode(q);
       q = LLVMGetNextInstruction(q)) {
    bool twin = q != phi && LLVMCountIncoming(q) == n;
    for (unsigned i = 0; i < n && twin; i++) {
      LLVMValueRef mine = LLVMGetIncomingValue(phi, i), theirs = incoming_from(q, LLVMGetIncomingBlock(phi, i));
      twin = theirs && (LLVMIsASExtInst(mine) || LLVMIsAZExtInst(mine)) && LLVMGetOperand(mine, 0) == theirs;
    }
    if (!twin) continue;
    const ir_value *other = value_of(ik, q);
    if (other->busy) return false;
    r->p = other->p;
    r->evaluable = other->evaluable;
    return true;
  }
  return false;
}

/* A pointer no access goes through: null, or a value left undefined. */
static bool no_pointer(LLVMValueRef v) {
  return LLVMIsAConstantPointerNull(v) || LLVMIsAUndefValue(v) || LLVMIsAPoisonValue(v);
}

/* Whether arm is a phi that only keeps phi's own value or no pointer at
 * all: a loop's header carrying a pointer the body sets under a condition
 * (float4 *p = 0; for (..) { if (lane < n) p = rows + k + lane; .. p[i] }). */
static bool keeps_only(LLVMValueRef arm, LLVMValueRef phi) {
  if (!LLVMIsAPHINode(arm) || arm == phi) return false;
  for (unsigned i = 0; i < LLVMCountIncoming(arm); i++) {
    LLVMValueRef v = LLVMGetIncomingValue(arm, i);
    if (v != phi && v != arm && !no_pointer(v)) return false;
  }
  return true;
}

/* a and b are one value converted alike (sext i32 %x to i64 written
 * twice: the optimiser copies a conversion into each branch). */
static bool same_conversion(LLVMValueRef a, LLVMValueRef b) {
  if (a == b) return true;
  if (!LLVMIsAInstruction(a) || !LLVMIsAInstruction(b)) return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(a);
  return op == LLVMGetInstructionOpcode(b) && (op == LLVMSExt || op == LLVMZExt || op == LLVMTrunc) &&
         LLVMTypeOf(a) == LLVMTypeOf(b) && LLVMGetOperand(a, 0) == LLVMGetOperand(b, 0);
}

/* The one value every arm of a join is, up to such copies; NULL if none. */
static LLVMValueRef common_arm(LLVMValueRef phi) {
  LLVMValueRef first = NULL;
  for (unsigned i = 0; i < LLVMCountIncoming(phi); i++) {
    LLVMValueRef v = LLVMGetIncomingValue(phi, i);
    if (!first) first = v;
    else if (!same_conversion(first, v)) return NULL;
  }
  return first;
}

/* The one value a web of joins stands for: the phis reached from phi
 * through arms that are phis, whose other arms are all the same known
 * value (blockDim.x loaded again after a call the compiler must assume
 * writes memory, printf's vprintf in a grid-stride loop, and joined with
 * the load before the loop: still blockDim.x, not a value the loop
 * carries); NULL when they are not. */
static LLVMValueRef phi_web_value(ir_kernel *ik, LLVMValueRef phi) {
  enum { MAX_WEB = 16 };
  LLVMValueRef web[MAX_WEB], leaf = NULL;
  int n = 0;
  poly value;
  web[n++] = phi;
  for (int done = 0; done < n; done++)
    for (unsigned i = 0; i < LLVMCountIncoming(web[done]); i++) {
      LLVMValueRef in = LLVMGetIncomingValue(web[done], i);
      if (LLVMIsAPHINode(in)) {
        bool seen = false;
        for (int k = 0; k < n && !seen; k++) seen = web[k] == in;
        if (seen) continue;
        if (n == MAX_WEB) return NULL;
        web[n++] = in;
        continue;
      }
      const ir_value *v = value_of(ik, in);
      if (v->busy || v->pointer || v->p.unknown || (leaf && !poly_equal(&value, &v->p))) return NULL;
      if (!leaf) value = v->p;
      leaf = in;
    }
  return n > 1 ? leaf : NULL;
}

/* A phi: a loop counter; a value carried around a loop (lane-varying
 * when its start or update is, or when lanes leave the loop at different
 * iterations); a value leaving a loop; or a join after a branch, which is
 * lane-varying when the branch deciding between two different incoming
 * values (the nearest common dominator of their blocks) is. */
static void eval_phi(ir_kernel *ik, LLVMValueRef phi, ir_value *r) {
  if (counter_phi(ik, phi, r) || twin_phi(ik, phi, r)) return;
  LLVMValueRef one = r->pointer ? NULL : phi_web_value(ik, phi);
  if (one) {
    *r = *value_of(ik, one);
    return;
  }
  unsigned n = LLVMCountIncoming(phi);
  int block = block_index(ik, phi), loop = loop_of_header(ik, block);
  LLVMValueRef common = loop < 0 ? common_arm(phi) : NULL;
  if (common && common != phi) {
    bool pointer = r->pointer;
    *r = *value_of(ik, common);
    r->pointer = pointer;
    return;
  }
  enum { MAX_ARMS = 32 };
  const poly *arms[MAX_ARMS];
  int from[MAX_ARMS], bases[MAX_ARMS], count = 0;
  /* data: an arm is a value loaded per lane (a hash's state entering its
   * rounds), which stays one through the join */
  bool varying = false, cycle = false, block_dep = false, data = false, busy[MAX_ARMS], evaluable[MAX_ARMS];
  r->busy = true;
  for (unsigned i = 0; i < n && count < MAX_ARMS; i++) {
    /* a pointer set only under a condition (float4 *p = 0; if (lane < n)
     * p = rows + lane;): the accesses through it are on the paths that
     * set it, so its null arm is no address */
    LLVMValueRef in = LLVMGetIncomingValue(phi, i);
    if (r->pointer && n > 1 && (no_pointer(in) || keeps_only(in, phi))) continue;
    const ir_value *v = value_of(ik, in);
    from[count] = map_get(&ik->block_of, LLVMGetIncomingBlock(phi, i));
    arms[count] = &v->p;
    busy[count] = v->busy;
    evaluable[count] = v->evaluable;
    bases[count++] = v->base;
    varying = varying || (!v->busy && !uniform(ik, &v->p));
    data = data || (!v->busy && v->p.unknown && v->p.data_dependent);
    cycle = cycle || v->busy;
    block_dep = block_dep || per_block(ik->k, &v->p);
  }
  r->busy = false;
  if (count == 0) { pointer_unknown(r, false); return; }
  if (r->pointer) {
    /* an arm still being evaluated comes round from this phi (a pointer
     * bumped through an unrolled loop's remainder): the phi's own base */
    r->base = -1;
    for (int i = 0; i < count; i++) {
      if (busy[i] && bases[i] < 0) continue;
      if (r->base >= 0 && bases[i] != r->base) { pointer_unknown(r, varying); return; }
      r->base = bases[i];
    }
  }
  if (loop >= 0) {
    if (varying || ik->loops[loop].divergent_exit) lane_varying(&r->p, data);
    else {
      uniform_atom(ik, "(loop value)", block_dep, false, &r->p);
      atom_info *a = &ik->k->atoms[r->p.terms[0].atoms[0]];
      a->loop_carried = true;
      /* one value per warp that the warps of a block need not share (a
       * walk starting at threadIdx.y): no reuse across the block */
      for (int i = 0; i < count; i++) a->from_threads = a->from_threads || (!busy[i] && differs_between_warps(ik->k, arms[i]));
    }
    return;
  }
  if (count == 1) {
    /* a value leaving a loop (LCSSA): lane-varying when lanes leave the
     * loop at different iterations and the value moves with it */
    int l = from[0] >= 0 ? ik->blocks[from[0]].loop : -1;
    if (l >= 0 && ik->loops[l].divergent_exit && !ik->loops[l].body[block] && !arms[0]->unknown &&
        uses_loop_atom(ik->k, arms[0])) {
      lane_varying(&r->p, false);
      return;
    }
    r->p = *arms[0];
    r->evaluable = evaluable[0];
    return;
  }
  bool all_equal = !cycle;
  for (int i = 1; i < count && all_equal; i++) all_equal = !arms[i]->unknown && poly_equal(arms[i], arms[0]);
  if (all_equal && !arms[0]->unknown) { r->p = *arms[0]; return; }
  for (int i = 0; i < count; i++)
    for (int j = i + 1; j < count; j++) {
      if (from[i] < 0 || from[j] < 0 || (!arms[i]->unknown && !arms[j]->unknown && poly_equal(arms[i], arms[j])))
        continue;
      LLVMValueRef cond = branch_condition(ik, intersect(ik, from[i], from[j]));
      if (cond && !uniform(ik, int_of(ik, cond))) { lane_varying(&r->p, data); return; }
      if (cond) block_dep = block_dep || per_block(ik->k, int_of(ik, cond));
    }
  uniform_join(ik, arms, count, block_dep, &r->p);
  /* the whole warp took one arm (a run-time flag chose a periodic wrap or
   * a clamp): lane by lane, the arms are the same access pattern */
  r->evaluable = r->p.unknown && r->p.lane_varying;
}

static void eval_select(ir_kernel *ik, LLVMValueRef sel, ir_value *r) {
  const poly *cond = int_of(ik, LLVMGetOperand(sel, 0));
  LLVMValueRef first = LLVMGetOperand(sel, 1), second = LLVMGetOperand(sel, 2);
  if (r->pointer && no_pointer(first) != no_pointer(second)) {   /* cond ? rows + lane : NULL */
    const ir_value *set = value_of(ik, no_pointer(first) ? second : first);
    r->p = set->p;
    r->base = set->base;
    return;
  }
  const ir_value *a = value_of(ik, first), *b = value_of(ik, second);
  if (r->pointer) {
    if (a->base != b->base) { pointer_unknown(r, !uniform(ik, cond)); return; }
    r->base = a->base;
  }
  if (!a->p.unknown && !b->p.unknown && poly_equal(&a->p, &b->p)) { r->p = a->p; return; }
  if (!uniform(ik, cond)) {
    /* chosen per lane: told lane by lane where the condition and both arms can be */
    lane_varying(&r->p, a->p.data_dependent || b->p.data_dependent);
    r->evaluable = true;
    return;
  }
  const poly *arms[2] = {&a->p, &b->p};
  uniform_join(ik, arms, 2, per_block(ik->k, cond), &r->p);
  /* a run-time flag choosing between two lane-varying forms (periodic
   * wrap or clamp): lane by lane, as the flag's probe value picks */
  r->evaluable = r->p.unknown && r->p.lane_varying;
}

/* An operation that is no polynomial: uniform operands give a uniform
 * atom of its own; lane-dependent ones a lane-varying value that may be
 * evaluated lane by lane. */
static void nonlinear(ir_kernel *ik, LLVMValueRef inst, ir_value *r, bool quotient) {
  unsigned n = LLVMGetNumOperands(inst);
  bool varying = false, block = false, data = false, moves = false;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef op = LLVMGetOperand(inst, i);
    if (LLVMIsABasicBlock(op) || LLVMIsAFunction(op) || LLVMGetValueKind(op) == LLVMMetadataAsValueValueKind) continue;
    const poly *p = int_of(ik, op);
    /* of a thread index too where it is one value per warp (threadIdx.y,
     * a warp's number): an atom would lose which warp has which value */
    varying = varying || !uniform(ik, p) || uses_thread_atom(ik->k, p);
    block = block || per_block(ik->k, p);
    data = data || p->data_dependent;
    moves = moves || (!p->unknown && moves_with_loop(ik->k, p));
  }
  if (varying) {
    lane_varying(&r->p, data);
    r->evaluable = true;
    return;
  }
  uniform_atom(ik, "(value)", block, quotient, &r->p);
  /* of a loop's counter (ish / 4 as ish moves): it changes with the loop */
  ik->k->atoms[r->p.terms[0].atoms[0]].loop_carried = moves;
}

static bool divides_all(const poly *p, long long d) {
  if (p->unknown || d <= 0) return false;
  for (int i = 0; i < p->count; i++)
    if (p->terms[i].coef % d != 0) return false;
  return true;
}

static void scale_down(poly *p, long long d) {
  for (int i = 0; i < p->count; i++) p->terms[i].coef /= d;
}

/* a / d, a % d, a >> log2(d) or a & (d - 1), where a's thread part may be
 * divided on its own (its other terms are multiples of d): a warp's number
 * and lane (threadIdx.x / 32, threadIdx.x % 32), a global warp number
 * ((blockIdx.x * blockDim.x + threadIdx.x) >> 5), a half-warp's. The
 * quotient of the thread part is an atom evaluated thread by thread; the
 * remainder is the thread part less d times it. */
static bool divide_threads(ir_kernel *ik, LLVMOpcode op, const poly *a, long long c, poly *out) {
  long long d;
  /* a & -d (d a power of two) rounds down to a multiple of d: d * (a / d) */
  bool round_down = op == LLVMAnd && c < 0 && c > -(1LL << 30) && (-c & (-c - 1)) == 0;
  bool remainder = op == LLVMURem || op == LLVMSRem || (op == LLVMAnd && !round_down);
  if (op == LLVMUDiv || op == LLVMSDiv || op == LLVMURem || op == LLVMSRem) d = c;
  else if (op == LLVMLShr || op == LLVMAShr) d = c >= 1 && c <= 30 ? 1LL << c : 0;
  else if (round_down) d = -c;
  else if (op == LLVMAnd) d = c >= 1 && c < (1LL << 30) && (c & (c + 1)) == 0 ? c + 1 : 0;
  else return false;
  if (a->unknown || d < 2) return false;
  poly thread, rest;
  thread_split(ik->k, a, &thread, &rest);
  if (thread.count == 0) return false;
  /* the rest must be a multiple of d: by its coefficients, or through an
   * unknown blockDim (a multiple of 32 by the documented default) */
  bool exact = true;
  for (int i = 0; i < rest.count; i++) {
    bool by_block = false;
    for (int x = 0; x < rest.terms[i].degree; x++)
      by_block = by_block || (rest.terms[i].atoms[x] >= ATOM_BDX && rest.terms[i].atoms[x] <= ATOM_BDZ);
    if (rest.terms[i].coef % d == 0) continue;
    if (!by_block || 32 % d != 0) return false;
    exact = false;
  }
  int atom = quotient_atom(ik->k, &thread, d);
  if (atom < 0) return false;
  poly q, times;
  poly_atom(&q, atom);
  if (remainder || round_down) {
    poly_const(&times, -d);
    poly_mul(&q, &q, &times);
    poly_add(out, &thread, &q, 1);
    if (round_down) poly_add(out, a, out, -1);    /* a less its remainder */
    return !out->unknown;
  }
  if (exact) scale_down(&rest, d);
  else if (rest.count) uniform_atom(ik, "(value)", per_block(ik->k, &rest), true, &rest);
  poly_add(out, &rest, &q, 1);
  return !out->unknown;
}

static void eval_binary(ir_kernel *ik, LLVMValueRef inst, ir_value *r) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  const poly *a = int_of(ik, LLVMGetOperand(inst, 0)), *b = int_of(ik, LLVMGetOperand(inst, 1));
  long long c;
  bool b_const = poly_is_const(b, &c);
  switch (op) {
  case LLVMAdd:
  case LLVMSub:
    if (!a->unknown && !b->unknown) { poly_add(&r->p, a, b, op == LLVMAdd ? 1 : -1); return; }
    break;
  case LLVMMul:
    if (!a->unknown && !b->unknown) { poly_mul(&r->p, a, b); return; }
    break;
  case LLVMShl:
    if (b_const && c >= 0 && c < 40 && !a->unknown) {
      poly scale;
      poly_const(&scale, 1LL << c);
      poly_mul(&r->p, a, &scale);
      return;
    }
    break;
  case LLVMOr:
    if (LLVMGetIsDisjoint(inst) && !a->unknown && !b->unknown) { poly_add(&r->p, a, b, 1); return; }
    break;
  case LLVMXor:
    /* x ^ -1 is -1 - x: how -O3 writes n - 1 - layer (n + ~layer) */
    if (b_const && c == -1 && !a->unknown) {
      poly minus_one;
      poly_const(&minus_one, -1);
      poly_add(&r->p, &minus_one, a, -1);
      return;
    }
    break;
  case LLVMLShr:
  case LLVMAShr:
    /* (8 * i) >> 3 is i when the low bits are known zero */
    if (b_const && c >= 0 && c < 40 && divides_all(a, 1LL << c)) { r->p = *a; scale_down(&r->p, 1LL << c); return; }
    break;
  case LLVMUDiv:
  case LLVMSDiv:
    if (b_const && c > 0 && divides_all(a, c)) { r->p = *a; scale_down(&r->p, c); return; }
    break;
  default:
    break;
  }
  long long x;
  if (poly_is_const(a, &x) && b_const) {
    long long v;
    switch (op) {
    case LLVMUDiv: case LLVMSDiv: if (!c) goto other; v = x / c; break;
    case LLVMURem: case LLVMSRem: if (!c) goto other; v = x % c; break;
    case LLVMLShr: case LLVMAShr: if (c < 0 || c > 62) goto other; v = x >> c; break;
    case LLVMAnd: v = x & c; break;
    case LLVMOr: v = x | c; break;
    case LLVMXor: v = x ^ c; break;
    default: goto other;
    }
    poly_const(&r->p, v);
    return;
  }
other:
  if (b_const && divide_threads(ik, op, a, c, &r->p)) return;
  nonlinear(ik, inst, r, op != LLVMAdd && op != LLVMSub && op != LLVMMul && op != LLVMShl);
}

/* A built-in index or size: blockDim is the modelled block's when the
 * launch (or __launch_bounds__) fixes it. */
static void builtin_value(const ir_kernel *ik, int atom, poly *out) {
  const kernel_ctx *k = ik->k;
  if (atom >= ATOM_BDX && atom <= ATOM_BDZ && k->block_known) poly_const(out, k->block[atom - ATOM_BDX]);
  else poly_atom(out, atom);
}

/* ---- private variables the warp shares ---- */

/* Whether the lanes of a warp that go on from block b's branch all take
 * the same way: the branch's condition is the warp's one, or one of its
 * ways only leaves the kernel (if (i >= n) return;). */
static bool uniform_way(ir_kernel *ik, int b) {
  LLVMValueRef cond = branch_condition(ik, b);
  if (!cond || uniform(ik, &value_of(ik, cond)->p)) return true;
  for (int s = 0; s < ik->blocks[b].nsucc; s++) {
    LLVMValueRef term = LLVMGetBasicBlockTerminator(ik->blocks[ik->blocks[b].succ[s]].bb);
    if (term && (LLVMIsAReturnInst(term) || LLVMIsAUnreachableInst(term))) return true;
  }
  return false;
}

/* Whether every lane of a warp that reaches block `to` gets there on the
 * same ways: no block from which `to` can be reached branches there on a
 * condition that may differ between the lanes. */
static bool reached_alike(ir_kernel *ik, int to) {
  unsigned char *seen = calloc((size_t)ik->block_count, 1);
  int *stack = malloc((size_t)ik->block_count * sizeof *stack), n = 0;
  if (!seen || !stack) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  bool alike = true;
  seen[to] = 1;
  stack[n++] = to;
  while (n > 0 && alike) {
    int b = stack[--n];
    for (int p = 0; p < ik->blocks[b].npred; p++) {
      int from = ik->blocks[b].pred[p];
      if (seen[from]) continue;
      seen[from] = 1;
      stack[n++] = from;
      alike = uniform_way(ik, from);
      if (!alike) break;
    }
  }
  free(seen);
  free(stack);
  return alike;
}

/* A store or fill into the private variable, executed alike by the warp's
 * lanes, of a value the same for the warp. */
static bool stores_warp_value(ir_kernel *ik, LLVMValueRef inst, LLVMValueRef value) {
  const ir_value *v = value_of(ik, value);
  if (v->pointer || !uniform(ik, &v->p)) return false;
  int b = block_index(ik, inst);
  return b >= 0 && reached_alike(ik, b);
}

typedef struct slot_walk {
  long long at, width;           /* the bytes asked about */
  bool shared;
} slot_walk;

/* Where a pointer into the private variable may be: at `lo` exactly
 * (hi == lo), or anywhere in [lo, hi) (hi < 0: to the variable's end). */
typedef struct slot_place { long long lo, hi; } slot_place;

/* The outermost array of the variable's type that holds byte `at` (a
 * struct's array member): an index at run time into it stays in it, as C
 * has it; the whole variable where no array holds it. */
static slot_place array_around(ir_kernel *ik, LLVMValueRef alloca, long long at) {
  LLVMTypeRef t = LLVMGetAllocatedType(alloca);
  long long start = 0;
  for (int depth = 0; t && depth < 8; depth++) {
    LLVMTypeKind kind = LLVMGetTypeKind(t);
    long long size = (long long)LLVMABISizeOfType(ik->code->layout, t);
    if (kind == LLVMArrayTypeKind) return (slot_place){start, start + size};
    if (kind != LLVMStructTypeKind || at < start || at >= start + size) break;
    unsigned field = LLVMElementAtOffset(ik->code->layout, t, (unsigned long long)(at - start));
    start += (long long)LLVMOffsetOfElement(ik->code->layout, t, field);
    t = LLVMStructGetTypeAtIndex(t, field);
  }
  return (slot_place){0, -1};
}

/* Whether n bytes (n < 0: a run-time count) written at place p meet the
 * bytes asked about: from an exact place, n bytes or to the end of the
 * array holding it; from anywhere in an array, within that array. */
static bool meets(ir_kernel *ik, LLVMValueRef alloca, const slot_walk *w, slot_place p, long long n) {
  long long end = p.hi != p.lo ? p.hi : n >= 0 ? p.lo + n : array_around(ik, alloca, p.lo).hi;
  return p.lo < w->at + w->width && (end < 0 || w->at < end);
}

/* The uses of address v, at place p of the private variable. */
static void walk_slot_uses(ir_kernel *ik, LLVMValueRef alloca, LLVMValueRef v, slot_place p, slot_walk *w,
                           int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u && w->shared; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsALoadInst(user)) continue;
    if (LLVMIsAStoreInst(user)) {
      if (LLVMGetOperand(user, 1) != v) { w->shared = false; break; }     /* the address stored away */
      if (meets(ik, alloca, w, p, type_bytes(ik, LLVMTypeOf(LLVMGetOperand(user, 0)))))
        w->shared = stores_warp_value(ik, user, LLVMGetOperand(user, 0));
      continue;
    }
    if (LLVMIsACallInst(user)) {
      const char *name = callee_name(user);
      if (strncmp(name, "llvm.lifetime", 13) == 0) continue;
      bool fill = strncmp(name, "llvm.memset.", 12) == 0, copy = strncmp(name, "llvm.memcpy.", 12) == 0 ||
                                                               strncmp(name, "llvm.memmove.", 13) == 0;
      if (fill || copy) {
        if (LLVMGetOperand(user, 0) != v) continue;                        /* a copy's source: read */
        LLVMValueRef length = LLVMGetOperand(user, 2);
        long long n = LLVMIsAConstantInt(length) ? (long long)LLVMConstIntGetZExtValue(length) : -1;
        if (meets(ik, alloca, w, p, n)) w->shared = fill && stores_warp_value(ik, user, LLVMGetOperand(user, 1));
        continue;
      }
      w->shared = false;                     /* handed to code not inlined */
      continue;
    }
    if (depth < 8 && (LLVMIsAAddrSpaceCastInst(user) || LLVMIsABitCastInst(user))) {
      walk_slot_uses(ik, alloca, user, p, w, depth + 1);
      continue;
    }
    if (depth < 8 && LLVMIsAGetElementPtrInst(user) && LLVMGetOperand(user, 0) == v) {
      poly off;
      bool evaluable;
      gep_offset(ik, user, &off, &evaluable);
      long long c;
      slot_place next;
      if (!off.unknown && poly_is_const(&off, &c)) next = (slot_place){p.lo + c, p.hi < 0 ? -1 : p.hi + c};
      else if (p.hi == p.lo) next = array_around(ik, alloca, p.lo);   /* an index at run time */
      else next = (slot_place){0, -1};
      walk_slot_uses(ik, alloca, user, next, w, depth + 1);
      continue;
    }
    w->shared = false;                       /* an address chosen, compared, turned into an integer */
  }
}

/* Whether bytes [at, at + width) of private variable `alloca` hold the
 * warp's one value: every store that may write them, and every fill,
 * stores a value the same for the warp, and every lane that goes on does
 * it alike (a context struct's sizes and fill levels, set from parameters
 * and counted alike in every thread: a hash's rate, its bytes taken). */
static bool warp_slot(ir_kernel *ik, LLVMValueRef alloca, long long at, long long width) {
  for (int i = 0; i < ik->slot_count; i++)
    if (ik->slots[i].alloca == alloca && ik->slots[i].at == at && ik->slots[i].width == width)
      return ik->slots[i].shared;
  slot_walk w = {at, width, true};
  int mine = ik->slot_count < WARP_SLOTS ? ik->slot_count++ : -1;
  if (mine >= 0) ik->slots[mine] = (struct warp_slot){alloca, at, width, false};  /* a cycle back: not shared */
  walk_slot_uses(ik, alloca, alloca, (slot_place){0, 0}, &w, 0);
  if (mine >= 0) ik->slots[mine].shared = w.shared;
  return w.shared;
}

/* A value loaded from (base, at): uniform when the address is, per block
 * when the address depends on the block or the data is shared; else
 * lane-varying. Pointers become bases of their own. */
static void eval_load(ir_kernel *ik, LLVMValueRef load, ir_value *r) {
  const ir_value *addr = value_of(ik, LLVMGetOperand(load, 0));
  if (addr->base >= 0 && ik->bases[addr->base].kind == BASE_BUILTIN) {
    long long field;
    if (poly_is_const(&addr->p, &field) && field >= 0 && field < 12 && field % 4 == 0) {
      builtin_value(ik, ik->bases[addr->base].builtin + (int)(field / 4), &r->p);
      return;
    }
  }
  bool at_uniform = addr->base >= 0 && uniform(ik, &addr->p) && !addr->p.unknown;
  if (r->pointer) {
    if (at_uniform) {
      r->base = loaded_base(ik, load, addr->base, &addr->p);
      poly_const(&r->p, 0);
    } else {
      pointer_unknown(r, !uniform(ik, &addr->p));
    }
    return;
  }
  bool private_slot = false;
  if (addr->base >= 0 && ik->bases[addr->base].space == SP_LOCAL && !ik->bases[addr->base].parameter_copy) {
    long long at;
    private_slot = at_uniform && ik->bases[addr->base].kind == BASE_ALLOCA && poly_is_const(&addr->p, &at) &&
                   warp_slot(ik, ik->bases[addr->base].value, at, type_bytes(ik, LLVMTypeOf(load)));
    at_uniform = private_slot;
  }
  if (at_uniform) {
    bool block = per_block(ik->k, &addr->p) || ik->bases[addr->base].space == SP_SHARED || private_slot;
    uniform_atom(ik, "(loaded)", block, false, &r->p);
    atom_info *a = &ik->k->atoms[r->p.terms[0].atoms[0]];
    /* named as the source reads it (p.numAttr), for the messages */
    CXFile file;
    unsigned line, column;
    if (value_location(ik, load, &file, &line, &column))
      ir_value_text_at(ik->scope, file, line, column, a->name, sizeof a->name);
    a->loaded = true;
    a->loop_carried = moves_with_loop(ik->k, &addr->p);
    /* at an address of threadIdx.z's (a row per z-slice): one value per
     * warp, which the warps of a block need not share */
    a->from_threads = differs_between_warps(ik->k, &addr->p) || private_slot;
    return;
  }
  poly_unknown(&r->p, true);
  r->p.lane_varying = addr->base < 0 ? !uniform(ik, &addr->p) || addr->p.unknown : true;
}

static void eval_call(ir_kernel *ik, LLVMValueRef call, ir_value *r) {
  const char *name = callee_name(call);
  int atom = builtin_atom_of(name);
  if (atom >= 0) { builtin_value(ik, atom, &r->p); return; }
  if (strstr(name, "llvm.nvvm.read.ptx.sreg.laneid")) { poly_atom(&r->p, ATOM_TX); return; }
  if (strstr(name, "llvm.nvvm.shfl") || strstr(name, "llvm.nvvm.vote") || strstr(name, "llvm.nvvm.match") ||
      strstr(name, "llvm.nvvm.atomic") || strstr(name, "atomic")) {
    lane_varying(&r->p, true);
    return;
  }
  if (strncmp(name, "llvm.nvvm.ldg", 13) == 0 || strncmp(name, "llvm.nvvm.ldu", 13) == 0 ||
      strncmp(name, "llvm.masked.load.", 17) == 0) {
    eval_load(ik, call, r);
    return;
  }
  bool quotient = strstr(name, "min") || strstr(name, "max") || strstr(name, "abs");
  nonlinear(ik, call, r, quotient);
}

/* What a GEP adds to its base's address: each index times its step in
 * bytes, struct fields at their offsets; unknown (with the index's flags)
 * when an index is. */
static void gep_offset(ir_kernel *ik, LLVMValueRef gep, poly *off, bool *evaluable) {
  poly_const(off, 0);
  *evaluable = true;
  LLVMTypeRef t = LLVMGetGEPSourceElementType(gep);
  unsigned n = LLVMGetNumOperands(gep);
  for (unsigned i = 1; i < n; i++) {
    LLVMValueRef idx = LLVMGetOperand(gep, i);
    if (i > 1) {
      LLVMTypeKind kind = LLVMGetTypeKind(t);
      if (kind == LLVMStructTypeKind) {
        unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
        poly f;
        poly_const(&f, (long long)LLVMOffsetOfElement(ik->code->layout, t, field));
        poly_add(off, off, &f, 1);
        t = LLVMStructGetTypeAtIndex(t, field);
        continue;
      }
      if (kind == LLVMArrayTypeKind || kind == LLVMVectorTypeKind) t = LLVMGetElementType(t);
    }
    long long size = (long long)LLVMABISizeOfType(ik->code->layout, t);
    const ir_value *iv = value_of(ik, idx);
    if (iv->p.unknown) {
      *off = iv->p;
      *evaluable = iv->evaluable || !iv->p.lane_varying;
      return;
    }
    poly scale, term;
    poly_const(&scale, size);
    poly_mul(&term, &iv->p, &scale);
    poly_add(off, off, &term, 1);
  }
}

/* GEP: the base's offset plus the GEP's own. */
static void eval_gep(ir_kernel *ik, LLVMValueRef gep, ir_value *r) {
  const ir_value *b = value_of(ik, LLVMGetOperand(gep, 0));
  if (b->base < 0) { pointer_unknown(r, b->p.lane_varying); return; }
  int base = b->base;
  bool base_evaluable = b->evaluable;
  poly base_off = b->p, own;
  bool evaluable;
  gep_offset(ik, gep, &own, &evaluable);
  r->base = base;
  if (own.unknown || base_off.unknown) {
    r->p = own.unknown ? own : base_off;
    r->evaluable = evaluable && (base_evaluable || !base_off.unknown);
    return;
  }
  poly_add(&r->p, &base_off, &own, 1);
  r->evaluable = base_evaluable;
}

/* Whether call passes its argument i by value (byval): then the pointer
 * names a copy, of *bytes bytes. */
static bool byval_argument(LLVMValueRef call, unsigned i, long long *bytes, const device_code *code) {
  LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(call, i + 1, LLVMGetEnumAttributeKindForName("byval", 5));
  if (!a) return false;
  if (bytes && code) *bytes = (long long)LLVMABISizeOfType(code->layout, LLVMGetTypeAttributeValue(a));
  return true;
}

static bool argument_temporary(LLVMValueRef alloca) {
  for (LLVMUseRef u = LLVMGetFirstUse(alloca); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (!LLVMIsACallInst(user)) continue;
    unsigned n = LLVMGetNumArgOperands(user);
    for (unsigned i = 0; i < n; i++)
      if (LLVMGetOperand(user, i) == alloca && byval_argument(user, i, NULL, NULL)) return true;
  }
  return false;
}

/* The position of the kernel's parameter arg among its parameters. */
static int parameter_position(const ir_kernel *ik, LLVMValueRef arg) {
  unsigned n = LLVMCountParams(ik->fn);
  for (unsigned i = 0; i < n; i++)
    if (LLVMGetParam(ik->fn, i) == arg) return (int)i;
  return 0;
}

/* Whether v is a parameter of the kernel passed by value (byval): a
 * struct the kernel is handed, not a pointer into memory. */
static bool byval_parameter(const ir_kernel *ik, LLVMValueRef v) {
  return LLVMIsAArgument(v) &&
         LLVMGetEnumAttributeAtIndex(ik->fn, (unsigned)parameter_position(ik, v) + 1,
                                     LLVMGetEnumAttributeKindForName("byval", 5)) != NULL;
}

static bool only_read(LLVMValueRef v, LLVMValueRef copy, int depth);

/* Whether call only reads through its argument v: a function of the
 * user's that itself only reads through that parameter (a struct handed
 * on by const reference to a function not inlined). */
static bool call_only_reads(LLVMValueRef call, LLVMValueRef v, int depth) {
  LLVMValueRef callee = LLVMGetCalledValue(call);
  if (!callee || !LLVMIsAFunction(callee) || LLVMIsDeclaration(callee)) return false;
  unsigned n = LLVMGetNumArgOperands(call);
  for (unsigned i = 0; i < n; i++)
    if (LLVMGetOperand(call, i) == v && (i >= LLVMCountParams(callee) || !only_read(LLVMGetParam(callee, i), NULL, depth)))
      return false;
  return true;
}

/* Whether v's uses only read through it: loads, addresses computed or
 * chosen from it that are only read, and calls that only read (depth: how
 * far down they are followed). */
static bool only_read(LLVMValueRef v, LLVMValueRef copy, int depth) {
  for (LLVMUseRef u = LLVMGetFirstUse(v); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (user == copy || LLVMIsALoadInst(user)) continue;
    if (LLVMIsACallInst(user) && strncmp(callee_name(user), "llvm.lifetime", 13) == 0) continue;
    if (depth >= 6) return false;
    if ((LLVMIsAGetElementPtrInst(user) || LLVMIsABitCastInst(user) || LLVMIsAAddrSpaceCastInst(user) ||
         LLVMIsASelectInst(user) || LLVMIsAPHINode(user)) &&
        only_read(user, copy, depth + 1))
      continue;
    if (LLVMIsACallInst(user) && call_only_reads(user, v, depth + 1)) continue;
    return false;
  }
  return true;
}

/* Whether a private variable is a copy of a by-value parameter of the
 * kernel and is only read from (clang copies a parameter struct so when a
 * field is indexed at run time, and nvcc puts it in local memory): its
 * fields are then the parameter's, one value for the grid. */
static bool parameter_copied(ir_kernel *ik, LLVMValueRef alloca) {
  LLVMValueRef copy = NULL;
  for (LLVMUseRef u = LLVMGetFirstUse(alloca); u; u = LLVMGetNextUse(u)) {
    LLVMValueRef user = LLVMGetUser(u);
    if (LLVMIsACallInst(user) && strncmp(callee_name(user), "llvm.memcpy", 11) == 0 &&
        LLVMGetOperand(user, 0) == alloca) {
      if (copy) return false;
      copy = user;
    }
  }
  return copy && byval_parameter(ik, LLVMGetOperand(copy, 1)) && only_read(alloca, copy, 0);
}

static void eval_instruction(ir_kernel *ik, LLVMValueRef v, ir_value *r) {
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  switch (op) {
  case LLVMPHI: eval_phi(ik, v, r); return;
  case LLVMSelect: eval_select(ik, v, r); return;
  case LLVMLoad: eval_load(ik, v, r); return;
  case LLVMCall: eval_call(ik, v, r); return;
  case LLVMGetElementPtr: eval_gep(ik, v, r); return;
  case LLVMAlloca:
    /* a temporary holding an argument passed by value (byval) is the
     * call's business, not a private array */
    r->base = new_base(ik, argument_temporary(v) ? BASE_BYVAL : BASE_ALLOCA, v, SP_LOCAL);
    ik->bases[r->base].parameter_copy = parameter_copied(ik, v);
    poly_const(&r->p, 0);
    return;
  case LLVMAddrSpaceCast:
  case LLVMBitCast:
  case LLVMFreeze: {
    const ir_value *s = value_of(ik, LLVMGetOperand(v, 0));
    r->p = s->p;
    r->base = s->base;
    r->evaluable = s->evaluable;
    return;
  }
  case LLVMZExt:
  case LLVMSExt:
  case LLVMTrunc: {
    LLVMValueRef src = LLVMGetOperand(v, 0);
    const ir_value *s = value_of(ik, src);
    /* a comparison widened to 0 or 1 is a value of its own */
    if (LLVMGetIntTypeWidth(LLVMTypeOf(src)) == 1 && !s->p.unknown && s->p.count) {
      nonlinear(ik, v, r, true);
      if (!r->p.unknown && r->p.count == 1 && r->p.terms[0].degree == 1)
        ik->k->atoms[r->p.terms[0].atoms[0]].boolean = true;
      return;
    }
    r->p = s->p;
    r->evaluable = s->evaluable;
    return;
  }
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMLShr: case LLVMAShr:
  case LLVMUDiv: case LLVMSDiv: case LLVMURem: case LLVMSRem: case LLVMAnd: case LLVMOr: case LLVMXor:
    eval_binary(ik, v, r);
    return;
  case LLVMAtomicRMW:
  case LLVMAtomicCmpXchg:
    /* each lane gets its own old value, at one address too (a slot handed
     * out by atomicAdd(&next, 1)) */
    lane_varying(&r->p, true);
    return;
  case LLVMExtractElement:
    /* a field of fields loaded together (clang reads two neighbouring int
     * fields of a parameter struct in one <2 x i32> load): a size as a
     * scalar load gives it, which may scale a stride */
    nonlinear(ik, v, r, !LLVMIsALoadInst(LLVMGetOperand(v, 0)));
    return;
  default:
    nonlinear(ik, v, r, true);
    return;
  }
}

static const ir_value *value_of(ir_kernel *ik, LLVMValueRef v) {
  int i = map_get(&ik->value_of, v);
  if (i >= 0) {
    ir_value *r = value_at(ik, i);
    if (!r->busy) return r;
    static _Thread_local ir_value cycle;   /* a loop-carried value met again: not known here */
    memset(&cycle, 0, sizeof cycle);
    cycle.base = -1;
    cycle.busy = true;
    poly_unknown(&cycle.p, false);
    return &cycle;
  }
  ir_value scratch;
  memset(&scratch, 0, sizeof scratch);
  scratch.base = -1;
  scratch.pointer = is_pointer(v);
  if (ik->depth > ik->max_depth) {         /* too deep to follow: unknown, taken to vary */
    lane_varying(&scratch.p, false);
    ir_value *r = slot(ik, v);
    *r = scratch;
    return r;
  }
  ir_value *r = slot(ik, v);
  r->busy = true;
  r->pointer = scratch.pointer;
  ik->depth++;
  if (LLVMIsAConstantInt(v)) {
    poly_const(&scratch.p, LLVMGetIntTypeWidth(LLVMTypeOf(v)) == 1 ? (long long)LLVMConstIntGetZExtValue(v)
                                                                    : LLVMConstIntGetSExtValue(v));
  } else if (LLVMIsAArgument(v)) {
    int position = parameter_position(ik, v);
    if (scratch.pointer) {
      scratch.base = new_base(ik, byval_parameter(ik, v) ? BASE_BYVAL : BASE_ARG, v, SP_GLOBAL);
      ik->bases[scratch.base].arg = position;
      poly_const(&scratch.p, 0);
    } else {
      char name[64];
      ir_param_name(ik->scope, position, name, sizeof name);
      int atom = new_atom(ik->k, ATOMK_PARAM, name);
      ik->k->atoms[atom].flag = flag_name(name);
      poly_atom(&scratch.p, atom);
    }
  } else if (LLVMIsAGlobalVariable(v)) {
    scratch.base = global_base(ik, v);
    poly_const(&scratch.p, 0);
  } else if (LLVMIsAConstantExpr(v)) {
    LLVMOpcode op = LLVMGetConstOpcode(v);
    if (op == LLVMAddrSpaceCast || op == LLVMBitCast) {
      const ir_value *s = value_of(ik, LLVMGetOperand(v, 0));
      scratch.p = s->p;
      scratch.base = s->base;
    } else if (op == LLVMGetElementPtr) {
      eval_gep(ik, v, &scratch);
    } else {
      poly_unknown(&scratch.p, false);
    }
  } else if (no_pointer(v)) {
    poly_unknown(&scratch.p, false);
  } else if (LLVMIsAConstant(v)) {
    uniform_atom(ik, "(constant)", false, false, &scratch.p);
  } else if (LLVMIsAInstruction(v)) {
    eval_instruction(ik, v, &scratch);
  } else {
    poly_unknown(&scratch.p, false);
  }
  ik->depth--;
  scratch.busy = false;
  scratch.pointer = r->pointer;
  *r = scratch;
  return r;
}

/* ---- lanes one by one ---- */

static enum CXBinaryOperatorKind compare_kind(LLVMIntPredicate p) {
  switch (p) {
  case LLVMIntEQ: return CXBinaryOperator_EQ;
  case LLVMIntNE: return CXBinaryOperator_NE;
  case LLVMIntSLT: case LLVMIntULT: return CXBinaryOperator_LT;
  case LLVMIntSLE: case LLVMIntULE: return CXBinaryOperator_LE;
  case LLVMIntSGT: case LLVMIntUGT: return CXBinaryOperator_GT;
  default: return CXBinaryOperator_GE;
  }
}

/* -1 for a call of an integer min (the intrinsic clang makes of min(), or
 * the function itself where the stand-in headers only declare it), +1 for
 * a max, 0 for any other function. */
static int min_or_max(const char *name) {
  static const char *const mins[] = {"llvm.smin", "llvm.umin", "_Z3min", "_Z4umin", "_Z5llmin", "_Z6ullmin"};
  static const char *const maxs[] = {"llvm.smax", "llvm.umax", "_Z3max", "_Z4umax", "_Z5llmax", "_Z6ullmax"};
  for (size_t i = 0; i < sizeof mins / sizeof *mins; i++) {
    if (strncmp(name, mins[i], strlen(mins[i])) == 0) return -1;
    if (strncmp(name, maxs[i], strlen(maxs[i])) == 0) return 1;
  }
  return 0;
}

static bool ir_lanes(ir_kernel *ik, LLVMValueRef v, int warp, lane_vals *out, int depth);
static bool operand_lanes(ir_kernel *ik, LLVMValueRef v, int warp, lane_vals *out, int depth);

/* Whether p holds an atom for a value the kernel computes from its block
 * index (blockIdx.x / n, a block's share of a run-time count), not loaded
 * nor carried by a loop: the probe's block index and sizes fix it. */
static bool computed_atom(const kernel_ctx *k, const poly *p) {
  for (int i = 0; i < p->count; i++)
    for (int a = 0; a < p->terms[i].degree; a++) {
      const atom_info *atom = &k->atoms[p->terms[i].atoms[a]];
      if (atom->kind == ATOMK_UNIFORM && atom->per_block && !atom->loaded && !atom->loop_carried) return true;
    }
  return false;
}

/* Whether v, whose lanes are `at`, is one run-time value for the warp: a
 * size, or a value loaded or computed that no constant fixes. */
static bool runtime_bound(ir_kernel *ik, LLVMValueRef v, const lane_vals *at) {
  const poly *p = &value_of(ik, v)->p;
  long long c;
  return lanes_invariant(at) && (p->unknown || (!poly_is_const(p, &c) && uniform(ik, p)));
}

/* (x << c) >> c, arithmetic: the compiler's sign extension of x's low
 * 64 - c bits (an int index computed in 64 bits, (int)(tid / ny)); x
 * itself where every lane's x fits in them. */
static bool sign_extension(ir_kernel *ik, LLVMValueRef v, int warp, lane_vals *out, int depth) {
  LLVMValueRef shl = LLVMGetOperand(v, 0), amount = LLVMGetOperand(v, 1);
  if (!LLVMIsAInstruction(shl) || LLVMGetInstructionOpcode(shl) != LLVMShl || !LLVMIsAConstantInt(amount) ||
      LLVMGetOperand(shl, 1) != amount)
    return false;
  long long c = LLVMConstIntGetSExtValue(amount);
  unsigned bits = LLVMGetIntTypeWidth(LLVMTypeOf(v));
  if (c <= 0 || c >= (long long)bits || bits - c > 62 || !ir_lanes(ik, LLVMGetOperand(shl, 0), warp, out, depth + 1))
    return false;
  long long limit = 1LL << (bits - c - 1);
  for (int l = 0; l < 32; l++)
    if (out->v[l] < -limit || out->v[l] >= limit) return false;
  return true;
}

/* On the first turn of a loop around the access being evaluated, a value
 * of the loop's header (offset *= 2, d >>= 1: no counter the polynomial
 * can carry) is the one it enters the loop with. */
static LLVMValueRef first_turn_value(ir_kernel *ik, LLVMValueRef phi) {
  int loop = loop_of_header(ik, block_index(ik, phi));
  if (loop < 0 || !ik->loops[loop].body[ik->first_turn - 1]) return NULL;
  LLVMValueRef init, next;
  loop_arms(ik, phi, loop, &init, &next);
  return init;
}

/* Whether v is an atomic's old value (the stand-ins' atomicAdd is a call). */
static bool atomic_result(LLVMValueRef v) {
  return LLVMIsAAtomicRMWInst(v) || LLVMIsAAtomicCmpXchgInst(v) ||
         (LLVMIsACallInst(v) && strstr(callee_name(v), "atomic"));
}

/* Whether load v reads one address for every lane of warp w (lang_id[b]
 * with b = i / (beam * hidden), run-time sizes at the probe's values): its
 * value is then one for the warp. Its address may hold no loaded value. */
static bool loaded_once_per_warp(ir_kernel *ik, LLVMValueRef v, int warp, int depth) {
  if (!LLVMIsALoadInst(v) || depth > 24) return false;
  int probe = ik->probe_data;
  ik->probe_data = PROBE_DATA_OFF;
  lane_vals at;
  bool one = ir_lanes(ik, LLVMGetOperand(v, 0), warp, &at, depth + 1) && lanes_invariant(&at);
  ik->probe_data = probe;
  return one;
}

/* A comparison, or one widened to an integer. */
static bool boolean_value(LLVMValueRef v) {
  if (LLVMIsAICmpInst(v)) return true;
  return (LLVMIsAZExtInst(v) || LLVMIsASExtInst(v)) && LLVMGetIntTypeWidth(LLVMTypeOf(LLVMGetOperand(v, 0))) == 1;
}

static bool uses_boolean_atom(const kernel_ctx *k, const poly *p) {
  for (int i = 0; i < p->count; i++)
    for (int a = 0; a < p->terms[i].degree; a++)
      if (k->atoms[p->terms[i].atoms[a]].boolean) return true;
  return false;
}

/* Whether instruction v is computed in the loop whose later turn is being
 * evaluated. */
static bool computed_in_turn_loop(const ir_kernel *ik, LLVMValueRef v) {
  int b = block_index(ik, v);
  return b >= 0 && ik->loops[ik->turn_loop - 1].body[b];
}

/* v's value (an integer, or a pointer's byte offset from its base) for
 * each lane of warp w, with a uniform unknown carried as `shifted`. */
static bool ir_lanes(ir_kernel *ik, LLVMValueRef v, int warp, lane_vals *out, int depth) {
  if (ik->first_turn && LLVMIsAPHINode(v) && depth <= 24) {
    if (ik->turn > 0 && block_index(ik, v) == ik->loops[ik->turn_loop - 1].header) {
      /* on turn t the value the loop computed on turn t - 1 (the depth
       * stays: the turns bound this recursion) */
      LLVMValueRef init, next;
      loop_arms(ik, v, ik->turn_loop - 1, &init, &next);
      if (!next) return false;
      ik->turn--;
      bool ok = ir_lanes(ik, next, warp, out, depth);
      ik->turn++;
      return ok;
    }
    LLVMValueRef entry = first_turn_value(ik, v);
    if (entry) return ir_lanes(ik, entry, warp, out, depth + 1);
  }
  /* on a later turn what the loop computes has its value only through the
   * header's phis (a counter in a polynomial would be unknown): from the
   * operands; what it loads or joins from lane-varying paths has none */
  if (ik->turn_loop && LLVMIsAInstruction(v) && computed_in_turn_loop(ik, v)) {
    if (depth > 24 || LLVMIsALoadInst(v) || atomic_result(v) || (LLVMIsAPHINode(v) && !ik->any_arm)) return false;
    return operand_lanes(ik, v, warp, out, depth);
  }
  const ir_value *r = value_of(ik, v);
  /* S_5's requests: a comparison widened to 0 or 1 has its value from its
   * operands (a selector's dir == 0), not the probe's */
  if (ik->apart_unknowns && (boolean_value(v) || (!r->p.unknown && uses_boolean_atom(ik->k, &r->p))) && depth <= 24 &&
      LLVMIsAInstruction(v) && operand_lanes(ik, v, warp, out, depth))
    return true;
  if (!r->p.unknown) {
    /* a value made an atom (blockIdx.x / n) would take a probe value of
     * its own, unrelated to the block index and sizes it is computed from:
     * from them */
    if (ik->k->probe_uniform && computed_atom(ik->k, &r->p) && depth <= 24 && LLVMIsAInstruction(v) &&
        operand_lanes(ik, v, warp, out, depth))
      return true;
    if (poly_lanes(ik->k, &r->p, warp, out)) {
      ik->per_warp_values = ik->per_warp_values || from_threads_atom(ik->k, &r->p);
      return true;
    }
    /* a loop's value times a lane's (offset * (2 * k + 1)): from the
     * operands, where the loop's value is its first turn's */
    return ik->first_turn && depth <= 24 && LLVMIsAInstruction(v) && operand_lanes(ik, v, warp, out, depth);
  }
  if (ik->k->probe_uniform && !r->p.lane_varying) {     /* a uniform unknown: the probe's value */
    /* one computed in the loop whose later turn is asked for (a value
     * loaded each turn) is not the probe's on every turn */
    if (ik->turn_loop && LLVMIsAInstruction(v) && computed_in_turn_loop(ik, v)) return false;
    /* two reads at two unknowns (a table's two entries) are not alike */
    long long apart = ik->apart_unknowns ? ik->k->probe_spread * apart_steps(map_get(&ik->value_of, v)) : 0;
    ik->per_warp_values = true;
    lanes_fill(out, ik->k->probe_uniform + apart, false);
    return true;
  }
  /* model_without_data: a value loaded, returned by an atomic, or counted
   * per lane (a phi no counter carries: nk++ under a condition, whose arms
   * would give the count of one path, not one per lane) */
  bool counted = ik->probe_data && r->p.lane_varying && LLVMIsAPHINode(v);
  if (counted && depth <= 24) {
    /* a guard's constant beside one computed arm (rank * n moved into the
     * branch that counted, 0 on the other): the computed arm */
    LLVMValueRef computed = NULL;
    int computed_arms = 0;
    for (unsigned i = 0; i < LLVMCountIncoming(v); i++)
      if (!LLVMIsAConstant(LLVMGetIncomingValue(v, i))) computed = LLVMGetIncomingValue(v, i), computed_arms++;
    if (computed_arms == 1 && computed != v) return ir_lanes(ik, computed, warp, out, depth + 1);
  }
  if (!counted && (r->evaluable || (ik->any_arm && LLVMIsAPHINode(v))) && depth <= 24 && LLVMIsAInstruction(v) &&
      operand_lanes(ik, v, warp, out, depth))
    return true;
  /* one such value: several (a cell's three coordinates, a bin's start
   * plus a slot) make a scatter, no stride */
  if (ik->probe_data && r->p.lane_varying && (counted || LLVMIsALoadInst(v) || atomic_result(v))) {
    /* one value for the warp (a row loaded per batch) moves its lanes alike */
    if (loaded_once_per_warp(ik, v, warp, depth)) {
      lanes_fill(out, 0, false);
      return true;
    }
    if (ik->probe_leaf && ik->probe_leaf != v) return false;
    ik->probe_leaf = v;
    for (int l = 0; l < 32; l++) out->v[l] = ik->probe_data == PROBE_DATA_LANE ? l : 0;
    out->shifted = false;
    return true;
  }
  return false;
}

/* Which of the few functions fp_lanes evaluates callee is (clang's
 * intrinsic, NVVM's, libdevice's, the C library's or std's spelling, as
 * the toolkit or the stand-in headers leave it): 's'qrt, 'f'loor, 'c'eil,
 * 't'runc, 'a'bs; 0 for any other. */
static char fp_function(const char *callee) {
  static const struct { const char *name; char kind; } known[] = {
      {"sqrt", 's'}, {"floor", 'f'}, {"ceil", 'c'}, {"trunc", 't'}, {"fabs", 'a'}};
  static const char *const prefixes[] = {"llvm.nvvm.", "llvm.", "__nv_", "_ZSt", "_Z", ""};
  const char *name = callee;
  for (size_t p = 0; p < sizeof prefixes / sizeof prefixes[0]; p++)
    if (strncmp(callee, prefixes[p], strlen(prefixes[p])) == 0) {
      name = callee + strlen(prefixes[p]);
      break;
    }
  while (*name >= '0' && *name <= '9') name++;     /* a mangled name's length */
  for (size_t i = 0; i < sizeof known / sizeof known[0]; i++) {
    size_t len = strlen(known[i].name);
    /* floor, floor.f32, floorf, _Z5floord, _Z6floorff: the name, then a
     * type's suffix or a mangled parameter type */
    const char *rest = name + len;
    if (strncmp(name, known[i].name, len) == 0 &&
        (*rest == '.' || (strspn(rest, "fd") == strlen(rest) && strlen(rest) <= 2)))
      return known[i].kind;
  }
  return 0;
}

/* A floating-point v's value for each lane of warp w, where it is computed
 * from lane indices (a spline's interval floor(point - p), a triangle's
 * row from a square root): integers converted, constants, + - * /, square
 * roots, floors; a value loaded as the probe takes it (0). */
static bool fp_lanes(ir_kernel *ik, LLVMValueRef v, int warp, double *out, int depth) {
  if (depth > 24) return false;
  if (LLVMIsAConstantFP(v)) {
    LLVMBool lossy;
    double c = LLVMConstRealGetDouble(v, &lossy);
    for (int l = 0; l < 32; l++) out[l] = c;
    return true;
  }
  if (LLVMIsALoadInst(v) && ik->probe_data) {
    /* one value for the warp (a fit's shift) moves every lane alike; one
     * per lane is the one loaded value the probe allows, as ir_lanes
     * takes an integer's */
    if (!loaded_once_per_warp(ik, v, warp, depth)) {
      if (ik->probe_leaf && ik->probe_leaf != v) return false;
      ik->probe_leaf = v;
    }
    for (int l = 0; l < 32; l++) out[l] = 0;
    return true;
  }
  if (!LLVMIsAInstruction(v)) return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  double a[32], b[32];
  switch (op) {
  case LLVMSIToFP: case LLVMUIToFP: {
    lane_vals x;
    if (!ir_lanes(ik, LLVMGetOperand(v, 0), warp, &x, depth + 1) || x.shifted) return false;
    for (int l = 0; l < 32; l++) out[l] = (double)x.v[l];
    return true;
  }
  case LLVMFPExt: case LLVMFPTrunc:
    return fp_lanes(ik, LLVMGetOperand(v, 0), warp, out, depth + 1);
  case LLVMFNeg:
    if (!fp_lanes(ik, LLVMGetOperand(v, 0), warp, a, depth + 1)) return false;
    for (int l = 0; l < 32; l++) out[l] = -a[l];
    return true;
  case LLVMFAdd: case LLVMFSub: case LLVMFMul: case LLVMFDiv:
    if (!fp_lanes(ik, LLVMGetOperand(v, 0), warp, a, depth + 1) ||
        !fp_lanes(ik, LLVMGetOperand(v, 1), warp, b, depth + 1))
      return false;
    for (int l = 0; l < 32; l++) {
      if (op == LLVMFDiv && b[l] == 0) return false;
      out[l] = op == LLVMFAdd ? a[l] + b[l] : op == LLVMFSub ? a[l] - b[l] : op == LLVMFMul ? a[l] * b[l] : a[l] / b[l];
    }
    return true;
  case LLVMCall: {
    char kind = fp_function(callee_name(v));
    if (!kind || LLVMGetNumArgOperands(v) != 1 || !fp_lanes(ik, LLVMGetOperand(v, 0), warp, a, depth + 1)) return false;
    for (int l = 0; l < 32; l++) {
      if (kind == 's' && a[l] < 0) return false;
      out[l] = kind == 's' ? sqrt(a[l]) : kind == 'f' ? floor(a[l]) : kind == 'c' ? ceil(a[l])
               : kind == 't' ? trunc(a[l]) : fabs(a[l]);
    }
    return true;
  }
  default:
    return false;
  }
}

/* v's lanes from its operands' (an instruction that is no polynomial). */
static bool operand_lanes(ir_kernel *ik, LLVMValueRef v, int warp, lane_vals *out, int depth) {
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  lane_vals a, b, c;
  switch (op) {
  case LLVMFPToSI: case LLVMFPToUI: {
    double x[32];
    if (!fp_lanes(ik, LLVMGetOperand(v, 0), warp, x, depth + 1)) return false;
    for (int l = 0; l < 32; l++) {
      if (!(fabs(x[l]) < (double)(1LL << 52))) return false;       /* NaN too */
      out->v[l] = (long long)x[l];
    }
    out->shifted = false;
    return true;
  }
  case LLVMZExt: case LLVMSExt: case LLVMTrunc: case LLVMAddrSpaceCast: case LLVMBitCast: case LLVMFreeze:
    return ir_lanes(ik, LLVMGetOperand(v, 0), warp, out, depth + 1);
  case LLVMAdd: case LLVMSub: case LLVMMul: case LLVMShl: case LLVMUDiv: case LLVMSDiv: case LLVMURem:
  case LLVMSRem: case LLVMLShr: case LLVMAShr: case LLVMAnd: case LLVMOr: case LLVMXor:
    if (op == LLVMAShr && sign_extension(ik, v, warp, out, depth)) return true;
    if (!ir_lanes(ik, LLVMGetOperand(v, 0), warp, &a, depth + 1) ||
        !ir_lanes(ik, LLVMGetOperand(v, 1), warp, &b, depth + 1))
      return false;
    if (op == LLVMAdd || op == LLVMSub || (op == LLVMOr && LLVMGetIsDisjoint(v))) {
      for (int l = 0; l < 32; l++) out->v[l] = op == LLVMSub ? a.v[l] - b.v[l] : a.v[l] + b.v[l];
      out->shifted = a.shifted || b.shifted;
      return lanes_in_range(out, -(1LL << 40));
    }
    if (op == LLVMMul) return lanes_mul(&a, &b, out);
    if (op == LLVMShl) {
      if (b.shifted || !lanes_invariant(&b) || b.v[0] < 0 || b.v[0] > 30) return false;
      lanes_fill(&c, 1LL << b.v[0], false);
      return lanes_mul(&a, &c, out);
    }
    return lanes_exact_op(op == LLVMUDiv || op == LLVMSDiv   ? CXBinaryOperator_Div
                          : op == LLVMURem || op == LLVMSRem ? CXBinaryOperator_Rem
                          : op == LLVMLShr || op == LLVMAShr ? CXBinaryOperator_Shr
                          : op == LLVMAnd                    ? CXBinaryOperator_And
                          : op == LLVMOr                     ? CXBinaryOperator_Or
                                                             : CXBinaryOperator_Xor,
                          &a, &b, out);
  case LLVMICmp:
    if (!ir_lanes(ik, LLVMGetOperand(v, 0), warp, &a, depth + 1) ||
        !ir_lanes(ik, LLVMGetOperand(v, 1), warp, &b, depth + 1))
      return false;
    return lanes_compare(compare_kind(LLVMGetICmpPredicate(v)), &a, &b, out);
  case LLVMSelect:
    if (!ir_lanes(ik, LLVMGetOperand(v, 0), warp, &c, depth + 1) || c.shifted ||
        !ir_lanes(ik, LLVMGetOperand(v, 1), warp, &a, depth + 1) ||
        !ir_lanes(ik, LLVMGetOperand(v, 2), warp, &b, depth + 1))
      return false;
    for (int l = 0; l < 32; l++) out->v[l] = c.v[l] ? a.v[l] : b.v[l];
    out->shifted = a.shifted || b.shifted;
    return !out->shifted || (lanes_invariant(&a) && lanes_invariant(&b));
  case LLVMGetElementPtr: {
    /* the base's lanes plus each index's lanes times its step */
    if (!ir_lanes(ik, LLVMGetOperand(v, 0), warp, out, depth + 1)) return false;
    LLVMTypeRef t = LLVMGetGEPSourceElementType(v);
    unsigned n = LLVMGetNumOperands(v);
    for (unsigned i = 1; i < n; i++) {
      LLVMValueRef idx = LLVMGetOperand(v, i);
      if (i > 1) {
        if (LLVMGetTypeKind(t) == LLVMStructTypeKind) {
          unsigned field = (unsigned)LLVMConstIntGetZExtValue(idx);
          long long at = (long long)LLVMOffsetOfElement(ik->code->layout, t, field);
          for (int l = 0; l < 32; l++) out->v[l] += at;
          t = LLVMStructGetTypeAtIndex(t, field);
          continue;
        }
        t = LLVMGetElementType(t);
      }
      if (!ir_lanes(ik, idx, warp, &a, depth + 1)) return false;
      lanes_fill(&c, (long long)LLVMABISizeOfType(ik->code->layout, t), false);
      if (!lanes_mul(&a, &c, &b)) return false;
      for (int l = 0; l < 32; l++) out->v[l] += b.v[l];
      out->shifted = out->shifted || b.shifted;
    }
    return lanes_in_range(out, -(1LL << 40));
  }
  case LLVMPHI:
    /* a join under a warp-uniform branch (eval_phi): one arm for the warp */
    for (unsigned i = 0; i < LLVMCountIncoming(v); i++) {
      LLVMValueRef in = LLVMGetIncomingValue(v, i);
      if (no_pointer(in) || keeps_only(in, v) || !ir_lanes(ik, in, warp, out, depth + 1)) continue;
      for (unsigned j = i + 1; ik->branching && j < LLVMCountIncoming(v); j++) {
        lane_vals other;
        LLVMValueRef arm = LLVMGetIncomingValue(v, j);
        if (!no_pointer(arm) && !keeps_only(arm, v) && !ir_lanes(ik, arm, warp, &other, depth + 1)) return false;
      }
      return true;
    }
    return false;
  case LLVMCall: {
    int pick = min_or_max(callee_name(v));
    bool min = pick < 0, max = pick > 0;
    if ((!min && !max) || !ir_lanes(ik, LLVMGetOperand(v, 0), warp, &a, depth + 1) ||
        !ir_lanes(ik, LLVMGetOperand(v, 1), warp, &b, depth + 1) || a.shifted || b.shifted)
      return false;
    /* a clamp to a bound known only at run time (min(i, n - 1), n a size
     * or a table's length loaded for the warp) is taken inside the data,
     * where it does not bind: the bound's value is the probe's choice */
    bool a_bound = runtime_bound(ik, LLVMGetOperand(v, 0), &a), b_bound = runtime_bound(ik, LLVMGetOperand(v, 1), &b);
    if (a_bound != b_bound && !lanes_invariant(b_bound ? &a : &b)) {
      *out = b_bound ? a : b;
      return true;
    }
    for (int l = 0; l < 32; l++) out->v[l] = min == (a.v[l] < b.v[l]) ? a.v[l] : b.v[l];
    out->shifted = false;
    return true;
  }
  default:
    return false;
  }
}

/* A guard on a run of consecutive lanes' count modulo a constant
 * (idx % NCRIT == 0, (tid & 7) == 1) whose other part the lanes cannot be
 * evaluated for (a block of run-time size): the lanes it keeps, with that
 * part taken as a multiple of 32 (a warp starts a 32-thread row of its
 * block), so that `% 64 == 0` keeps one lane, `% 4 == 0` eight. */
static bool modular_guard_lanes(ir_kernel *ik, LLVMValueRef cond, unsigned *t, unsigned *f) {
  if (!LLVMIsAICmpInst(cond)) return false;
  LLVMIntPredicate pred = LLVMGetICmpPredicate(cond);
  LLVMValueRef count = strip_int_casts(LLVMGetOperand(cond, 0)), want = LLVMGetOperand(cond, 1);
  if ((pred != LLVMIntEQ && pred != LLVMIntNE) || !LLVMIsAConstantInt(want) || !LLVMIsABinaryOperator(count) ||
      !LLVMIsAConstantInt(LLVMGetOperand(count, 1)))
    return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(count);
  long long c = LLVMConstIntGetSExtValue(LLVMGetOperand(count, 1)), modulus = 0;
  if (op == LLVMURem || op == LLVMSRem) modulus = c;
  else if (op == LLVMAnd && c > 0 && (c & (c + 1)) == 0) modulus = c + 1;
  if (modulus < 2) return false;
  const poly *x = int_of(ik, LLVMGetOperand(count, 0));
  poly lane, rest, tx;
  if (x->unknown) return false;
  lane_split(ik->k, x, &lane, &rest);
  poly_atom(&tx, ATOM_TX);
  long long start, kept = ((LLVMConstIntGetSExtValue(want) % modulus) + modulus) % modulus;
  if (!poly_equal(&lane, &tx)) return false;
  poly_split_constant(&rest, &start);
  *t = *f = 0;
  for (int l = 0; l < 32; l++) {
    bool holds = (((start + l) % modulus) + modulus) % modulus == kept;
    if (pred == LLVMIntNE) holds = !holds;
    if (holds) *t |= 1u << l;
    else *f |= 1u << l;
  }
  return true;
}

/* Which lanes of warp w take each side of a branch on cond (both, where
 * they cannot be told). */
static void condition_lanes(ir_kernel *ik, LLVMValueRef cond, int warp, unsigned *t, unsigned *f, int depth) {
  *t = *f = 0xffffffffu;
  if (depth > 16 || !LLVMIsAInstruction(cond)) {
    long long c;
    if (poly_is_const(int_of(ik, cond), &c)) { if (c) *f = 0; else *t = 0; }
    return;
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(cond);
  unsigned t1, f1, t2, f2;
  if ((op == LLVMAnd || op == LLVMOr) && LLVMGetIntTypeWidth(LLVMTypeOf(cond)) == 1) {
    condition_lanes(ik, LLVMGetOperand(cond, 0), warp, &t1, &f1, depth + 1);
    condition_lanes(ik, LLVMGetOperand(cond, 1), warp, &t2, &f2, depth + 1);
    *t = op == LLVMAnd ? t1 & t2 : t1 | t2;
    *f = op == LLVMAnd ? f1 | f2 : f1 & f2;
    return;
  }
  if (op == LLVMXor && LLVMGetIntTypeWidth(LLVMTypeOf(cond)) == 1 && LLVMIsAConstantInt(LLVMGetOperand(cond, 1)) &&
      LLVMConstIntGetZExtValue(LLVMGetOperand(cond, 1))) {
    condition_lanes(ik, LLVMGetOperand(cond, 0), warp, f, t, depth + 1);
    return;
  }
  if (op == LLVMSelect && LLVMGetIntTypeWidth(LLVMTypeOf(cond)) == 1) {
    /* a && b as select a, b, false; a || b as select a, true, b */
    LLVMValueRef x = LLVMGetOperand(cond, 1), y = LLVMGetOperand(cond, 2);
    bool and_form = LLVMIsAConstantInt(y) && !LLVMConstIntGetZExtValue(y);
    bool or_form = LLVMIsAConstantInt(x) && LLVMConstIntGetZExtValue(x);
    if (and_form || or_form) {
      condition_lanes(ik, LLVMGetOperand(cond, 0), warp, &t1, &f1, depth + 1);
      condition_lanes(ik, and_form ? x : y, warp, &t2, &f2, depth + 1);
      *t = and_form ? t1 & t2 : t1 | t2;
      *f = and_form ? f1 | f2 : f1 & f2;
      return;
    }
  }
  lane_vals v;
  bool was_branching = ik->branching;
  ik->branching = true;
  bool known = ir_lanes(ik, cond, warp, &v, 0) && !v.shifted;
  ik->branching = was_branching;
  if (!known) {
    modular_guard_lanes(ik, cond, t, f);
    return;
  }
  *t = *f = 0;
  for (int l = 0; l < 32; l++) {
    if (v.v[l]) *t |= 1u << l;
    else *f |= 1u << l;
  }
}

/* The lanes of each warp that reach each block: the entry's from the
 * block shape, then along the branches until nothing changes. */
static void reach_blocks_from(ir_kernel *ik, const unsigned *entry) {
  kernel_ctx *k = ik->k;
  for (int b = 0; b < ik->block_count; b++) memset(ik->blocks[b].active, 0, sizeof ik->blocks[b].active);
  memcpy(ik->blocks[0].active, entry, sizeof ik->blocks[0].active);
  int *order = calloc((size_t)ik->block_count, sizeof *order), n = 0;
  if (!order) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  for (int r = 0; r < ik->block_count; r++)
    for (int b = 0; b < ik->block_count; b++)
      if (ik->blocks[b].rpo == r) order[n++] = b;
  for (int round = 0; round < 64; round++) {
    bool changed = false;
    for (int i = 0; i < n; i++) {
      ir_block *b = &ik->blocks[order[i]];
      LLVMValueRef term = LLVMGetBasicBlockTerminator(b->bb);
      bool conditional = term && LLVMIsABranchInst(term) && LLVMIsConditional(term);
      for (int w = 0; w < k->warps; w++) {
        if (!b->active[w]) continue;
        unsigned t = 0xffffffffu, f = 0xffffffffu;
        if (conditional) condition_lanes(ik, LLVMGetCondition(term), w, &t, &f, 0);
        for (int s = 0; s < b->nsucc; s++) {
          unsigned lanes = b->active[w] & (!conditional ? 0xffffffffu : s == 0 ? t : f);
          unsigned *to = &ik->blocks[b->succ[s]].active[w];
          if ((*to | lanes) != *to) { *to |= lanes; changed = true; }
        }
      }
    }
    if (!changed) break;
  }
  free(order);
}

static void reach_blocks(ir_kernel *ik) { reach_blocks_from(ik, ik->k->active); }

/* Loops that lanes may leave at different iterations: an exit branch on a
 * lane-varying condition. */
static void find_divergent_exits(ir_kernel *ik) {
  for (int l = 0; l < ik->loop_count; l++) {
    ir_loop *loop = &ik->loops[l];
    for (int b = 0; b < ik->block_count && !loop->divergent_exit; b++) {
      if (!loop->body[b]) continue;
      bool exits = false;
      for (int s = 0; s < ik->blocks[b].nsucc; s++) exits = exits || !loop->body[ik->blocks[b].succ[s]];
      LLVMValueRef cond = exits ? branch_condition(ik, b) : NULL;
      if (cond && !uniform(ik, int_of(ik, cond))) loop->divergent_exit = true;
    }
  }
}

/* ---- where an instruction is in the user's code ---- */

/* The file of a debug-info scope, as a path. */
static void scope_path(LLVMMetadataRef scope, char *path, size_t size) {
  LLVMMetadataRef f = scope ? LLVMDIScopeGetFile(scope) : NULL;
  *path = 0;
  if (!f) return;
  unsigned dlen, flen;
  const char *dir = LLVMDIFileGetDirectory(f, &dlen), *name = LLVMDIFileGetFilename(f, &flen);
  if (flen && name[0] != '/' && dlen) snprintf(path, size, "%.*s/%.*s", (int)dlen, dir, (int)flen, name);
  else snprintf(path, size, "%.*s", (int)flen, name);
}

/* The innermost debug location of inst in a file of the user's (not a
 * system header, not the toolkit, not warplint's stand-ins); an access
 * (fields_to_caller) in a helper that reads a field of what it was
 * passed is its caller's. */
static bool located(ir_kernel *ik, LLVMValueRef inst, bool fields_to_caller, CXFile *file, unsigned *line,
                    unsigned *column) {
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);
  for (int hops = 0; loc && hops < 64; hops++, loc = LLVMDILocationGetInlinedAt(loc)) {

    char path[4096];
    scope_path(LLVMDILocationGetScope(loc), path, sizeof path);
    if (!*path) continue;
    CXFile cf = ir_user_file(ik->scope, path);
    if (!cf) continue;
    /* an accessor (a getter, a proxy's operator=), or a helper's read of
     * a field of what it was passed, is reported where it is called: that
     * is where the element is chosen */
    LLVMMetadataRef scope = LLVMDILocationGetScope(loc);
    if (LLVMDILocationGetInlinedAt(loc) &&
        ((scope && LLVMGetMetadataKind(scope) == LLVMDISubprogramMetadataKind &&
          ir_accessor_at(ik->scope, cf, LLVMDISubprogramGetLine(scope), LLVMDILocationGetLine(loc))) ||
         (fields_to_caller &&
          ir_parameter_field_at(ik->scope, cf, LLVMDILocationGetLine(loc), LLVMDILocationGetColumn(loc)))))
      continue;
    *file = cf;
    *line = LLVMDILocationGetLine(loc);
    *column = LLVMDILocationGetColumn(loc);
    return *line > 0;
  }
  return false;
}

/* Where an access is, for its findings. */
static bool user_location(ir_kernel *ik, LLVMValueRef inst, CXFile *file, unsigned *line, unsigned *column) {
  return located(ik, inst, true, file, line, column);
}

/* Where a value is read, for its name (dims.na in the helper that reads
 * it, not the helper's call). */
static bool value_location(ir_kernel *ik, LLVMValueRef inst, CXFile *file, unsigned *line, unsigned *column) {
  return located(ik, inst, false, file, line, column);
}

/* Where an access with no line of its own is (two stores of different
 * lines merged into one, whose location is line 0): where its address is
 * computed, the element it names. */
static bool address_location(ir_kernel *ik, LLVMValueRef address, CXFile *file, unsigned *line, unsigned *column) {
  for (int hops = 0; address && hops < 4 && LLVMIsAInstruction(address); hops++) {
    if (user_location(ik, address, file, line, column)) return true;
    if (!LLVMIsAGetElementPtrInst(address) && !LLVMIsACastInst(address)) return false;
    address = LLVMGetOperand(address, 0);
  }
  return false;
}

/* Where the kernel subscripts the parameter or variable of base b once in
 * that direction: the place of an access with no line at all (a loop of
 * one turn, folded, keeps none; nor does what is computed for it). */
static bool declared_location(ir_kernel *ik, const ir_base *b, bool write, CXFile *file, unsigned *line,
                              unsigned *column) {
  CXCursor decl = clang_getNullCursor();
  if (b->kind == BASE_ARG) {
    decl = ir_param_cursor(ik->scope, b->arg);
  } else if (b->kind == BASE_GLOBAL) {
    decl = global_decl(ik, b->value, b->space);
  }
  return ir_sole_access(ik->scope, decl, write, file, line, column);
}

/* The source at file:line:column is an expression that names an array or
 * a variable (an element read, or an operator on one), not a statement
 * such as a loop's header. */
static bool names_array(ir_kernel *ik, CXFile file, unsigned line, unsigned column, bool local) {
  char name[128];
  bool field;
  unsigned at_line = line, at = column;
  CXCursor d = ir_array_at(ik->scope, file, &at_line, &at, local, name, sizeof name, &field);
  return !clang_Cursor_isNull(d) || name[0] || ir_name_at(ik->scope, file, line, column, name, sizeof name);
}

/* Where a load the compiler hoisted out of its loop (dropping its line)
 * is used: the expression that read it. */
static bool use_location(ir_kernel *ik, LLVMValueRef value, CXFile *file, unsigned *line, unsigned *column) {
  for (int depth = 0; depth < 3 && value; depth++) {
    LLVMValueRef next = NULL;   /* a conversion of the value, hoisted with it */
    for (LLVMUseRef u = LLVMGetFirstUse(value); u; u = LLVMGetNextUse(u)) {
      LLVMValueRef user = LLVMGetUser(u);
      /* a phi's line is its loop's or join's, not the expression's */
      if (!LLVMIsAInstruction(user) || LLVMIsAPHINode(user)) continue;
      if (user_location(ik, user, file, line, column)) return true;
      if (!next && LLVMIsACastInst(user)) next = user;
    }
    value = next;
  }
  return false;
}

/* The file of inst's innermost debug location that names one. */
static bool innermost_path(LLVMValueRef inst, char *path, size_t size) {
  for (LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst); loc; loc = LLVMDILocationGetInlinedAt(loc)) {
    scope_path(LLVMDILocationGetScope(loc), path, size);
    if (*path) return true;
  }
  return false;
}

/* inst is a template library's own code: its innermost location is in
 * CCCL (cub, thrust, libcu++), not in a user file and not in the toolkit's
 * one-line wrappers (atomicAdd, __ldg) that act on the user's arrays. */
static bool in_library(ir_kernel *ik, LLVMValueRef inst, bool math) {
  static const char *const libraries[] = {"/cub/", "/thrust/", "/cccl/", "/include/cuda/",
                                          "/lib/clang/", "/include/crt/"};
  size_t count = sizeof libraries / sizeof libraries[0] - (math ? 0 : 2);
  char path[4096];
  if (!innermost_path(inst, path, sizeof path) || ir_user_file(ik->scope, path)) return false;
  for (size_t i = 0; i < count; i++)
    if (strstr(path, libraries[i])) return true;
  return false;
}

/* Whether inst's innermost place is a header's, not the user's: the code
 * of a wrapper it was inlined from (the toolkit's memcpy). */
static bool through_header(ir_kernel *ik, LLVMValueRef inst) {
  char path[4096];
  return innermost_path(inst, path, sizeof path) && !ir_user_file(ik->scope, path);
}

/* The line in the kernel's own file that leads to inst (the call of the
 * helper it is in), 0 when there is none. */
static void kernel_location(ir_kernel *ik, LLVMValueRef inst, unsigned *line) {
  *line = 0;
  for (LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst); loc; loc = LLVMDILocationGetInlinedAt(loc)) {
    char path[4096];
    scope_path(LLVMDILocationGetScope(loc), path, sizeof path);
    if (*path && same_file(ir_user_file(ik->scope, path), ik->k->file)) {
      *line = LLVMDILocationGetLine(loc);
      return;
    }
  }
}

/* ---- arrays and accesses ---- */

#define UNNAMED_ARRAY "(array)"

static int generic_array(ir_kernel *ik, const ir_base *b, const char *name, long long width, unsigned line,
                         unsigned column) {
  kernel_ctx *k = ik->k;
  array_info a;
  memset(&a, 0, sizeof a);
  a.decl = clang_getNullCursor();
  a.name = wl_strdup(name);
  a.elem_type = wl_format("%lld-byte element", width);
  a.elem_size = width;
  a.space = b->space;
  a.ndim = 1;
  a.ext[0] = -1;
  a.elements = -1;
  a.is_param = b->kind == BASE_ARG;
  a.line = line;
  a.column = column;
  GROW(k->arrays, k->array_count, k->array_cap);
  k->arrays[k->array_count] = a;
  return k->array_count++;
}

static bool void_pointer(CXCursor decl) {
  CXType t = clang_getCanonicalType(clang_getCursorType(decl));
  return t.kind == CXType_Pointer && clang_getCanonicalType(clang_getPointeeType(t)).kind == CXType_Void;
}

/* Whether decl is a pointer whose element's size was assumed for a
 * template's type parameter (const T *, T not told by this instance's
 * name), not for a type a missing header left invalid. */
static bool template_pointer(CXCursor decl) {
  CXType t = clang_getCursorType(decl);
  if (t.kind != CXType_Pointer) return false;
  CXCursor elem = clang_getTypeDeclaration(clang_getCanonicalType(clang_getPointeeType(t)));
  return clang_Cursor_isNull(elem) || !clang_isInvalidDeclaration(elem);
}

/* The array an access through base b is to, registered on first use:
 * its declaration from the AST (the parameter, the variable of that name,
 * the array named at the access), else one named as the access writes it.
 * *line and *column move to the name's, *field and written say how the access is
 * spelt there (a[i].x; the name written, a pointer cast from the array
 * being another). */
static int array_of(ir_kernel *ik, int base, CXFile file, unsigned *line, unsigned *column, long long width,
                    bool *field, char *written, size_t written_size) {
  ir_base *b = &ik->bases[base];
  bool local = b->kind == BASE_ALLOCA;
  CXCursor named = ir_array_at(ik->scope, file, line, column, local, written, written_size, field);
  if (b->array != -1) {
    /* a private array first met where no name is written (the stores of
     * its initialiser list) takes the first name an access writes */
    array_info *first = &ik->k->arrays[b->array];
    if (local && *written && clang_Cursor_isNull(first->decl) && !strcmp(first->name, UNNAMED_ARRAY)) {
      free(first->name);
      first->name = wl_strdup(written);
    }
    return b->array;
  }
  CXCursor decl = clang_getNullCursor();
  char name[128] = "";
  if (b->kind == BASE_ARG) {
    decl = ir_param_cursor(ik->scope, b->arg);
  } else if (b->kind == BASE_GLOBAL) {
    size_t len;
    plain_name(LLVMGetValueName2(b->value, &len), true, name, sizeof name);
    decl = ir_variable_named(ik->scope, name, b->space);
  } else if (b->kind == BASE_ALLOCA) {
    decl = named;
    snprintf(name, sizeof name, "%s", written);
  } else {
    /* a pointer loaded from memory is named where it is loaded (img.data
     * in the kernel, not the helper's parameter it is handed to) */
    CXFile at_file;
    unsigned at_line, at_column;
    bool load_field;
    if (LLVMIsAInstruction(b->value) && value_location(ik, b->value, &at_file, &at_line, &at_column))
      ir_array_at(ik->scope, at_file, &at_line, &at_column, false, name, sizeof name, &load_field);
    if (!*name) snprintf(name, sizeof name, "%s", written);
  }
  int a = clang_Cursor_isNull(decl) ? -1 : array_for_decl(ik->k, decl);
  if (a >= 0 && b->space == SP_LOCAL && ik->k->arrays[a].space != SP_LOCAL) a = -1;
  if (a < 0) {
    if (!*name) snprintf(name, sizeof name, "%s", written);
    if (!*name) snprintf(name, sizeof name, b->kind == BASE_LOADED ? "(pointer loaded from memory)" : UNNAMED_ARRAY);
    a = generic_array(ik, b, name, width, *line, *column);
  }
  /* the space is the device code's: a pointer parameter handed shared memory
   * cannot happen in a kernel, but a __device__ array is global */
  if (ik->k->arrays[a].space != b->space && b->space != SP_GLOBAL) ik->k->arrays[a].space = b->space;
  /* a void * the kernel casts (TensorRT's plugins take every buffer so), or
   * a template's T this instance's name does not tell (outscalar_t of a
   * softmax instantiated for half): its element is what the device code
   * reads or writes through it */
  if (!clang_Cursor_isNull(decl) && (void_pointer(decl) || (ik->k->arrays[a].size_assumed && template_pointer(decl)))) {
    ik->k->arrays[a].elem_size = width;
    ik->k->arrays[a].size_assumed = false;
  }
  b->array = a;
  return a;
}

/* The padded layout of a 2-D (or deeper) shared array: every term of the
 * offset that is a whole number of rows moves by a row plus one element. */
static void padded_offset(const array_info *a, const poly *off, poly *out) {
  long long row = a->ext[a->ndim - 1] * a->elem_size;
  *out = *off;
  if (off->unknown || row <= 0) { poly_unknown(out, false); return; }
  for (int i = 0; i < out->count; i++)
    if (out->terms[i].coef % row == 0) out->terms[i].coef = out->terms[i].coef / row * (row + a->elem_size);
}

typedef struct value_eval { ir_kernel *ik; LLVMValueRef v; } value_eval;

static bool eval_value_lanes(void *ctx, int warp, lane_vals *out) {
  value_eval *e = ctx;
  return ir_lanes(e->ik, e->v, warp, out, 0);
}

/* Lanes m found with run-time sizes at the probe's value: where a second,
 * different value leaves the lanes the same distance apart (the size only
 * clamped an index, min(p, n - 1), or shifted the warp as a whole), the
 * distances are the code's own and may be quoted. */
static void keep_probe_free_stride(ir_kernel *ik, value_eval *e, long long width, int warp, lane_model *m) {
  kernel_ctx *k = ik->k;
  if (!m->probed || m->kind != LANE_CONCRETE) return;
  lane_model again;
  memset(&again, 0, sizeof again);
  again.kind = LANE_UNKNOWN;
  long long probe = k->probe_uniform;
  k->probe_uniform = 2 * PROBE_SIZE + 8;
  model_evaluated(k, eval_value_lanes, e, width, warp, &again);
  k->probe_uniform = probe;
  if (again.kind != LANE_CONCRETE) return;
  unsigned act = k->active[warp];
  int lead = __builtin_ctz(act);
  for (int l = lead; l < 32; l++)
    if ((act >> l & 1) && again.offset[l] - again.offset[lead] != m->offset[l] - m->offset[lead]) return;
  m->probed = false;
}

/* m: the lanes of address with each per-lane loaded or counted value taken
 * as probe says; run-time sizes take the probe's values where the code's
 * own do not tell. */
static void lanes_with_data(ir_kernel *ik, LLVMValueRef address, long long width, int probe, int warp,
                            lane_model *m) {
  kernel_ctx *k = ik->k;
  value_eval e = {ik, address};
  ik->probe_data = probe;
  m->kind = LANE_UNKNOWN;
  /* the code's own sizes first, then the probe's */
  for (int sizes = 0; sizes < 2 && m->kind == LANE_UNKNOWN; sizes++) {
    k->probe_uniform = sizes ? PROBE_SIZE : 0;
    k->probe_block = sizes;
    ik->probe_leaf = NULL;
    model_evaluated(k, eval_value_lanes, &e, width, warp, m);
    m->probed = sizes && m->kind != LANE_UNKNOWN;
    keep_probe_free_stride(ik, &e, width, warp, m);
  }
  k->probe_uniform = k->probe_block = 0;
  ik->probe_data = PROBE_DATA_OFF;
}

/* A global access whose lanes are unknown only through a per-lane value
 * the kernel loads or counts (d_NL[n1 * MN + atomicAdd(..)], NL[N * rank +
 * bid]): its lanes with that value 0 in every lane, and where that is one
 * address for the warp, with the lane's number (lanes whose values differ
 * are then told apart). */
static void model_without_data(ir_kernel *ik, LLVMValueRef address, access_info *x) {
  lane_model *m = &x->data_free;
  memset(m, 0, sizeof *m);
  m->kind = LANE_UNKNOWN;
  int warp = first_active_warp(ik->k);
  if (warp < 0) return;
  m->active = ik->k->active[warp];
  lanes_with_data(ik, address, x->width, PROBE_DATA_ZERO, warp, m);
  if (m->kind != LANE_UNKNOWN && !ik->probe_leaf) {
    /* the value is the warp's one (a row loaded per batch, not per lane;
     * a float loaded once for the warp, fp_lanes): the lanes are these,
     * shifted alike */
    x->lanes = *m;
    m->kind = LANE_UNKNOWN;
    return;
  }
  x->data_scaled = m->kind == LANE_UNIFORM;
  if (!x->data_scaled) return;
  /* scaled, the lanes are apart only where their values differ: so they do
   * for a count or an atomic's slot, one per lane; a loaded value (a row
   * index per nonzero, a table's entry) often agrees across the warp */
  LLVMValueRef leaf = ik->probe_leaf;
  if (leaf && (LLVMIsAPHINode(leaf) || atomic_result(leaf)))
    lanes_with_data(ik, address, x->width, PROBE_DATA_LANE, warp, m);
  else m->kind = LANE_UNKNOWN;
}

/* ---- loops that scale a value each turn ---- */

#define TURNS_TRIED 12
#define TURN_VALUE_LIMIT 128

/* A loop header's phi that each turn multiplies or divides by a constant
 * power of two (stride >>= 2, offset *= 2, s /= 2 of an unsigned s): the
 * shift in bits, positive for a product, negative for a quotient; 0 for
 * any other phi. */
static int scaling_bits(ir_kernel *ik, LLVMValueRef phi, int loop) {
  LLVMValueRef init, next;
  loop_arms(ik, phi, loop, &init, &next);
  if (!init || !next) return 0;
  next = strip_int_casts(next);
  if (!LLVMIsAInstruction(next) || LLVMGetNumOperands(next) != 2 || strip_int_casts(LLVMGetOperand(next, 0)) != phi ||
      !LLVMIsAConstantInt(LLVMGetOperand(next, 1)))
    return 0;
  long long c = LLVMConstIntGetSExtValue(LLVMGetOperand(next, 1));
  switch (LLVMGetInstructionOpcode(next)) {
  case LLVMShl: return c >= 1 && c <= 4 ? (int)c : 0;
  case LLVMLShr: case LLVMAShr: return c >= 1 && c <= 4 ? -(int)c : 0;
  case LLVMMul: return c >= 2 && c <= 16 && !(c & (c - 1)) ? __builtin_ctzll((unsigned long long)c) : 0;
  case LLVMUDiv: case LLVMSDiv: return c >= 2 && c <= 16 && !(c & (c - 1)) ? -__builtin_ctzll((unsigned long long)c) : 0;
  default: return 0;
  }
}

/* Whether a turn of the loop runs with its scaled value at v: the exit
 * branch's compare of that value (or the next one, where the compiler
 * tests at the turn's end) with a constant bound; yes where there is none. */
static bool turn_runs(ir_kernel *ik, int loop, LLVMValueRef phi, LLVMValueRef next, long long v) {
  exit_compare c;
  return !parse_exit(ik, loop, phi, next, &c) || !c.constant_bound || !exit_leaves(&c, v);
}

/* The values a scaled phi takes on the turns tried: from a constant start
 * its own, while the loop's constant bound lets it run; from a run-time
 * start the powers of two up to TURN_VALUE_LIMIT that the bound lets in. */
static int turn_values(ir_kernel *ik, int loop, LLVMValueRef phi, int bits, long long *out) {
  LLVMValueRef init, next;
  loop_arms(ik, phi, loop, &init, &next);
  long long v;
  int n = 0;
  if (poly_is_const(&value_of(ik, init)->p, &v)) {
    for (int t = 0; t < TURNS_TRIED && v > 0 && v <= (1LL << 20) && turn_runs(ik, loop, phi, next, v); t++) {
      out[n++] = v;
      v = bits > 0 ? v << bits : v >> -bits;
    }
    return n;
  }
  for (v = 1; v <= TURN_VALUE_LIMIT; v *= 2)
    if (turn_runs(ik, loop, phi, next, v)) out[n++] = v;
  return n;
}

/* The one scaled phi of the loops around block b whose value is a loop
 * atom (*atom), with its loop; NULL where there is none or more than one
 * (a scan's offset *= 2 beside its d >>= 1: their turns go together). */
static LLVMValueRef scaled_phi(ir_kernel *ik, int b, int *loop, int *bits, int *atom) {
  LLVMValueRef found = NULL;
  for (int l = 0; l < ik->loop_count; l++) {
    if (!ik->loops[l].body[b]) continue;
    for (LLVMValueRef i = LLVMGetFirstInstruction(ik->blocks[ik->loops[l].header].bb); i && LLVMIsAPHINode(i);
         i = LLVMGetNextInstruction(i)) {
      int scale = scaling_bits(ik, i, l);
      if (!scale) continue;
      const poly *p = &value_of(ik, i)->p;
      if (p->unknown || p->count != 1 || p->terms[0].degree != 1 || p->terms[0].coef != 1) continue;
      if (found) return NULL;
      found = i;
      *loop = l;
      *bits = scale;
      *atom = p->terms[0].atoms[0];
    }
  }
  return found;
}

/* What a warp's request costs against its ideal, in thousandths: shared
 * wavefronts, global sectors. */
static long long request_cost(const kernel_ctx *k, const access_info *x, const lane_model *m) {
  if (k->arrays[x->array].space == SP_SHARED) {
    int wavefronts, floor;
    conflict_degree(m, x->width, x->write && !x->read, &wavefronts, &floor);
    return floor > 0 ? 1000LL * wavefronts / floor : 1000;
  }
  int ideal = ideal_sectors(m, x->width);
  return ideal > 0 ? 1000LL * sectors(m, x->width) / ideal : 1000;
}

/* The lanes that reach each block on each turn tried of a scaled loop,
 * computed once per loop: every access in it asks for the same turns. */
static unsigned (*turns_reached(ir_kernel *ik, LLVMValueRef phi, int atom, const long long *values,
                                int n))[MAX_WARPS] {
  if (ik->turns_phi == phi) return ik->turns_reached;
  kernel_ctx *k = ik->k;
  size_t rows = (size_t)n * (size_t)ik->block_count;
  unsigned (*turns)[MAX_WARPS] = realloc(ik->turns_reached, (rows + (size_t)ik->block_count) * sizeof *turns);
  if (!turns) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  ik->turns_reached = turns;
  ik->turns_phi = phi;
  /* the kernel's own reach, kept behind the turns' rows and put back */
  unsigned (*kept)[MAX_WARPS] = turns + rows;
  for (int b = 0; b < ik->block_count; b++) memcpy(kept[b], ik->blocks[b].active, sizeof kept[b]);
  for (int t = 0; t < n; t++) {
    k->probe_loop = atom;
    k->probe_step = values[t];
    reach_blocks_from(ik, kept[0]);
    for (int b = 0; b < ik->block_count; b++)
      memcpy(turns[(size_t)t * ik->block_count + b], ik->blocks[b].active, sizeof turns[0]);
  }
  k->probe_loop = -1;
  for (int b = 0; b < ik->block_count; b++) memcpy(ik->blocks[b].active, kept[b], sizeof kept[b]);
  return turns;
}

/* An access in a loop that scales a value each turn (a butterfly's stride
 * >>= 2, which no counter carries): its lanes on each turn tried, with the
 * lanes each turn lets in; the costliest turn's, the earliest of equals. */
static void model_turns(ir_kernel *ik, LLVMValueRef address, const access_info *x, lane_model *m) {
  kernel_ctx *k = ik->k;
  int loop = -1, bits = 0, atom = -1;
  LLVMValueRef phi = scaled_phi(ik, x->region, &loop, &bits, &atom);
  long long values[TURNS_TRIED];
  int n = phi ? turn_values(ik, loop, phi, bits, values) : 0;
  if (n == 0) return;
  unsigned (*reached)[MAX_WARPS] = turns_reached(ik, phi, atom, values, n);
  unsigned access_active[MAX_WARPS];
  memcpy(access_active, k->active, sizeof access_active);
  value_eval e = {ik, address};
  long long worst = -1;
  for (int t = 0; t < n; t++) {
    memcpy(k->active, reached[(size_t)t * ik->block_count + x->region], sizeof k->active);
    int warp = first_active_warp(k);
    if (warp < 0) continue;
    lane_model turn;
    memset(&turn, 0, sizeof turn);
    turn.kind = LANE_UNKNOWN;
    turn.active = k->active[warp];
    k->probe_loop = atom;
    k->probe_step = values[t];
    model_evaluated(k, eval_value_lanes, &e, x->width, warp, &turn);
    k->probe_loop = -1;
    if (turn.kind == LANE_UNKNOWN) continue;
    long long cost = request_cost(k, x, &turn);
    if (cost <= worst) continue;
    worst = cost;
    *m = turn;
    m->turn_value = values[t];
  }
  if (worst >= 0) {
    LLVMValueRef init, next;
    loop_arms(ik, phi, loop, &init, &next);
    counter_name(ik, next, m->turn_name, sizeof m->turn_name);
  }
  memcpy(k->active, access_active, sizeof access_active);
}

static void model_ir(ir_kernel *ik, LLVMValueRef address, const access_info *x, const poly *off, lane_model *m) {
  kernel_ctx *k = ik->k;
  memset(m, 0, sizeof *m);
  m->kind = LANE_UNKNOWN;
  int warp = first_active_warp(k);
  if (warp < 0) return;
  m->active = k->active[warp];
  model_from_poly(k, off, warp, m);
  if (m->kind == LANE_UNKNOWN && !x->data_dependent && address) {
    value_eval e = {ik, address};
    model_evaluated(k, eval_value_lanes, &e, x->width, warp, m);
    /* lanes scaled by a run-time size ((row / 4) * n, (i * 8) % size):
     * in global memory what counts is that they land rows apart, so the
     * sizes are given large values, no power of two, and the lanes
     * evaluated. Multiples of 8, so that rows of 4-byte elements start on
     * a sector as a matrix's rows do (a row's float4 must be aligned) */
    if (m->kind == LANE_UNKNOWN && k->arrays[x->array].space == SP_GLOBAL) {
      k->probe_uniform = PROBE_SIZE;
      k->probe_block = 1;                /* inside the grid: a clamp at its edge is the exception */
      model_evaluated(k, eval_value_lanes, &e, x->width, warp, m);
      m->probed = m->kind != LANE_UNKNOWN;
      keep_probe_free_stride(ik, &e, x->width, warp, m);
      k->probe_uniform = k->probe_block = 0;
    }
    /* a value the loop changes in no way the polynomial carries (offset *=
     * 2 in a scan's up-sweep): the pattern of its costliest turn where the
     * loop scales one value, else of the loop's first turn */
    if (m->kind == LANE_UNKNOWN && x->loop_count > 0) model_turns(ik, address, x, m);
    if (m->kind == LANE_UNKNOWN && x->loop_count > 0) {
      ik->first_turn = x->region + 1;
      model_evaluated(k, eval_value_lanes, &e, x->width, warp, m);
      ik->first_turn = 0;
      m->first_turn = m->kind != LANE_UNKNOWN;
    }
  }
  if (m->kind == LANE_CONCRETE && count_distinct_active(m->offset, m->active) == 1) m->kind = LANE_UNIFORM;
}

/* WARPLINT_TRACE=1: each access the model records, on stderr (a
 * developer's view of what the checks are given). */
static void trace_access(const ir_kernel *ik, const access_info *x) {
  const kernel_ctx *k = ik->k;
  char off[200];
  if (x->off.unknown) snprintf(off, sizeof off, "unknown%s%s", x->off.lane_varying ? " lane-varying" : "",
                               x->off.data_dependent ? " data-dependent" : "");
  else poly_text(k, &x->off, off, sizeof off);
  static const char *const kinds[] = {"uniform", "concrete", "symbolic", "unknown"};
  fprintf(stderr, "trace: %s:%u:%u %s '%s' %s%s%s width %lld offset %s lanes %s active %08x",
          k->name, x->line, x->column, wl_space_names[k->arrays[x->array].space], k->arrays[x->array].name,
          x->read ? "r" : "", x->write ? "w" : "", x->ldg ? " ldg" : "", x->width, off, kinds[x->lanes.kind],
          x->lanes.active);
  if (x->lanes.kind == LANE_CONCRETE)
    for (int l = 0; l < 8; l++) fprintf(stderr, "%s%lld", l ? "," : " [", x->lanes.offset[l]);
  fprintf(stderr, "%s loops %d%s", x->lanes.kind == LANE_CONCRETE ? ",...]" : "", x->loop_count,
          x->hoisted ? " (hoisted)" : "");
  if (x->data_free.kind == LANE_CONCRETE) {
    fprintf(stderr, " without data%s", x->data_scaled ? " (scaled)" : "");
    for (int l = 0; l < 8; l++) fprintf(stderr, "%s%lld", l ? "," : " [", x->data_free.offset[l]);
    fprintf(stderr, ",...]");
  }
  fprintf(stderr, "\n");
}

/* What an access's array start is known to be aligned to: a variable's
 * declared alignment; for memory a pointer reaches, the access's own. */
static long long base_alignment(const ir_kernel *ik, int base, LLVMValueRef inst) {
  const ir_base *b = &ik->bases[base];
  /* a __shared__ array defined here is placed by the compiler, which aligns
   * it for its widest access: nvcc reads s[2 * i] and s[2 * i + 1] of a
   * float array in one LDS.64 (the H100's counters on fwt and hwt1d) */
  if (b->kind == BASE_GLOBAL && b->space == SP_SHARED && !LLVMIsDeclaration(b->value))
    return LLVMGetAlignment(b->value) > 16 ? LLVMGetAlignment(b->value) : 16;
  if (b->kind == BASE_GLOBAL || b->kind == BASE_ALLOCA) return LLVMGetAlignment(b->value);
  /* memory a pointer reaches: only what the compiler knows of the access
   * (its type's alignment, a float4's 16), as nvcc knows no more */
  return LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst) ? LLVMGetAlignment(inst) : 1;
}

/* CUDA's 16-byte vector types (float4, int4, double2...), which nvcc
 * loads whole. */
static bool whole_vector_read(const array_info *a) {
  static const char *const bases[] = {"float", "int", "uint", "double", "long", "ulong", "longlong", "ulonglong",
                                      "short", "ushort", "char", "uchar"};
  if (a->elem_size != 16 || !a->elem_type) return false;
  const char *t = a->elem_type;
  if (strncmp(t, "const ", 6) == 0) t += 6;
  for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++) {
    size_t n = strlen(bases[i]);
    if (strncmp(t, bases[i], n) == 0 && t[n] >= '1' && t[n] <= '4' && t[n + 1] == 0) return true;
  }
  return false;
}

/* The largest step in bytes a loop counter in p moves it by, p's units
 * scale bytes each (a run-time step: LLONG_MAX); 0 when none does. */
static long long walk_step(const kernel_ctx *k, const poly *p, long long scale) {
  long long most = 0, c;
  for (int a = ATOM_FIRST_SYMBOL; a < k->atom_count; a++) {
    if (k->atoms[a].kind != ATOMK_LOOP || !poly_uses_atom(p, a)) continue;
    poly coefficient;
    poly_coefficient(p, a, &coefficient);
    if (!poly_is_const(&coefficient, &c)) return LLONG_MAX;
    if (llabs(c * scale) > most) most = llabs(c * scale);
  }
  return most;
}

/* Whether v loads the same element on every turn of the loops around it:
 * an address the polynomial knows that no loop moves (g_NN_sum[n1], read
 * again each turn where a store in the loop might change it, so the
 * compiler could not hoist it). */
static bool reloads_same_element(ir_kernel *ik, LLVMValueRef v) {
  if (!LLVMIsALoadInst(v)) return false;
  const ir_value *at = value_of(ik, LLVMGetOperand(v, 0));
  return !at->p.unknown && !moves_with_loop(ik->k, &at->p);
}

/* Whether v is computed from a floating-point value made an integer (a
 * cell's index from a particle's coordinates). */
static bool from_coordinates(LLVMValueRef v, int depth) {
  if (!LLVMIsAInstruction(v) || depth > 12 || LLVMIsAPHINode(v) || LLVMIsALoadInst(v)) return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op == LLVMFPToSI || op == LLVMFPToUI) return true;
  for (int i = 0; i < LLVMGetNumOperands(v); i++)
    if (from_coordinates(LLVMGetOperand(v, i), depth + 1)) return true;
  return false;
}

/* Whether v is loaded from a table at a place each lane has of its own
 * (row_ptr[row], 3 * offsets[i], pos[i] / 32, info[i] >> 32,
 * row_ptr[frontier[i]]), not at a place found from coordinates (a cell's
 * first particle, the cell found from a position) or the first non-empty
 * of several cells: lanes in one cell share one span and read its elements
 * together. */
static bool loaded_at_lane_place(ir_kernel *ik, LLVMValueRef v, int depth) {
  if (!LLVMIsAInstruction(v) || depth > 8) return false;
  /* a load, or one written as a call (an ld.global.ca in inline assembly) */
  if (LLVMIsALoadInst(v) || (LLVMIsACallInst(v) && LLVMGetNumArgOperands(v) >= 1 && is_pointer(LLVMGetOperand(v, 0))))
    return !from_coordinates(LLVMGetOperand(v, 0), 0);
  if (LLVMIsAPHINode(v) || LLVMIsASelectInst(v)) {   /* loaded under a guard, a constant beside it */
    bool loaded = false, phi = LLVMIsAPHINode(v);
    for (unsigned i = 0; i < (phi ? LLVMCountIncoming(v) : 2); i++) {
      LLVMValueRef arm = phi ? LLVMGetIncomingValue(v, i) : LLVMGetOperand(v, i + 1);
      if (LLVMIsAConstant(arm)) continue;
      if (!loaded_at_lane_place(ik, arm, depth + 1)) return false;
      loaded = true;
    }
    return loaded;
  }
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  /* the difference or sum of two such loads (a span's length, end - start),
   * or of one and a parameter */
  if ((op == LLVMAdd || op == LLVMSub) && !LLVMIsAConstantInt(LLVMGetOperand(v, 1))) {
    for (int i = 0; i < 2; i++) {
      LLVMValueRef part = LLVMGetOperand(v, i);
      if (!uniform(ik, int_of(ik, part)) && !loaded_at_lane_place(ik, part, depth + 1)) return false;
    }
    return true;
  }
  /* scaled by a constant or by a size the whole warp shares (QSR_id * n) */
  if (op == LLVMMul || op == LLVMShl) {
    for (int i = 0; i < 2; i++)
      if (uniform(ik, int_of(ik, LLVMGetOperand(v, 1 - i))))
        return loaded_at_lane_place(ik, LLVMGetOperand(v, i), depth + 1);
    return false;
  }
  bool by_constant = (op == LLVMLShr || op == LLVMAShr || op == LLVMUDiv || op == LLVMSDiv || op == LLVMAnd ||
                      op == LLVMAdd || op == LLVMSub || op == LLVMOr) &&
                     LLVMIsAConstantInt(LLVMGetOperand(v, 1));
  if (!by_constant && op != LLVMZExt && op != LLVMSExt && op != LLVMTrunc) return false;
  return loaded_at_lane_place(ik, LLVMGetOperand(v, 0), depth + 1);
}

/* Whether v (an address, or an index of scale bytes) is a sum of terms the
 * polynomial knows, none of them a thread's, and of values each lane loads
 * outside loop l or anew at the same address each turn (the start of its
 * own span); *step: the largest step a loop counter in the known terms
 * moves it by, in bytes. */
static bool lane_start_plus_walk(ir_kernel *ik, LLVMValueRef v, int l, long long scale, long long *step,
                                 bool *loaded, int depth) {
  if (depth > 16) return false;
  const ir_value *r = value_of(ik, v);
  if (!r->p.unknown) {
    poly lane, rest;
    lane_split(ik->k, &r->p, &lane, &rest);
    long long moved = walk_step(ik->k, &r->p, scale);
    if (moved > *step) *step = moved;
    return lane.count == 0;
  }
  if (!LLVMIsAInstruction(v)) return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  /* a counter starting at the lane's start (for j = row_ptr[row]; ...; j++) */
  int header = LLVMIsAPHINode(v) ? loop_of_header(ik, block_index(ik, v)) : -1;
  if (header >= 0) {
    LLVMValueRef init, next;
    loop_arms(ik, v, header, &init, &next);
    poly by;
    long long c;
    if (!init || !next || !recurrence_step(ik, v, next, &by)) return false;
    long long moved = poly_is_const(&by, &c) ? llabs(c * scale) : LLONG_MAX;
    if (moved > *step) *step = moved;
    return lane_start_plus_walk(ik, init, l, scale, step, loaded, depth + 1);
  }
  if (op == LLVMGetElementPtr) {
    /* a pointer plus one index of its element's size (what -O3 leaves) */
    if (LLVMGetNumOperands(v) != 2) return false;
    long long size = (long long)LLVMABISizeOfType(ik->code->layout, LLVMGetGEPSourceElementType(v));
    return lane_start_plus_walk(ik, LLVMGetOperand(v, 0), l, 1, step, loaded, depth + 1) &&
           lane_start_plus_walk(ik, LLVMGetOperand(v, 1), l, size, step, loaded, depth + 1);
  }
  if (op == LLVMAdd || (op == LLVMOr && LLVMGetIsDisjoint(v)) || op == LLVMZExt || op == LLVMSExt ||
      op == LLVMAddrSpaceCast || op == LLVMBitCast) {
    for (int i = 0; i < LLVMGetNumOperands(v); i++)
      if (!lane_start_plus_walk(ik, LLVMGetOperand(v, i), l, scale, step, loaded, depth + 1)) return false;
    return true;
  }
  /* a term of its own: a value the lane loads, before the loop or at the
   * same address every turn */
  if (!r->p.lane_varying || !r->p.data_dependent) return false;
  if (ik->loops[l].body[block_index(ik, v)] && !reloads_same_element(ik, v)) return false;
  if (!loaded_at_lane_place(ik, v, 0)) return false;
  *loaded = true;
  return true;
}

/* A copy or fill of a run-time length (llvm.memcpy of n bytes): the
 * compiler walks its span with a counter of its byte loop, so no element
 * it reaches is known after unrolling. */
static bool run_time_span(LLVMValueRef inst) {
  return LLVMIsACallInst(inst) && strncmp(callee_name(inst), "llvm.mem", 8) == 0 &&
         LLVMGetNumArgOperands(inst) >= 3 && !LLVMIsAConstantInt(LLVMGetOperand(inst, 2));
}

/* place: the instruction whose line and block the access takes (inst
 * itself, or the arm of a joined address, below). */
static void record_piece(ir_kernel *ik, LLVMValueRef inst, LLVMValueRef place, LLVMValueRef address, long long shift,
                         long long width, int mode) {
  kernel_ctx *k = ik->k;
  const ir_value *at = value_of(ik, address);
  if (at->base < 0) return;
  int kind = ik->bases[at->base].kind;
  bool local = kind == BASE_ALLOCA, span = run_time_span(inst);
  if (kind == BASE_BYVAL || kind == BASE_BUILTIN || ik->bases[at->base].library) return;
  CXFile file;
  unsigned line, column;
  /* with no line of its own: a load where its value is used, a store where
   * its address is computed, each only where the source names an array
   * (not a loop's header, where the compiler hoisted it to) */
  bool own_line = place == inst ? user_location(ik, inst, &file, &line, &column)
                                 : address_location(ik, place, &file, &line, &column);
  if (!own_line && place != inst) return;
  bool at_use =
      !own_line && use_location(ik, inst, &file, &line, &column) && names_array(ik, file, line, column, local);
  if (!own_line && !at_use &&
      !(address_location(ik, address, &file, &line, &column) && names_array(ik, file, line, column, local)) &&
      !declared_location(ik, &ik->bases[at->base], (mode & M_WRITE) != 0, &file, &line, &column))
    return;
  /* the use is the operator before the read (`a[i] *` ending one line,
   * `b[j]` on the next): the parameter's subscript after it */
  if (at_use && kind == BASE_ARG)
    ir_read_of_after(ik->scope, file, &line, &column, ir_param_cursor(ik->scope, ik->bases[at->base].arg));
  int block = block_index(ik, place);
  memcpy(k->active, ik->blocks[block].active, sizeof k->active);
  if (first_active_warp(k) < 0) {                     /* no lane gets here */
    if (getenv("WARPLINT_TRACE")) fprintf(stderr, "trace: line %u reached by no lane\n", line);
    return;
  }
  bool field;
  char written[128];
  int ai = array_of(ik, at->base, file, &line, &column, width, &field, written, sizeof written);
  array_info *a = &k->arrays[ai];
  /* a library's scratch layout in shared memory (cub's TempStorage) and
   * its private arrays (sinf's slow path, inlined from clang's or CUDA's
   * math headers) are not the user's to change; its global accesses are to
   * the user's data, as is a copy of a run-time length (the user's memcpy
   * through the toolkit's wrapper) */
  if ((a->space == SP_SHARED && in_library(ik, inst, false)) ||
      (a->space == SP_LOCAL && !span && in_library(ik, inst, true)))
    return;
  poly off = at->p;
  if (shift) {
    poly by;
    poly_const(&by, shift);
    poly_add(&off, &at->p, &by, 1);
  }
  if ((mode == M_READ || mode == M_WRITE) && !field && width < a->elem_size && whole_vector_read(a) &&
      strcmp(written, a->name) == 0) {
    /* nvcc reads an element of a 16-byte vector type copied whole
     * (float4 v = a[i]) in one ld.v4, also when only some fields are then
     * used, and stores one assigned whole (a[i] = v) in one st.v4, also
     * when clang drops the fields stored back unchanged; a field named at
     * the access (a[i].w), or the array read through a pointer of another
     * type cast from it (float *scores = (float *)buf), is read or written
     * alone */
    long long field;
    poly_const(&off, 0);
    if (!at->p.unknown && poly_split_constant(&at->p, &field) && field % a->elem_size + width <= a->elem_size) {
      poly shift;
      poly_const(&shift, -(field % a->elem_size));
      poly_add(&off, &at->p, &shift, 1);
      width = a->elem_size;
    } else {
      off = at->p;
    }
  }
  bool write = (mode & M_WRITE) != 0, read = (mode & M_READ) != 0;
  a->written = a->written || write;
  a->read = a->read || read;
  a->atomic = a->atomic || (mode & M_ATOMIC);
  if (k->access_count >= ik->address_cap) {
    ik->address_cap = ik->address_cap ? 2 * ik->address_cap : 64;
    ik->addresses = realloc(ik->addresses, (size_t)ik->address_cap * sizeof *ik->addresses);
    if (!ik->addresses) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  }
  ik->addresses[k->access_count] = address;
  GROW(k->accesses, k->access_count, k->access_cap);
  access_info *x = &k->accesses[k->access_count++];
  memset(x, 0, sizeof *x);
  x->array = ai;
  x->write = write;
  x->read = read;
  x->ldg = (mode & M_LDG) != 0;
  x->width = width;
  x->off = off;
  x->data_dependent = off.unknown && off.data_dependent;
  long long constant;
  x->unroll_known = !off.unknown && (poly_is_const(&off, &constant) || (local && set_by_unrolled(k, &off))) && !span;
  /* the loops around it, outermost first */
  int chain[MAX_LOOPS], depth = 0;
  for (int l = ik->blocks[block].loop; l >= 0 && depth < MAX_LOOPS; l = ik->loops[l].parent) chain[depth++] = l;
  for (int i = 0; i < depth; i++) x->loops[i] = ik->loops[chain[depth - 1 - i]].atom;
  x->loop_count = depth;
  x->line = line;
  x->column = column;
  x->region = block;
  x->file = file;
  x->base_align = base_alignment(ik, at->base, inst);
  if (!same_file(file, k->file)) kernel_location(ik, inst, &x->call_line);
  LLVMMetadataRef loc = LLVMInstructionGetDebugLoc(inst);
  x->inlined_at = loc ? LLVMDILocationGetInlinedAt(loc) : NULL;
  x->borrowed_line = !own_line;
  /* a loop-invariant read hoisted out often loses its line (placed at its
   * subscript, ir_read_of_after); asked only of global reads, the only
   * ones C_2 looks at: the source's loops are looked for up to the top of
   * the file */
  x->hoisted =
      read && !write && a->space == SP_GLOBAL && depth == 0 && ir_in_source_loop(ik->scope, file, line, column);
  LLVMValueRef moved = LLVMIsAStoreInst(inst) ? LLVMGetOperand(inst, 0) : inst;
  x->moves_pointer = LLVMGetTypeKind(LLVMTypeOf(moved)) == LLVMPointerTypeKind;
  model_ir(ik, address, x, &off, &x->lanes);
  /* each lane walking its own span from a start it loads: a counter moves
   * the address by at most 16 bytes a turn (a key's bytes, a row's
   * elements), not the lanes' shared block (in[s * 64 + perm[lane]]) */
  if (x->lanes.kind == LANE_UNKNOWN && x->data_dependent && depth > 0) {
    long long step = 0;
    bool loaded = false;
    x->lane_walk = lane_start_plus_walk(ik, address, ik->blocks[block].loop, 1, &step, &loaded, 0) && loaded &&
                   step > 0 && step <= 16;
  }
  if (x->lanes.kind == LANE_UNKNOWN && x->off.unknown && x->off.lane_varying && !x->lane_walk &&
      a->space == SP_GLOBAL)
    model_without_data(ik, address, x);
  if (getenv("WARPLINT_TRACE")) trace_access(ik, x);
  if (a->space == SP_GLOBAL && read && depth > 0) x->reuse = block_reuse(k, &x->off, &x->reuse_restricted);
  if (a->space == SP_SHARED && a->ndim >= 2 && a->ndim <= MAX_DIMS && a->ext[a->ndim - 1] > 0) {
    poly padded;
    padded_offset(a, &off, &padded);
    model_ir(ik, NULL, x, &padded, &x->padded);
  }
}

/* An access as the device runs it. One aligned to less than its size
 * (align: the load's or store's, or a copy's piece; clang's vectorizer
 * merging d[4*p], ..., d[4*p+3] into one <4 x i8> store at align 1) is
 * split by the backend into accesses of its alignment, as nvcc never merges
 * them: four byte stores, each its own request. merge_like_nvcc joins
 * again what is aligned enough. */
static void record_pieces(ir_kernel *ik, LLVMValueRef inst, LLVMValueRef place, LLVMValueRef address,
                          long long width, long long align, int mode) {
  if (align <= 0 || align >= width || width % align != 0 || width / align > MAX_PIECES) {
    record_piece(ik, inst, place, address, 0, width, mode);
    return;
  }
  for (long long shift = 0; shift < width; shift += align) record_piece(ik, inst, place, address, shift, align, mode);
}

/* The same load or store in both arms of a branch, which the compiler
 * sinks below the join through a phi of two arrays' addresses (MEMCPY8
 * from one array or another): an access per arm, on the arm's line. */
#define MAX_ADDRESS_ARMS 4
static bool record_joined(ir_kernel *ik, LLVMValueRef inst, LLVMValueRef address, long long width, long long align,
                          int mode) {
  unsigned n = LLVMIsAPHINode(address) ? LLVMCountIncoming(address) : 0;
  if (n < 2 || n > MAX_ADDRESS_ARMS || value_of(ik, address)->base >= 0) return false;
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef arm = LLVMGetIncomingValue(address, i);
    if (!LLVMIsAInstruction(arm) || value_of(ik, arm)->base < 0) return false;
  }
  for (unsigned i = 0; i < n; i++)
    record_pieces(ik, inst, LLVMGetIncomingValue(address, i), LLVMGetIncomingValue(address, i), width, align, mode);
  return true;
}

/* A store through a pointer chosen among arrays (float *out = c ? window
 * : tmp; out[i] = ...): which array a lane writes is not modelled, but each
 * of them is written in the kernel, so none is read-only there. */
static void mark_joined_store(ir_kernel *ik, LLVMValueRef address) {
  LLVMValueRef p = address;
  for (int hops = 0; hops < 8 && (LLVMIsAGetElementPtrInst(p) || LLVMIsACastInst(p)); hops++) p = LLVMGetOperand(p, 0);
  bool phi = LLVMIsAPHINode(p) != NULL;
  if (!phi && !LLVMIsASelectInst(p)) return;
  unsigned n = phi ? LLVMCountIncoming(p) : 2;
  for (unsigned i = 0; i < n; i++) {
    const ir_value *arm = value_of(ik, phi ? LLVMGetIncomingValue(p, i) : LLVMGetOperand(p, i + 1));
    if (arm->base >= 0) ik->bases[arm->base].joined_store = true;
  }
}

static void record(ir_kernel *ik, LLVMValueRef inst, LLVMValueRef address, long long width, int mode) {
  long long align = LLVMIsALoadInst(inst) || LLVMIsAStoreInst(inst) ? LLVMGetAlignment(inst) : 0;
  if ((mode & M_WRITE) && value_of(ik, address)->base < 0) mark_joined_store(ik, address);
  if (!record_joined(ik, inst, address, width, align, mode)) record_pieces(ik, inst, inst, address, width, align, mode);
}

/* The alignment a call promises for its pointer argument i (0 based), or 0. */
static long long argument_alignment(LLVMValueRef call, unsigned i) {
  unsigned kind = LLVMGetEnumAttributeKindForName("align", 5);
  LLVMAttributeRef a = LLVMGetCallSiteEnumAttribute(call, 1 + i, kind);   /* parameters count from 1 */
  return a ? (long long)LLVMGetEnumAttributeValue(a) : 0;
}

/* The byte count of an llvm.memcpy or llvm.memset, when it is a constant;
 * else 0. */
static long long constant_length(LLVMValueRef call) {
  LLVMValueRef length = LLVMGetOperand(call, 2);
  return LLVMIsAConstantInt(length) ? (long long)LLVMConstIntGetZExtValue(length) : 0;
}

/* The widest piece a copy or fill moves at once through side `side` of
 * call, of n bytes (0: a run-time length): a vector type's whole (n a
 * power of two up to 16: a uint4, a float2, whose type promises that
 * alignment whatever clang could prove of the address), else as wide as
 * the side's promised alignment allows, up to 16 bytes, 4 at the least (a
 * record's fields). A side promised only 1 or 2 bytes in a memcpy the
 * user called (through the toolkit's wrapper: memcpy(hash, state, 16),
 * memcpy(q, in + count, partial) on char pointers) moves pieces that
 * narrow: the compiler cannot assume more of the address. A struct copied
 * by assignment keeps its type's pieces, whatever clang could prove of
 * the address (*(int4 *)&tile[r][0] = v, a half array's row: one st.v4). */
static long long copy_piece(ir_kernel *ik, LLVMValueRef call, unsigned side, long long n) {
  long long align = argument_alignment(call, side), piece = 16;
  if (align > 0 && align < 4 && through_header(ik, call)) return n > 0 && n % align ? 1 : align;
  if (n > 0 && n <= 16 && (n & (n - 1)) == 0) align = n;
  if (align < 4) align = 4;
  if (n <= 0) return align < 16 ? align : 16;
  while (piece > 1 && (n % piece || piece > align)) piece /= 2;
  return piece;
}

/* One side of a copy or fill of n bytes: its pieces, at most MAX_PIECES
 * of them (the first ones of a longer narrow copy, which stand for the
 * rest: each is one request of the same lanes); of a run-time length, the
 * first piece, each lane from its own start. */
static void record_copy_side(ir_kernel *ik, LLVMValueRef call, unsigned side, long long n, int mode) {
  long long piece = copy_piece(ik, call, side, n);
  if (n <= 0) n = piece;
  if (n / piece > MAX_PIECES && piece >= 4) return;
  if (n / piece > MAX_PIECES) n = MAX_PIECES * piece;
  record_pieces(ik, call, call, LLVMGetOperand(call, side), n, piece, mode);
}

/* A struct or vector copied whole (s[w] = make_uint4(..), a record
 * assigned to another: clang's llvm.memcpy of a constant length), or a
 * copy of a run-time length (memcpy of a message's bytes): a read of the
 * source and a write of the destination, in the pieces copy_piece says,
 * as nvcc's ld.v4 and st.v4, or its byte loop. */
static void record_copy(ir_kernel *ik, LLVMValueRef call) {
  long long n = constant_length(call);
  record_copy_side(ik, call, 1, n, M_READ);
  record_copy_side(ik, call, 0, n, M_WRITE);
}

/* A fill (clang's llvm.memset: a record or vector set to zero whole, or a
 * loop storing one value into each element): writes of its destination,
 * as a copy's. */
static void record_fill(ir_kernel *ik, LLVMValueRef call) {
  record_copy_side(ik, call, 0, constant_length(call), M_WRITE);
}

/* A call's pointer arguments that are not accesses: the array escapes
 * (handed to code warplint does not see). */
static void escape_arguments(ir_kernel *ik, LLVMValueRef call) {
  unsigned n = LLVMGetNumArgOperands(call);
  for (unsigned i = 0; i < n; i++) {
    LLVMValueRef arg = LLVMGetOperand(call, i);
    if (!is_pointer(arg)) continue;
    const ir_value *v = value_of(ik, arg);
    if (v->base >= 0 && ik->bases[v->base].array >= 0) ik->k->arrays[ik->bases[v->base].array].escaped = true;
  }
}

/* Functions of the CUDA API that access memory through their first
 * argument, as the stand-in headers declare them (with a toolkit they are
 * inlined into loads, stores and atomics). */
static int api_access(const char *name) {
  char plain[64];
  plain_name(name, false, plain, sizeof plain);
  if (strncmp(plain, "atomic", 6) == 0 || strncmp(plain, "__nv_atomic", 11) == 0) return M_READ | M_WRITE | M_ATOMIC;
  if (strcmp(plain, "__ldg") == 0) return M_READ | M_LDG;
  if (strncmp(plain, "__ld", 4) == 0) return M_READ;
  if (strncmp(plain, "__st", 4) == 0 && strlen(plain) == 6) return M_WRITE;
  return 0;
}

/* PTX written inline (clang's __ldcg and friends): "ld.global.cg.v4.f32
 * {...}, [%4];" reads, "st..." writes, through the pointer operand, as
 * wide as the vector and type suffixes say. */
static void asm_access(ir_kernel *ik, LLVMValueRef call) {
  size_t len;
  const char *text = LLVMGetInlineAsmAsmString(LLVMGetCalledValue(call), &len);
  bool load = strncmp(text, "ld.", 3) == 0, store = strncmp(text, "st.", 3) == 0;
  if (!load && !store) return;
  long long lanes = strstr(text, ".v4.") ? 4 : strstr(text, ".v2.") ? 2 : 1, bits = 32;
  const char *end = strpbrk(text, " \t");
  for (const char *p = text; p && p < (end ? end : text + len); p = strchr(p + 1, '.')) {
    int b;
    if (sscanf(p, ".%*1[subf]%d", &b) == 1 && (b == 8 || b == 16 || b == 32 || b == 64)) bits = b;
  }
  unsigned n = LLVMGetNumArgOperands(call);
  for (unsigned i = 0; i < n; i++)
    if (is_pointer(LLVMGetOperand(call, i))) {
      record(ik, call, LLVMGetOperand(call, i), lanes * bits / 8, load ? M_READ : M_WRITE);
      return;
    }
}

static void visit_instruction(ir_kernel *ik, LLVMValueRef inst) {
  LLVMOpcode op = LLVMGetInstructionOpcode(inst);
  switch (op) {
  case LLVMLoad: {
    bool invariant = LLVMGetMetadata(inst, LLVMGetMDKindIDInContext(ik->code->context, "invariant.load", 14)) != NULL;
    record(ik, inst, LLVMGetOperand(inst, 0), type_bytes(ik, LLVMTypeOf(inst)), M_READ | (invariant ? M_LDG : 0));
    return;
  }
  case LLVMStore: {
    LLVMValueRef value = LLVMGetOperand(inst, 0);
    record(ik, inst, LLVMGetOperand(inst, 1), type_bytes(ik, LLVMTypeOf(value)), M_WRITE);
    if (is_pointer(value)) {                   /* a pointer stored away escapes */
      const ir_value *v = value_of(ik, value);
      if (v->base >= 0 && ik->bases[v->base].array >= 0) ik->k->arrays[ik->bases[v->base].array].escaped = true;
    }
    return;
  }
  case LLVMAtomicRMW:
    record(ik, inst, LLVMGetOperand(inst, 0), type_bytes(ik, LLVMTypeOf(inst)), M_READ | M_WRITE | M_ATOMIC);
    return;
  case LLVMAtomicCmpXchg:
    record(ik, inst, LLVMGetOperand(inst, 0), type_bytes(ik, LLVMTypeOf(LLVMGetOperand(inst, 1))),
           M_READ | M_WRITE | M_ATOMIC);
    return;
  case LLVMCall: {
    const char *name = callee_name(inst);
    if (strncmp(name, "llvm.nvvm.ldg", 13) == 0 || strncmp(name, "llvm.nvvm.ldu", 13) == 0) {
      record(ik, inst, LLVMGetOperand(inst, 0), type_bytes(ik, LLVMTypeOf(inst)), M_READ | M_LDG);
      return;
    }
    /* a vector load or store of some lanes (LLVM's load-store vectoriser
     * joins a float4's x, y and z so, as one ld.v4): the whole vector */
    if (strncmp(name, "llvm.masked.load.", 17) == 0) {
      record(ik, inst, LLVMGetOperand(inst, 0), type_bytes(ik, LLVMTypeOf(inst)), M_READ);
      return;
    }
    if (strncmp(name, "llvm.masked.store.", 18) == 0) {
      record(ik, inst, LLVMGetOperand(inst, 1), type_bytes(ik, LLVMTypeOf(LLVMGetOperand(inst, 0))), M_WRITE);
      return;
    }
    if (strncmp(name, "llvm.memcpy.", 12) == 0 || strncmp(name, "llvm.memmove.", 13) == 0) {
      record_copy(ik, inst);
      return;
    }
    if (strncmp(name, "llvm.memset.", 12) == 0) {
      record_fill(ik, inst);
      return;
    }
    if (strncmp(name, "llvm.", 5) == 0) return;   /* barriers, lifetimes, math */
    int mode = api_access(name);
    if (mode && LLVMGetNumArgOperands(inst) >= 1 && is_pointer(LLVMGetOperand(inst, 0))) {
      bool store = (mode & M_WRITE) && !(mode & M_READ) && LLVMGetNumArgOperands(inst) >= 2;
      long long bytes = 0;
      if (store && !byval_argument(inst, 1, &bytes, ik->code)) bytes = type_bytes(ik, LLVMTypeOf(LLVMGetOperand(inst, 1)));
      if (!store && LLVMGetTypeKind(LLVMTypeOf(inst)) != LLVMVoidTypeKind) bytes = type_bytes(ik, LLVMTypeOf(inst));
      if (bytes > 0) record(ik, inst, LLVMGetOperand(inst, 0), bytes, mode);
      return;
    }
    if (LLVMIsAInlineAsm(LLVMGetCalledValue(inst))) {
      asm_access(ik, inst);
      return;
    }
    escape_arguments(ik, inst);
    return;
  }
  default:
    return;
  }
}

/* ---- vector accesses as nvcc makes them ---- */

/* Whether every term of p (its constant too) is a multiple of n. */
static bool poly_multiple(const poly *p, long long n) {
  if (p->unknown) return false;
  for (int i = 0; i < p->count; i++)
    if (p->terms[i].coef % n != 0) return false;
  return true;
}

/* An address as a root pointer plus a constant: through GEPs whose
 * indices are all constants (p + 4, &row[3]). */
static LLVMValueRef constant_part(ir_kernel *ik, LLVMValueRef p, long long *bytes) {
  *bytes = 0;
  for (int hops = 0; hops < 8 && (LLVMIsAGetElementPtrInst(p) || LLVMIsABitCastInst(p)); hops++) {
    if (LLVMIsABitCastInst(p)) { p = LLVMGetOperand(p, 0); continue; }
    poly own;
    bool evaluable;
    long long c;
    gep_offset(ik, p, &own, &evaluable);
    if (!poly_is_const(&own, &c)) break;
    *bytes += c;
    p = LLVMGetOperand(p, 0);
  }
  return p;
}

/* The constant distance from access a to access b, when their addresses
 * differ by one (as polynomials, or as GEPs off one pointer). */
static bool distance(ir_kernel *ik, int a, int b, long long *d) {
  const access_info *x = &ik->k->accesses[a], *y = &ik->k->accesses[b];
  if (!x->off.unknown && !y->off.unknown) {
    poly diff;
    poly_add(&diff, &y->off, &x->off, -1);
    return poly_is_const(&diff, d);
  }
  long long ca, cb;
  LLVMValueRef ra = constant_part(ik, ik->addresses[a], &ca), rb = constant_part(ik, ik->addresses[b], &cb);
  *d = cb - ca;
  return ra == rb;
}

/* Whether the access's lanes all start on a multiple of n bytes. */
static bool aligned_to(const access_info *x, long long n) {
  if (!x->off.unknown) return poly_multiple(&x->off, n);
  if (x->lanes.kind != LANE_CONCRETE && x->lanes.kind != LANE_UNIFORM) return false;
  for (int l = 0; l < 32; l++)
    if ((x->lanes.active >> l & 1) && x->lanes.offset[l] % n != 0) return false;
  return true;
}

/* Neighbouring accesses of one array in one block, alike and each right
 * after the other in memory, that together fill an aligned 8 or 16 bytes
 * become one vector access, as nvcc's vectorizer makes them (ld.v4 for the
 * float4 read through a cast, the four fields stored one by one). LLVM's
 * own vectorizer, run in device.c, merges fewer: it gives up where it
 * cannot prove the alignment that the source states (__align__(16), a
 * float4 cast). */
static void merge_like_nvcc(ir_kernel *ik) {
  kernel_ctx *k = ik->k;
  for (int i = 0; i < k->access_count; i++) {
    access_info *x = &k->accesses[i];
    if (x->merged || x->width >= 16 || k->arrays[x->array].space == SP_LOCAL) continue;
    int chain[16], n = 1;
    chain[0] = i;
    for (int j = i + 1; j < k->access_count && n < 16; j++) {
      access_info *y = &k->accesses[j];
      if (y->merged || y->region != x->region || y->array != x->array) continue;
      long long d;
      if (y->width != x->width || y->write != x->write || y->read != x->read || !distance(ik, i, j, &d) ||
          d != n * x->width)
        break;
      chain[n++] = j;
    }
    for (long long vector = 16; vector >= 8; vector /= 2) {
      int parts = (int)(vector / x->width);
      if (parts < 2 || parts > n || x->base_align < vector || !aligned_to(x, vector)) continue;
      x->width = vector;
      for (int c = 1; c < parts; c++) k->accesses[chain[c]].merged = true;
      break;
    }
  }
}

/* ---- loops the compiler unrolled ---- */

static bool same_copy_place(const access_info *a, const access_info *b) {
  return b->array == a->array && b->line == a->line && !a->borrowed_line && !b->borrowed_line &&
         b->inlined_at == a->inlined_at && b->write == a->write &&
         b->read == a->read &&
         b->width == a->width && !b->merged && !b->off.unknown && same_file(a->file, b->file) &&
         b->loop_count == a->loop_count && !memcmp(a->loops, b->loops, sizeof a->loops[0] * (size_t)a->loop_count);
}

/* Accesses of one source line to one array, alike, whose offsets differ by
 * constants are copies of one access the compiler unrolled from a loop.
 * Three or more copies a constant step apart become again one access
 * walked by a loop (an atom of its own, named by the source's loop, with
 * the copies' count as its trips), so that the checks see the loop the
 * source wrote; the other copies are merged away. */
/* Whether d is c times s for an integer c. */
static bool multiple_of(const poly *d, const poly *s, long long *c) {
  if (d->count == 0) { *c = 0; return true; }
  if (s->count == 0 || s->terms[0].coef == 0) return false;
  /* the ratio from s's first term as it appears in d */
  poly probe;
  long long ratio = 0;
  bool found = false;
  for (int i = 0; i < d->count && !found; i++) {
    poly one, other;
    poly_const(&one, 0);
    one.terms[0] = d->terms[i];
    one.count = 1;
    other = one;
    other.terms[0].coef = s->terms[0].coef;
    poly sterm;
    poly_const(&sterm, 0);
    sterm.terms[0] = s->terms[0];
    sterm.count = 1;
    if (!poly_equal(&other, &sterm) || d->terms[i].coef % s->terms[0].coef) continue;
    ratio = d->terms[i].coef / s->terms[0].coef;
    found = true;
  }
  if (!found) return false;
  poly scaled, k;
  poly_const(&k, ratio);
  poly_mul(&scaled, s, &k);
  poly_add(&probe, d, &scaled, -1);
  *c = ratio;
  return probe.count == 0;
}

/* The atom of a source loop the compiler unrolled into `turns` copies. */
static int unrolled_loop_atom(kernel_ctx *k, const char *name, long long turns) {
  int atom = new_atom(k, ATOMK_LOOP, name);
  k->atoms[atom].unit_step = true;
  k->atoms[atom].const_trip = true;
  k->atoms[atom].trips = turns;
  return atom;
}

/* Three or more copies of one access at one address, of one line and one
 * call site: a loop of the source the compiler unrolled, reading the same
 * element on every turn (a store in the loop may have changed it:
 * g_bec[n1 + N * d] *= scale[0] for d < 9). They become one access in a
 * loop named by the source's, with the copies' count as its trips. */
static void fold_repeated(ir_kernel *ik) {
  kernel_ctx *k = ik->k;
  enum { MAX_COPIES = 256 };
  int copy[MAX_COPIES];
  for (int i = 0; i < k->access_count; i++) {
    access_info *x = &k->accesses[i];
    if (x->merged || x->off.unknown || x->loop_count >= MAX_LOOPS) continue;
    int n = 0;
    for (int j = i; j < k->access_count && n < MAX_COPIES; j++) {
      access_info *y = &k->accesses[j];
      poly diff;
      if (!same_copy_place(x, y)) continue;
      poly_add(&diff, &y->off, &x->off, -1);
      if (diff.count == 0) copy[n++] = j;
    }
    char name[64];
    if (n < 3 || !ir_loop_at(ik->scope, x->file, x->line, x->column, name, sizeof name)) continue;
    x->loops[x->loop_count++] = unrolled_loop_atom(k, name, n);
    for (int c = 1; c < n; c++) k->accesses[copy[c]].merged = true;
  }
}

/* Accesses of one source line to one array, alike, whose offsets differ by
 * multiples of one step (a constant, or a row size such as 4 * n) are
 * copies of one access the compiler unrolled from a loop. Three or more
 * copies one step apart become again one access walked by a loop (an
 * atom named by the source's loop), so that the checks see the loop the
 * source wrote; the other copies are merged away. Where the copies sit in
 * a loop of the device code whose counter moves them by all the copies'
 * steps (a loop unrolled partly), that loop is the source's: its atom
 * gives way to the new one, which keeps its trip count. */
static void fold_unrolled(ir_kernel *ik) {
  kernel_ctx *k = ik->k;
  enum { MAX_COPIES = 256 };
  int copy[MAX_COPIES];
  long long delta[MAX_COPIES];
  for (int i = 0; i < k->access_count; i++) {
    access_info *x = &k->accesses[i];
    if (x->merged || x->off.unknown || x->loop_count >= MAX_LOOPS) continue;
    poly step_poly;
    bool have_step = false;
    int n = 0;
    for (int j = i; j < k->access_count && n < MAX_COPIES; j++) {
      access_info *y = &k->accesses[j];
      if (!same_copy_place(x, y)) continue;
      poly diff;
      long long c = 0;
      poly_add(&diff, &y->off, &x->off, -1);
      if (j != i && !have_step && diff.count) { step_poly = diff; have_step = true; }
      if (j != i && (!have_step || !multiple_of(&diff, &step_poly, &c))) continue;
      copy[n] = j;
      delta[n++] = c;
    }
    if (n < 3) continue;
    /* the copies one step apart, in program order, else in address order */
    long long step = delta[1] - delta[0], first = delta[0];
    bool even = step != 0;
    for (int c = 2; c < n && even; c++) even = delta[c] - delta[c - 1] == step;
    if (!even) {
      long long sorted[MAX_COPIES];
      memcpy(sorted, delta, (size_t)n * sizeof *delta);
      for (int a = 1; a < n; a++)
        for (int b = a; b > 0 && sorted[b - 1] > sorted[b]; b--) {
          long long t = sorted[b]; sorted[b] = sorted[b - 1]; sorted[b - 1] = t;
        }
      step = sorted[1] - sorted[0];
      first = sorted[0];
      even = step != 0;
      for (int c = 2; c < n && even; c++) even = sorted[c] - sorted[c - 1] == step;
    }
    if (!even) continue;
    poly unit, scale;
    poly_const(&scale, step);
    poly_mul(&unit, &step_poly, &scale);      /* one source iteration, in bytes */
    /* copies where the source has no loop, in the kernel's own code, are
     * the source's own reads (dEps[0], dEps[1], dEps[2] on one line), not
     * a loop's turns; an inlined helper's may be its caller's loop's */
    char name[64] = "unrolled";
    if (!ir_loop_at(ik->scope, x->file, x->line, x->column, name, sizeof name) && !x->inlined_at) continue;
    int atom = unrolled_loop_atom(k, name, n);
    atom_info *u = &k->atoms[atom];
    poly base = x->off, shift;
    poly_const(&scale, first);
    poly_mul(&shift, &step_poly, &scale);
    poly_add(&base, &base, &shift, 1);
    for (int a = ATOM_FIRST_SYMBOL; a < k->atom_count; a++) {
      if (a == atom || k->atoms[a].kind != ATOMK_LOOP || !poly_uses_atom(&base, a)) continue;
      poly coefficient, whole;
      poly_coefficient(&base, a, &coefficient);
      poly_const(&scale, n);
      poly_mul(&whole, &unit, &scale);
      if (!poly_equal(&coefficient, &whole)) continue;
      poly term, atom_l;
      poly_atom(&atom_l, a);
      poly_mul(&term, &coefficient, &atom_l);
      poly_add(&base, &base, &term, -1);     /* the partly unrolled loop is the source's */
      u = &k->atoms[atom];
      u->const_trip = k->atoms[a].const_trip;
      u->trips = k->atoms[a].const_trip ? k->atoms[a].trips * n : 0;
      break;
    }
    poly moved, counter;
    poly_atom(&counter, atom);
    poly_mul(&moved, &unit, &counter);
    poly_add(&x->off, &base, &moved, 1);
    x->loops[x->loop_count++] = atom;        /* constant copies stay known once unrolled */
    for (int c = 1; c < n; c++) k->accesses[copy[c]].merged = true;
    /* the copies may run with different lanes (a triangular loop's `if (tx
     * <= m)`): its widest turn speaks for the loop, the lanes' offsets being
     * the same up to the copies' uniform step */
    const access_info *widest = x;
    for (int c = 1; c < n; c++)
      if (active_lanes(k->accesses[copy[c]].lanes.active) > active_lanes(widest->lanes.active))
        widest = &k->accesses[copy[c]];
    if (widest != x) {
      x->lanes = widest->lanes;
      x->padded = widest->padded;
      x->region = widest->region;
    }
    memcpy(k->active, ik->blocks[x->region].active, sizeof k->active);
    if (k->arrays[x->array].space == SP_GLOBAL && x->read)
      x->reuse = block_reuse(k, &x->off, &x->reuse_restricted);
  }
}

/* ---- sorts in private arrays (L_3) ---- */

/* Whether v is an element loaded from private array `array` (through a
 * phi or select of such loads). */
static bool loaded_from(ir_kernel *ik, LLVMValueRef v, int array, int depth) {
  if (depth > 8 || !LLVMIsAInstruction(v)) return false;
  LLVMOpcode op = LLVMGetInstructionOpcode(v);
  if (op == LLVMLoad) {
    const ir_value *at = value_of(ik, LLVMGetOperand(v, 0));
    return at->base >= 0 && ik->bases[at->base].array == array;
  }
  if (op == LLVMPHI) {
    unsigned n = LLVMCountIncoming(v);
    for (unsigned i = 0; i < n; i++)
      if (loaded_from(ik, LLVMGetIncomingValue(v, i), array, depth + 1)) return true;
    return false;
  }
  if (op == LLVMSelect)
    return loaded_from(ik, LLVMGetOperand(v, 1), array, depth + 1) ||
           loaded_from(ik, LLVMGetOperand(v, 2), array, depth + 1);
  return false;
}

/* A private array still in memory whose elements are compared with each
 * other and stored back into it: a sort or a swap. */
static void find_sorts(ir_kernel *ik) {
  kernel_ctx *k = ik->k;
  for (int b = 0; b < ik->block_count; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(ik->blocks[b].bb); i; i = LLVMGetNextInstruction(i)) {
      LLVMOpcode op = LLVMGetInstructionOpcode(i);
      if (op != LLVMFCmp && op != LLVMICmp && op != LLVMStore) continue;
      for (int a = 0; a < k->array_count; a++) {
        array_info *arr = &k->arrays[a];
        if (arr->space != SP_LOCAL) continue;
        if (op == LLVMStore) {
          const ir_value *at = value_of(ik, LLVMGetOperand(i, 1));
          if (at->base >= 0 && ik->bases[at->base].array == a && loaded_from(ik, LLVMGetOperand(i, 0), a, 0))
            arr->swapped = true;
          continue;
        }
        CXFile file;
        unsigned line, column;
        if (arr->compared || !loaded_from(ik, LLVMGetOperand(i, 0), a, 0) ||
            !loaded_from(ik, LLVMGetOperand(i, 1), a, 0) || !user_location(ik, i, &file, &line, &column))
          continue;
        char seen[128];
        bool field;
        ir_array_at(ik->scope, file, &line, &column, false, seen, sizeof seen, &field);   /* at the array's name */
        arr->compared = true;
        arr->compare_line = line;
        arr->compare_column = column;
      }
    }
  /* L_3 reports at the comparison: an access there carries it */
  for (int a = 0; a < k->array_count; a++) {
    array_info *arr = &k->arrays[a];
    if (!arr->compared || !arr->swapped) continue;
    bool placed = false;
    for (int x = 0; x < k->access_count && !placed; x++) {
      access_info *acc = &k->accesses[x];
      if (acc->array != a || acc->line != arr->compare_line) continue;
      acc->column = arr->compare_column;
      placed = true;
    }
  }
}

/* ---- parameters that may be 1 ---- */

/* A parameter named as a tensor's layout strides are, which are 1 for
 * the innermost dimension of a contiguous tensor: per dimension (sx0,
 * s01, nb00, stride0, stride_1), the innermost by name (col_stride,
 * inner_stride), BLAS's incx. Not a sampling stride (a pooling window's
 * Hstride, stride_w: 2 in practice) nor a row's (row_stride, a pitch). */
static bool stride_name(const char *name) {
  if (strncasecmp(name, "inc", 3) == 0) return true;   /* incx, INCX: BLAS's element strides */
  if (strstr(name, "stride") || strstr(name, "Stride")) {
    static const char *const innermost[] = {"col", "Col", "inner", "Inner", "elem", "Elem", "last", "Last"};
    if (strpbrk(name, "0123456789")) return true;
    for (size_t i = 0; i < sizeof innermost / sizeof innermost[0]; i++)
      if (strstr(name, innermost[i])) return true;
    return false;
  }
  const char *p = name;
  if (strncmp(p, "nb", 2) == 0) p += 2;
  else if (*p == 's') p++;
  else return false;
  while (*p >= 'a' && *p <= 'z') p++;
  size_t digits = strspn(p, "0123456789");
  return digits > 0 && p[digits] == 0 && p - name <= 3;
}

/* The parameter atom p is, alone or scaled (4 * n), or -1. */
static int lone_parameter(const kernel_ctx *k, const poly *p) {
  if (p->unknown || p->count != 1 || p->terms[0].degree != 1) return -1;
  int a = p->terms[0].atoms[0];
  return a >= ATOM_FIRST_SYMBOL && k->atoms[a].kind == ATOMK_PARAM ? a : -1;
}

/* The smallest constant compare or switch i tests its operand `side`
 * against, or -1. */
static long long smallest_case(LLVMValueRef i, int side) {
  long long c = -1;
  if (LLVMIsAICmpInst(i)) {
    LLVMValueRef other = LLVMGetOperand(i, 1 - side);
    return LLVMIsAConstantInt(other) ? LLVMConstIntGetSExtValue(other) : -1;
  }
  for (int o = 2; o < LLVMGetNumOperands(i); o += 2) {
    LLVMValueRef v = LLVMGetOperand(i, o);
    long long value = LLVMIsAConstantInt(v) ? LLVMConstIntGetSExtValue(v) : -1;
    if (value < 0) return -1;
    if (c < 0 || value < c) c = value;
  }
  return c;
}

/* Stride-named parameters that no comparison uses as an extent (i < n),
 * and flags (compared with 0 as flags are): they may be 1, so a lane
 * stride of theirs is no finding by itself. Parameters compared only for
 * equality with small constants, or switched on, are selectors (a
 * direction). */
static void find_parameter_roles(ir_kernel *ik) {
  kernel_ctx *k = ik->k;
  enum { SMALL_CASE = 16 };
  /* per parameter atom: compared as a size is (i < n); atoms made while
   * the loop below evaluates operands lie beyond `params` */
  int params = k->atom_count;
  bool *ordered = calloc((size_t)params, sizeof *ordered);
  if (!ordered) { fprintf(stderr, "warplint: out of memory\n"); exit(2); }
  for (int a = ATOM_FIRST_SYMBOL; a < k->atom_count; a++)
    k->atoms[a].maybe_unit = k->atoms[a].kind == ATOMK_PARAM && (stride_name(k->atoms[a].name) || k->atoms[a].flag);
  for (int b = 0; b < ik->block_count; b++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(ik->blocks[b].bb); i; i = LLVMGetNextInstruction(i)) {
      bool equality = LLVMIsASwitchInst(i) || (LLVMIsAICmpInst(i) && (LLVMGetICmpPredicate(i) == LLVMIntEQ ||
                                                                       LLVMGetICmpPredicate(i) == LLVMIntNE));
      if (!LLVMIsAICmpInst(i) && !LLVMIsASwitchInst(i)) continue;
      for (int side = 0; side < (LLVMIsASwitchInst(i) ? 1 : 2); side++) {
        int p = lone_parameter(k, int_of(ik, LLVMGetOperand(i, side)));
        if (p < 0) continue;
        if (!k->atoms[p].flag) k->atoms[p].maybe_unit = false;
        if (p >= params) continue;           /* an atom made during this walk: no selector */
        /* a range check of a switch's table (dir < 3) fits a selector; a
         * comparison with anything but a small constant does not */
        long long c = smallest_case(i, side);
        if (c < 0 || c >= SMALL_CASE) ordered[p] = true;
        else if (equality && (!k->atoms[p].selector || c + 1 < k->atoms[p].selector)) k->atoms[p].selector = (int)c + 1;
      }
    }
  for (int a = ATOM_FIRST_SYMBOL; a < params; a++)
    if (ordered[a]) k->atoms[a].selector = 0;
  free(ordered);
}

/* A stencil's written-out neighbours (in[i - w], in[i], in[i + w]): a
 * read whose request from one warp is the very request another warp makes
 * through another read of the same read-only global array (the row above
 * is the next warp's own row), or most of the request its own warp makes
 * through another read shifted by a few elements (in[i - 1] beside in[i]:
 * lane l's element is lane l - 1's), loads again what the block loads
 * anyway; shared memory serves it once (S_5). The read whose requests the
 * others repeat most (the centre) is the tile itself. Requests are
 * evaluated for every warp of the modelled block, run-time sizes given
 * the probe's large values. */
typedef struct warp_request {
  long long address[32];         /* sorted */
  int lanes;
  long long at[32];              /* lane by lane, for the lanes in reach */
  unsigned reach;
  bool one_path;                 /* evaluated along one arm of each lane-varying join (a loop the compiler
                                    unrolled at run time, entered after a remainder loop or not) */
  unsigned long long hash;       /* of the sorted addresses */
} warp_request;

static int compare_addresses(const void *a, const void *b) {
  long long x = *(const long long *)a, y = *(const long long *)b;
  return x < y ? -1 : x > y;
}

static unsigned long long hash_addresses(const long long *address, int n) {
  unsigned long long h = 1469598103934665603ULL;
  for (int l = 0; l < n; l++) h = (h ^ (unsigned long long)address[l]) * 1099511628211ULL;
  return h;
}

/* S_5's evaluation of an access's lanes: run-time sizes under `probe`, a
 * block inside the grid (no clamp at its edges), loops around the access
 * in block `region` on their first turn (region < 0: none), unknowns kept
 * apart; end_s5_probe puts the plain evaluation back. */
static void begin_s5_probe(ir_kernel *ik, int region, long long probe) {
  kernel_ctx *k = ik->k;
  k->probe_uniform = probe;
  k->probe_block = 1;
  k->probe_spread = PROBE_SPREAD(probe);
  ik->first_turn = region + 1;
  ik->apart_unknowns = true;
  ik->per_warp_values = false;
}

static void end_s5_probe(ir_kernel *ik) {
  kernel_ctx *k = ik->k;
  k->probe_uniform = k->probe_block = k->probe_spread = 0;
  ik->first_turn = ik->turn_loop = ik->turn = 0;
  ik->apart_unknowns = false;
}

/* The sorted addresses of access `access`'s request from warp w (lanes 0: none). */
static void warp_request_of(ir_kernel *ik, int access, int w, long long probe, warp_request *r) {
  kernel_ctx *k = ik->k;
  const access_info *x = &k->accesses[access];
  lane_vals v;
  r->lanes = 0;
  /* in a loop: on its first turn (reads of one turn compared alike) */
  begin_s5_probe(ik, x->loop_count ? x->region : -1, probe);
  bool ok = x->off.unknown || uses_boolean_atom(k, &x->off) ? ir_lanes(ik, ik->addresses[access], w, &v, 0)
                                                              : poly_lanes(k, &x->off, w, &v);
  r->one_path = false;
  if ((!ok || v.shifted) && x->off.unknown && x->loop_count) {
    ik->any_arm = r->one_path = true;
    ok = ir_lanes(ik, ik->addresses[access], w, &v, 0);
    ik->any_arm = false;
  }
  end_s5_probe(ik);
  if (!ok || v.shifted) return;
  /* the lanes that reach the read (k->active is the last access's) */
  r->reach = ik->blocks[x->region].active[w];
  for (int l = 0; l < 32; l++)
    if (r->reach >> l & 1) r->address[r->lanes++] = r->at[l] = v.v[l];
  qsort(r->address, (size_t)r->lanes, sizeof r->address[0], compare_addresses);
  /* a row of elements, not a broadcast (every warp reading rand[1] is one
   * element the L1 serves, no tile) */
  int distinct = r->lanes > 0;
  for (int l = 1; l < r->lanes; l++) distinct += r->address[l] != r->address[l - 1];
  if (2 * distinct < r->lanes) { r->lanes = 0; return; }
  r->hash = hash_addresses(r->address, r->lanes);
}

static bool same_request(const warp_request *a, const warp_request *b) {
  return a->lanes >= 2 && a->hash == b->hash && a->lanes == b->lanes &&
         memcmp(a->address, b->address, (size_t)a->lanes * sizeof a->address[0]) == 0;
}

/* The most elements two neighbour reads of a stencil lie apart (in[i - 1]
 * beside in[i], a radius of a few): a reduction's two halves a block's
 * width apart (in[i] + in[i + blockSize]) are no neighbours, whatever
 * width the model's block gives the warp. */
#define NEIGHBOUR_ELEMENTS 8

/* Whether at least half of a's lanes read an element another lane reads
 * in b, b being another read's request of the same warp (not a lane
 * reading its own element again: a load the compiler kept twice, a
 * record's own fields), where one lane's two reads, if a constant apart,
 * are neighbours (width: the access's bytes). In a block whose rows split
 * its warps (`rows`: 10 threads wide), b may be another warp's request,
 * and a lane's two reads a row apart (u[idx - cols] beside u[idx]: the row
 * above is in the warp, or in the next): *far (where far is given) says
 * that they are. */
static bool repeats_request(const warp_request *a, const warp_request *b, long long width, bool same_warp, bool rows,
                            bool *far) {
  if (a->lanes < 2 || b->lanes < 2) return false;
  int shared = 0;
  for (int i = 0, j = 0; i < a->lanes && j < b->lanes;) {
    if (a->address[i] == b->address[j]) shared++, i++, j++;
    else if (a->address[i] < b->address[j]) i++;
    else j++;
  }
  if (2 * shared < a->lanes) return false;
  int others = 0, both = 0;
  bool one_shift = true;
  long long shift = 0;
  for (int l = 0; l < 32; l++) {
    if (!(a->reach >> l & 1)) continue;
    bool found = false;
    for (int m = 0; m < 32 && !found; m++)
      found = (m != l || !same_warp) && (b->reach >> m & 1) && b->at[m] == a->at[l];
    others += found;
    if (!(b->reach >> l & 1)) continue;
    if (both++ == 0) shift = a->at[l] - b->at[l];
    else one_shift = one_shift && a->at[l] - b->at[l] == shift;
  }
  if (2 * others < a->lanes) return false;
  bool apart = !same_warp || (one_shift && width > 0 && llabs(shift) > NEIGHBOUR_ELEMENTS * width);
  if (far) *far = apart;
  return !apart || rows;
}

/* Whether two accesses sit in the same loops: their requests on one turn
 * are compared with the loops' counters alike (a stencil that walks a
 * third dimension turn by turn). */
static bool same_loops(const access_info *x, const access_info *y) {
  return x->loop_count == y->loop_count && memcmp(x->loops, y->loops, (size_t)x->loop_count * sizeof x->loops[0]) == 0;
}

/* Where the kernel's launch is not known, the modelled block's z layers
 * stand for other blocks (a real block is seldom deeper than one layer):
 * the layer of each warp, 0 for all where the block is known. */
static void warp_layers(const kernel_ctx *k, long long *layer) {
  for (int w = 0; w < k->warps; w++) {
    long long t[3];
    lane_coords(k, 32 * w, t);
    layer[w] = k->block_known ? 0 : t[2];
  }
}

/* The group of read i under `pair` (union by the smallest member). */
static int request_group(int *group, int i) {
  while (group[i] != i) i = group[i] = group[group[i]];
  return i;
}

static void find_neighbour_reuse(ir_kernel *ik) {
  kernel_ctx *k = ik->k;
  enum { MAX_READS = 48 };   /* reads of one array followed: a stencil of several parts */
  for (int a = 0; a < k->array_count; a++) {
    if (k->arrays[a].space != SP_GLOBAL || !is_read_only(&k->arrays[a])) continue;
    int list[MAX_READS], n = 0;
    for (int i = 0; i < k->access_count && n < MAX_READS; i++) {
      const access_info *x = &k->accesses[i];
      /* a value one per warp that the warps need not share ((joined) of a
       * row per warp) gives every warp the probe's one value: no warp
       * could be told from another */
      if (x->array == a && x->read && !x->data_dependent && !from_threads_atom(k, &x->off))
        list[n++] = i;
    }
    if (n < 2) continue;
    /* the requests under two sets of run-time sizes: two reads' requests
     * are the same only where they agree under both (sizes the probe
     * happens to make alike must not join two rows) */
    size_t count = (size_t)n * (size_t)k->warps;
    warp_request *req = malloc(2 * count * sizeof *req);
    if (!req) continue;
    warp_request *other = req + count;
    for (int i = 0; i < n; i++)
      for (int w = 0; w < k->warps; w++) {
        warp_request_of(ik, list[i], w, PROBE_SIZE, &req[i * k->warps + w]);
        warp_request_of(ik, list[i], w, 2 * PROBE_SIZE + 8, &other[i * k->warps + w]);
      }
    long long layer[MAX_WARPS];
    warp_layers(k, layer);
    bool rows = k->block_known && k->block[0] % 32 != 0;    /* a warp spans rows of the block */
    /* per read: its warps' requests another warp makes through another
     * read, or its own warp mostly, shifted */
    int matched[MAX_READS] = {0}, asked[MAX_READS] = {0}, partner[MAX_READS], group[MAX_READS];
    bool pair[MAX_READS][MAX_READS] = {{false}}, shifted[MAX_READS] = {false}, another_warp[MAX_READS] = {false},
         another_row[MAX_READS] = {false};
    for (int i = 0; i < n; i++) group[i] = i;
    for (int i = 0; i < n; i++)
      for (int w = 0; w < k->warps; w++) {
        const warp_request *r = &req[i * k->warps + w];
        if (r->lanes < 2) continue;
        asked[i]++;
        bool found = false;
        for (int j = 0; j < n; j++) {
          if (j == i || !same_loops(&k->accesses[list[i]], &k->accesses[list[j]])) continue;
          /* copies the compiler unrolled (merged into one access walked by
           * a loop) are that access's turns, no neighbours */
          bool copies = k->accesses[list[i]].merged || k->accesses[list[j]].merged;
          /* the compiler's copy of the same read (a loop's remainder, whose
           * start the probe's trip count makes another warp's row) is no
           * other read of another warp: that is what the read's own block
           * reuse says */
          const access_info *xi = &k->accesses[list[i]], *xj = &k->accesses[list[j]];
          bool same_read = xi->line == xj->line && xi->column == xj->column && xi->file == xj->file;
          for (int v = 0; v < k->warps; v++) {
            if (layer[v] != layer[w]) continue;
            bool whole = v != w && !same_read && !r->one_path && !req[j * k->warps + v].one_path &&
                         same_request(r, &req[j * k->warps + v]) &&
                         same_request(&other[i * k->warps + w], &other[j * k->warps + v]);
            long long width = k->accesses[list[i]].width;
            bool far = false;
            bool part = (v == w || rows) && !copies &&
                        repeats_request(r, &req[j * k->warps + v], width, v == w, rows, &far) &&
                        repeats_request(&other[i * k->warps + w], &other[j * k->warps + v], width, v == w, rows,
                                        NULL);
            if (!whole && !part) continue;
            found = true;
            partner[i] = j;
            pair[i][j] = true;
            if (whole) another_warp[i] = true;
            else if (far) another_row[i] = true;
            else shifted[i] = true;
            int gi = request_group(group, i), gj = request_group(group, j);
            if (gi != gj) group[gi > gj ? gi : gj] = gi < gj ? gi : gj;
          }
        }
        matched[i] += found;
      }
    /* per group of reads that repeat each other, the centre: the read whose
     * requests the others repeat most (every row of the tile is some
     * neighbour's row, while a neighbour's outermost row lies outside the
     * block); of two alike, the first in the source */
    int centre[MAX_READS];
    for (int i = 0; i < n; i++) centre[i] = -1;
    for (int i = 0; i < n; i++) {
      int g = request_group(group, i), *c = &centre[g];
      if (matched[i] && (*c < 0 || matched[i] > matched[*c] ||
                         (matched[i] == matched[*c] && k->accesses[list[i]].line < k->accesses[list[*c]].line)))
        *c = i;
    }
    for (int i = 0; i < n; i++) {
      int c = centre[request_group(group, i)];
      if (i == c || !asked[i] || 2 * matched[i] < asked[i]) continue;
      access_info *x = &k->accesses[list[i]];
      const access_info *by = &k->accesses[list[c >= 0 && pair[i][c] ? c : partner[i]]];
      /* a copy of the same read: a loop the compiler unrolled (at run
       * time, so no polynomial joined the copies), whose turns overlap */
      if (shifted[i] && !another_warp[i] && x->loop_count && by->line == x->line && by->column == x->column &&
          by->file == x->file) {
        x->window_reuse = true;
        continue;
      }
      x->neighbour_reuse = true;
      x->neighbour_shifted = shifted[i] && !another_warp[i];   /* the other warp's request, where both */
      x->neighbour_rows = another_row[i] && !another_warp[i] && !shifted[i];
      x->neighbour_line = by->line;
    }
    free(req);
  }
}

/* The one block of loop l with a branch out of it, and which of that
 * branch's sides stays in (0: the true side); -1 where there are several
 * or the branch is not a plain two-way one. */
static int exiting_block(const ir_kernel *ik, int l, int *stay_side) {
  int found = -1;
  for (int b = 0; b < ik->block_count; b++) {
    if (!ik->loops[l].body[b]) continue;
    const ir_block *blk = &ik->blocks[b];
    int inside = 0;
    for (int s = 0; s < blk->nsucc; s++) inside += ik->loops[l].body[blk->succ[s]] != 0;
    if (inside == blk->nsucc) continue;
    if (found >= 0 || blk->nsucc != 2 || inside != 1 || !branch_condition(ik, b)) return -1;
    found = b;
    *stay_side = ik->loops[l].body[blk->succ[0]] ? 0 : 1;
  }
  return found;
}

enum { WINDOW_TURNS = 8, WINDOW_WARPS = 8 };

/* Access i's addresses on the first `turns` turns of loop l for each of
 * the first `warps` warps, under the probe's run-time sizes, with the
 * lanes that run each turn (alive; 0 once the warp has left the loop);
 * *per_warp where a value one per warp, or of no known reach, went into
 * them (the probe gives it every warp alike: warps cannot be compared).
 * False where a turn's addresses or the loop's exit cannot be evaluated. */
static bool window_addresses(ir_kernel *ik, int i, int l, int turns, int warps, long long probe,
                             long long (*address)[WINDOW_WARPS][32], unsigned (*alive)[WINDOW_WARPS],
                             bool *per_warp) {
  const access_info *x = &ik->k->accesses[i];
  int stay_side, exit_block = exiting_block(ik, l, &stay_side);
  if (exit_block < 0) return false;
  bool exit_first = exit_block == ik->loops[l].header;   /* a loop tested before its body, not after */
  LLVMValueRef cond = branch_condition(ik, exit_block);
  begin_s5_probe(ik, x->region, probe);
  ik->turn_loop = l + 1;
  bool ok = true;
  for (int w = 0; w < warps && ok; w++) {
    unsigned lanes = ik->blocks[x->region].active[w];
    for (int t = 0; t < turns && ok; t++) {
      ik->turn = t;
      unsigned stay = lanes;
      if (lanes) {
        unsigned yes, no;
        condition_lanes(ik, cond, w, &yes, &no, 0);
        if (yes & no) ok = false;                       /* the exit not told lane by lane */
        stay = lanes & (stay_side == 0 ? yes : no);
      }
      if (exit_first) lanes = stay;
      alive[t][w] = lanes;
      lane_vals v;
      if (lanes && ok) {
        ok = ir_lanes(ik, ik->addresses[i], w, &v, 0) && !v.shifted;
        memcpy(address[t][w], v.v, sizeof address[t][w]);
      }
      if (!exit_first) lanes = stay;
    }
  }
  *per_warp = ik->per_warp_values;
  end_s5_probe(ik);
  return ok;
}

/* Whether, on a later turn, at least half of the warps' lanes read what
 * another thread of the block read on the first turn (another lane of
 * their warp only, where warps cannot be compared), each lane's own
 * element having moved. */
static bool window_overlaps(int turns, int warps, long long (*address)[WINDOW_WARPS][32],
                            unsigned (*alive)[WINDOW_WARPS], const long long *layer, bool warp_only) {
  int reusing = 0, asked = 0;
  for (int w = 0; w < warps; w++) {
    unsigned first = alive[0][w];
    if (__builtin_popcount(first) < 2) continue;
    asked++;
    int hits = 0;
    for (int a = 0; a < 32; a++) {
      bool hit = false;
      for (int t = 1; t < turns && !hit; t++) {
        if (!(alive[t][w] >> a & 1) || address[t][w][a] == address[0][w][a]) continue;
        for (int v = 0; v < warps && !hit; v++) {
          if (layer[v] != layer[w] || (warp_only && v != w)) continue;
          for (int b = 0; b < 32 && !hit; b++)
            hit = (alive[0][v] >> b & 1) && (v != w || b != a) && address[0][v][b] == address[t][w][a];
        }
      }
      hits += hit;
    }
    reusing += 2 * hits >= __builtin_popcount(first);
  }
  return asked > 0 && 2 * reusing >= asked;
}

/* Whether each lane walks inside a record of its own (boards[idx].cell[i]:
 * records a lane apart, the loop moving less than one a turn): a lane
 * reaches another's record only past its field's end, where a loop over
 * the field never goes (the probe's large trip count would). */
static bool walks_own_record(const kernel_ctx *k, const access_info *x) {
  long long record = k->arrays[x->array].elem_size;
  if (x->off.unknown || !x->lanes.stride_const || record <= 0 || llabs(x->lanes.stride_value) != record) return false;
  long long step = walk_step(k, &x->off, 1);
  return step > 0 && step < record;
}

/* A sliding window the polynomial does not carry (a filter's loop from
 * max(0, 2 * x - 2), clamped at the image's edge): on a later turn of the
 * innermost loop lanes read elements other lanes of their warp read on
 * the first, for most warps under two sets of run-time sizes. Each such
 * element is loaded again per reader; shared memory serves it once (S_5). */
static void find_window_reuse(ir_kernel *ik) {
  kernel_ctx *k = ik->k;
  long long layer[MAX_WARPS];
  warp_layers(k, layer);
  int warps = k->warps < WINDOW_WARPS ? k->warps : WINDOW_WARPS;
  static _Thread_local long long address[WINDOW_TURNS][WINDOW_WARPS][32];
  static _Thread_local unsigned alive[WINDOW_TURNS][WINDOW_WARPS];
  for (int i = 0; i < k->access_count; i++) {
    access_info *x = &k->accesses[i];
    if (x->merged || !x->read || x->write || x->data_dependent || x->neighbour_reuse || !x->loop_count ||
        x->window_reuse || x->lanes.kind == LANE_UNIFORM || k->arrays[x->array].space != SP_GLOBAL ||
        !is_read_only(&k->arrays[x->array]))
      continue;
    int l = ik->blocks[x->region].loop;
    if (l < 0) continue;
    int atom = ik->loops[l].atom, turns = WINDOW_TURNS;
    /* threads striding through a range together, in a block of a shape
     * the launch does not give: the step is meant to be the number of
     * threads (vector_mv_csr<BS> in BS-wide rows), which the modelled
     * 32-wide block would overlap */
    if ((atom >= 0 && k->atoms[atom].lane_start && !k->block_known) || walks_own_record(k, x)) continue;
    if (atom >= 0 && k->atoms[atom].const_trip && k->atoms[atom].trips < turns) turns = (int)k->atoms[atom].trips;
    if (turns < 2) continue;
    bool overlaps = true;
    for (int p = 0; p < 2 && overlaps; p++) {
      bool per_warp;
      overlaps = window_addresses(ik, i, l, turns, warps, p ? 2 * PROBE_SIZE + 8 : PROBE_SIZE, address, alive,
                                  &per_warp) &&
                 window_overlaps(turns, warps, address, alive, layer, per_warp);
    }
    x->window_reuse = overlaps;
  }
}

/* ---- the kernel ---- */

static void analyze(ir_kernel *given) {
  ir_kernel ik = *given;
  if (!LLVMGetFirstBasicBlock(ik.fn)) return;
  build_cfg(&ik);
  find_divergent_exits(&ik);
  reach_blocks(&ik);
  /* the loops' counters first, so that every access sees their atoms */
  for (int l = 0; l < ik.loop_count; l++)
    for (LLVMValueRef i = LLVMGetFirstInstruction(ik.blocks[ik.loops[l].header].bb); i && LLVMIsAPHINode(i);
         i = LLVMGetNextInstruction(i))
      value_of(&ik, i);
  for (int r = 0; r < ik.block_count; r++)
    for (int b = 0; b < ik.block_count; b++) {
      if (ik.blocks[b].rpo != r) continue;
      for (LLVMValueRef i = LLVMGetFirstInstruction(ik.blocks[b].bb); i; i = LLVMGetNextInstruction(i))
        visit_instruction(&ik, i);
    }
  for (int b = 0; b < ik.base_count; b++)
    if (ik.bases[b].joined_store && ik.bases[b].array >= 0) ik.k->arrays[ik.bases[b].array].written = true;
  merge_like_nvcc(&ik);
  fold_repeated(&ik);
  fold_unrolled(&ik);
  find_sorts(&ik);
  find_parameter_roles(&ik);
  find_neighbour_reuse(&ik);
  find_window_reuse(&ik);
  for (int b = 0; b < ik.block_count; b++) {
    free(ik.blocks[b].succ);
    free(ik.blocks[b].pred);
  }
  for (int l = 0; l < ik.loop_count; l++) free(ik.loops[l].body);
  free(ik.loops);
  free(ik.blocks);
  for (int c = 0; c < ik.chunk_count; c++) free(ik.value_chunks[c]);
  free(ik.value_chunks);
  free(ik.bases);
  free(ik.addresses);
  free(ik.turns_reached);
  map_free(&ik.block_of);
  map_free(&ik.value_of);
}

static void *analyze_thread(void *ik) {
  analyze(ik);
  return NULL;
}

void ir_analyze(kernel_ctx *k, const device_code *code, void *function, const ir_scope *scope) {
  ir_kernel ik;
  memset(&ik, 0, sizeof ik);
  ik.k = k;
  ik.code = code;
  ik.fn = function;
  ik.scope = scope;
  ik.max_depth = IR_MAX_DEPTH;
  pthread_attr_t attr;
  pthread_t thread;
  bool threaded = false;
  if (pthread_attr_init(&attr) == 0) {
    threaded = pthread_attr_setstacksize(&attr, IR_STACK_BYTES) == 0 &&
               pthread_create(&thread, &attr, analyze_thread, &ik) == 0;
    pthread_attr_destroy(&attr);
  }
  if (threaded) {
    pthread_join(thread, NULL);
  } else {
    ik.max_depth = IR_SHALLOW_DEPTH;
    analyze(&ik);
  }
}

/* The file's kernel functions by the place of their definition (file,
 * line), sorted, made on first use: a file of thousands of kernels is
 * matched to its device code in n log n. */
typedef struct kernel_place {
  unsigned long long file;
  unsigned line;
  LLVMValueRef function;
} kernel_place;

struct ir_kernel_table {
  kernel_place *places;
  int count;
};

static int compare_kernel_places(const void *a, const void *b) {
  const kernel_place *p = a, *q = b;
  if (p->file != q->file) return p->file < q->file ? -1 : 1;
  return p->line < q->line ? -1 : p->line > q->line;
}

static ir_kernel_table *kernel_table(file_ctx *fc, const ir_scope *scope) {
  if (fc->kernel_table) return fc->kernel_table;
  ir_kernel_table *t = calloc(1, sizeof *t);
  int cap = 0;
  for (LLVMValueRef f = LLVMGetFirstFunction(fc->device->module); f; f = LLVMGetNextFunction(f)) {
    if (LLVMGetFunctionCallConv(f) != LLVMPTXKernelCallConv || !LLVMGetFirstBasicBlock(f)) continue;
    /* a body the compiler reduced to `unreachable` (undefined behaviour
     * on every path) shows nothing: the syntax is all there is */
    LLVMValueRef first = LLVMGetFirstInstruction(LLVMGetFirstBasicBlock(f));
    if (first && LLVMGetInstructionOpcode(first) == LLVMUnreachable) continue;
    LLVMMetadataRef sp = LLVMGetSubprogram(f);
    if (!sp) continue;
    char path[4096];
    scope_path(sp, path, sizeof path);
    CXFile file = ir_user_file(scope, path);
    if (!file) continue;
    GROW(t->places, t->count, cap);
    t->places[t->count++] = (kernel_place){file_id(file), LLVMDISubprogramGetLine(sp), f};
  }
  qsort(t->places, (size_t)t->count, sizeof *t->places, compare_kernel_places);
  fc->kernel_table = t;
  return t;
}

void ir_kernel_table_free(ir_kernel_table *t) {
  if (!t) return;
  free(t->places);
  free(t);
}

/* The most threads a block of the kernel may have, as its
 * __launch_bounds__ tells the device code ("nvvm.maxntid", x[,y,z]); 0
 * where it has none. */
long long ir_max_threads(void *function) {
  LLVMAttributeRef attr =
      LLVMGetStringAttributeAtIndex(function, LLVMAttributeFunctionIndex, "nvvm.maxntid", 12);
  if (!attr) return 0;
  unsigned len;
  const char *text = LLVMGetStringAttributeValue(attr, &len);
  char copy[64];
  snprintf(copy, sizeof copy, "%.*s", (int)(len < sizeof copy ? len : sizeof copy - 1), text);
  long long threads = 1;
  for (char *at = copy, *end; *at; at = *end == ',' ? end + 1 : end) {
    long long n = strtoll(at, &end, 10);
    if (end == at || n <= 0 || n > 1024) return 0;
    threads *= n;
  }
  return threads <= 1024 ? threads : 0;
}

int ir_kernels_of(file_ctx *fc, CXCursor fn, void **functions, char **names, int max) {
  CXFile file;
  unsigned line;
  clang_getExpansionLocation(clang_getCursorLocation(fn), &file, &line, NULL, NULL);
  ir_scope scope;
  ir_scope_init(&scope, fc, fn);
  const ir_kernel_table *t = kernel_table(fc, &scope);
  kernel_place key = {file_id(file), line, NULL};
  int lo = 0, hi = t->count;
  while (lo < hi) {
    int mid = (lo + hi) / 2;
    if (compare_kernel_places(&t->places[mid], &key) < 0) lo = mid + 1;
    else hi = mid;
  }
  int n = 0;
  for (int i = lo; i < t->count && n < max && compare_kernel_places(&t->places[i], &key) == 0; i++) {
    size_t len;
    functions[n] = t->places[i].function;
    names[n++] = wl_strdup(LLVMGetValueName2(t->places[i].function, &len));
  }
  return n;
}
