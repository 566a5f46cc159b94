// Minimal kernels, one per root cause that the fresh evaluation found
// (REALCODE.md, "Fresh code bases, blind list"), written here (no code of the
// fresh code bases). Each says what the code does as it runs and what
// warplint 4875822 reports; `warplint check advisor/realcode/fresh/probes.cu`
// shows the current state. Not a test: the fixes belong in tests/advisor's
// fixtures.

// A1. atomicAdd(p + e, v): the address as pointer arithmetic. Lanes are 4
// uints apart (G_3), as in a2; warplint records no access in a1 (walk.c,
// pointer_argument: only &a[i] is an atomic access), so a1 has no G_3 and the
// array's accesses are incomplete for S_6 (a3 reports S_6 although every
// thread adds to others' bins).
__global__ void a1_atomic_pointer_sum(unsigned *dst) {
  for (int i = threadIdx.x; i < 4096; i += blockDim.x)
    atomicAdd(dst + i * 4, 1u);                       // missed G_3
}
__global__ void a2_atomic_address_of(unsigned *dst) {
  for (int i = threadIdx.x; i < 4096; i += blockDim.x)
    atomicAdd(&dst[i * 4], 1u);                       // G_3 reported
}
__global__ void a3_histogram(const unsigned *keys, unsigned *out) {
  __shared__ unsigned h[16];
  if (threadIdx.x < 16) h[threadIdx.x] = 0;
  __syncthreads();
  atomicAdd(h + (keys[blockIdx.x * blockDim.x + threadIdx.x] & 15), 1u);
  __syncthreads();
  if (threadIdx.x < 16) out[blockIdx.x * 16 + threadIdx.x] = h[threadIdx.x];  // wrong S_6
}

// B. A value chosen by a lane-varying condition is lane-varying. The
// constant index below differs per lane (C_3); warplint finds the index
// unknown and reports nothing (index.c, ConditionalOperator: different arms
// give an unknown value whatever the condition; walk.c's join_state on a
// divergent branch takes lane_varying from the arms only). b3 (index
// computed from the load) is reported.
__constant__ float table[21];
__global__ void b1_select(const float *x, float *o) {
  float d = x[blockIdx.x * blockDim.x + threadIdx.x];
  int b = d > 0.5f ? 3 : 7;
  o[blockIdx.x * blockDim.x + threadIdx.x] = table[b];  // missed C_3
}
__global__ void b2_binary_search(const float *x, int *o) {
  float d = x[blockIdx.x * blockDim.x + threadIdx.x];
  unsigned lo = 0, hi = 20;
  while (hi > lo + 1) {
    unsigned m = (lo + hi) / 2;
    if (d >= table[m]) hi = m; else lo = m;           // missed C_3
  }
  o[blockIdx.x * blockDim.x + threadIdx.x] = (d < table[lo]) + (d >= table[hi]);
}
__global__ void b3_loaded(const int *x, float *o) {
  int b = x[blockIdx.x * blockDim.x + threadIdx.x] & 15;
  o[blockIdx.x * blockDim.x + threadIdx.x] = table[b];  // C_3 reported
}

// C. A pointer set in an if/else on blockIdx: per block, not per grid. The
// read below is the same element for a block (S_5); warplint reports C_2
// ("the same element for the whole grid"): walk.c's join_state gives the
// merged offset a fresh uniform atom that is not marked per_block.
__global__ void c1_branch_pointer(const float *all, float *o, int n, int sets) {
  const float *d;
  if (blockIdx.x >= sets) d = all;
  else d = all + n * blockIdx.x;
  float s = 0;
  for (int k = 0; k < n; k++) s += d[k];              // wrong C_2, missed S_5
  o[blockIdx.x * blockDim.x + threadIdx.x] = s;
}

// D. A __constant__ (or __device__) scalar in an index: warp- and
// grid-uniform, like a parameter. warplint makes the whole index unknown
// (index.c, eval_decl_ref: a file-scope variable is neither local nor
// parameter), so neither access below is reported; with an element of a
// __constant__ array (gs[0]) instead, both are.
__constant__ int pitch_c;
__global__ void d1_constant_scalar(const unsigned *a, float *o, int n) {
  float s = 0;
  for (int z = 0; z < n; z++) s += *(a + z * pitch_c + blockIdx.x);  // missed S_5
  o[(blockIdx.x * blockDim.x + threadIdx.x) * pitch_c] = s;           // missed G_3
}

