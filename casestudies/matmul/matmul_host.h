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

#ifdef __cplusplus
}
#endif

#endif
