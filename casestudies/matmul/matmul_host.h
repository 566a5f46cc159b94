/* The host-only half of the matmul case study: size and tile arithmetic, the
 * float64 reference, the error measure and the size-list parser. Plain C with
 * no CUDA, so the CPU tests exercise it on any machine. */
#ifndef WARPMEM_MATMUL_HOST_H
#define WARPMEM_MATMUL_HOST_H

#include <stdbool.h>
#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct matmul_shape {
  int M, N, K;
} matmul_shape;

/* Blocks needed to cover `extent` with tiles of `tile` (both > 0). */
int matmul_tiles(int extent, int tile);

/* True when every matrix of the shape can be indexed with an int (the
 * kernels use int offsets) and every extent is positive; otherwise writes
 * why into err. */
bool matmul_shape_ok(matmul_shape s, char *err, size_t err_size);

/* True when rows of length K (A) and N (B, C) keep 16-byte alignment, given
 * 16-byte-aligned base addresses. */
bool matmul_rows_vectorizable(int N, int K);

/* Parses "1024,2048,300x200x100": a bare number n means n x n x n, MxNxK
 * means M rows of C, N columns, inner dimension K. Returns the number of
 * shapes (at most max), or -1 with a message in err. */
int matmul_parse_sizes(const char *text, matmul_shape *out, int max, char *err,
                       size_t err_size);

/* ref = alpha*A*B + beta*C in float64 (C not read when beta is 0). */
void matmul_reference(int M, int N, int K, double alpha, const float *A,
                      const float *B, double beta, const float *C, double *ref);

/* ||got - ref|| / ||ref|| in the Frobenius norm; NaN or infinity in got
 * gives infinity, so a poisoned element that was never written fails any
 * tolerance. */
double matmul_rel_error(const float *got, const double *ref, size_t count);

/* Same measure between two float arrays (a version against cuBLAS). */
double matmul_rel_error_f(const float *got, const float *ref, size_t count);

/* Fills x[0..n-1] with values of magnitude in [0.1, 1) and random sign:
 * never zero, so an unwritten or mis-indexed element cannot hide. */
void matmul_fill_random(float *x, size_t n, unsigned *seed);

/* The K step of the kernel of versions 16-18. */
#define MATMUL_SPLIT_BK 8

/* K range of one of `splits` blocks that share a tile: whole steps of
 * MATMUL_SPLIT_BK, so that only the last one has a remainder. */
int matmul_k_chunk(int K, int splits);

/* One way to launch the kernel of versions 16-18 (sgemm_kernel.cuh): its
 * block tile, warps per block, K split (0: version 21's stream-K, whose
 * grid is as many blocks as the GPU holds), how many of its blocks one SM
 * holds, and how many the whole GPU holds at once (from the occupancy API
 * at run time, which for clusters counts only those that fit whole into
 * a GPC; 0 if it cannot run). */
typedef struct matmul_plan {
  int bm, bn, warps, splits;
  int per_sm, resident;
} matmul_plan;

/* Version 17's rule: the largest K split (1, 2, 4 or 8) whose blocks all
 * fit on the GPU at once, as long as each keeps at least
 * MATMUL_MIN_SPLIT_K of K. resident[i] is how many blocks of split 2^i
 * the GPU holds. */
#define MATMUL_MIN_SPLIT_K 256
int matmul_split_to_fill(int tiles, int K, const int resident[4]);

/* Version 18's model of a plan's time at shape s, in units of one SM
 * multiply-adding at full speed (so only comparisons mean anything); see
 * matmul_host.c. INFINITY for a plan that cannot run. */
double matmul_plan_cost(const matmul_plan *plan, matmul_shape s);

/* Index of the cheapest of n plans at shape s. */
int matmul_plan_choose(const matmul_plan *plans, int n, matmul_shape s);

/* Version 20's rule: as matmul_plan_choose, except that when the rows of
 * C are not 16-byte aligned (N not a multiple of 4) an unsplit plan costs
 * MATMUL_UNALIGNED_C_UNSPLIT times its model cost (matmul_host.c says why). */
#define MATMUL_UNALIGNED_C_UNSPLIT 1.09
int matmul_plan_choose_rows(const matmul_plan *plans, int n, matmul_shape s);

#ifdef __cplusplus
}
#endif

#endif