// E. Structs of 4-byte fields copied whole. nvcc emits one 4-byte access per
// used field at the struct's stride (24 bytes here). e1 uses 3 of 6 fields
// of the copy (G_3, as e2 is reported); e3's store into shared memory is six
// stores 6 words apart per lane: lanes l and l + 16 share a bank (S_1, 2-way).
// warplint treats the copy as one 24-byte access: e1 "consecutive", e3's
// store no conflict (lanes.c, conflict_degree: 24 bytes served in phases of
// 5 lanes); e3's read of one field (sh[63 - threadIdx.x].a) is reported.
struct six { float a, b, c, d, e, f; };
__global__ void e1_copy_some_fields(const six *in, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  six p = in[i];                                      // missed G_3
  o[i] = p.c + p.d + p.e;
}
__global__ void e2_fields(const six *in, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  o[i] = in[i].c + in[i].d + in[i].e;                 // G_3 reported
}
__global__ void e3_shared_struct_store(const six *in, float *o) {
  __shared__ six sh[64];
  sh[threadIdx.x] = in[blockIdx.x * 64 + threadIdx.x];  // missed S_1
  __syncthreads();
  o[blockIdx.x * 64 + threadIdx.x] = sh[63 - threadIdx.x].a;
}

// F. Neighbourhoods that S_5 does not see (check_shared.c,
// check_stencil_reuse: a unit-step, constant-trip loop whose counter enters
// the index with the thread index's own coefficient). f2 (counter added) is
// reported; f1 (counter subtracted), f3 (run-time trip count) and f4 (no loop)
// read the same overlapping neighbourhoods and are not.
__global__ void f1_minus(const float *in, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float e = 0;
  for (int off = 0; off < 8; off++) e += in[i - off];  // missed S_5
  o[i] = e;
}
__global__ void f2_plus(const float *in, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float e = 0;
  for (int off = 0; off < 8; off++) e += in[i + off];  // S_5 reported
  o[i] = e;
}
__global__ void f3_runtime_trip(const float *in, float *o, int len) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float e = 0;
  for (int off = 0; off < len; off++) e += in[i + off];  // missed S_5
  o[i] = e;
}
__global__ void f4_no_loop(const float *in, float *o) {
  int i = blockIdx.x * blockDim.x + threadIdx.x + 1;
  o[i] = in[i - 1] + in[i] + in[i + 1];               // missed S_5
}

// G. G_2 on a 2-D index. Consecutive bytes per warp either way; warplint
// reports g2 only: g1's row offset y * w makes the lane model symbolic, and
// check_global.c's check_g2_narrow asks for a concrete one.
__global__ void g1_rows(unsigned char *o, int w) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
  o[y * w + x] = 1;                                   // missed G_2
}
__global__ void g2_flat(unsigned char *o) {
  unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
  o[x] = 1;                                           // G_2 reported
}
void launch_g(unsigned char *o, int w) {
  g1_rows<<<dim3(4, 4), dim3(32, 32)>>>(o, w);
  g2_flat<<<16, 256>>>(o);
}

// H. The lanes a for loop's condition leaves active. Only lanes with
// threadIdx.x < 8 store (8 rows, one bank: 8-way); warplint reports 32-way,
// where h2's if gives 8-way.
__global__ void h1_loop_bound(float *o) {
  __shared__ float s[8][32];
  for (int r = threadIdx.x; r < 8; r += blockDim.x) s[r][threadIdx.y] = 1.f;  // S_1, says 32-way
  __syncthreads();
  o[threadIdx.x] = s[0][threadIdx.x % 32];
}
__global__ void h2_if_bound(float *o) {
  __shared__ float s[8][32];
  int r = threadIdx.x;
  if (r < 8) s[r][threadIdx.y] = 1.f;                 // S_1, 8-way
  __syncthreads();
  o[threadIdx.x] = s[0][threadIdx.x % 32];
}

// I. Code for older architectures. On sm_90 the first branch runs; warplint
// parses the host side (--cuda-host-only, __CUDA_ARCH__ undefined), sees the
// #else branch and reports its stride-4 byte reads (G_3) that never run.
__global__ void i1_arch_branch(const char *x, int *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#if __CUDA_ARCH__ >= 610
  const char4 *q = (const char4 *)x;
  if (i < n) o[i] = q[i].x + q[i].y + q[i].z + q[i].w;
#else
  int s = 0;
  for (int j = 0; j < 4; j++) s += x[4 * i + j];      // wrong G_3 (dead on sm_90)
  if (i < n) o[i] = s;
#endif
}
