/* The contract between the lab program (host C) and the kernels of each
 * exercise: one argument struct and one entry point per exercise. A kernel
 * file (starting kernel, solution or a student's work copy) defines the
 * entry point of its exercise and launches its kernels from there; the lab
 * loads the file as a module and calls that function alone. All pointers
 * are device pointers the lab allocated; the entry point must not allocate
 * or synchronise (the lab times it with events on the default stream and
 * reads cudaGetLastError() after it, so launch errors are reported). */
#ifndef WARPMEM_LAB_KERNELS_H
#define WARPMEM_LAB_KERNELS_H

#include <cuda_runtime_api.h>

#ifdef __cplusplus
#define LAB_ENTRY extern "C" __attribute__((visibility("default")))
#else
#define LAB_ENTRY
#endif

/* 1. out (cols x rows) = the transpose of in (rows x cols); row-major. */
typedef struct lab_transpose_args {
  const float *in;
  float *out;
  int rows, cols;
} lab_transpose_args;
LAB_ENTRY void lab_transpose_run(const lab_transpose_args *a);

/* 2. sums[r] = in[r][0] + ... + in[r][cols-1]; in is rows x cols, row-major,
 * rows a multiple of 256 and cols a multiple of 32. */
typedef struct lab_rowsum_args {
  const float *in;
  float *sums;
  int rows, cols;
} lab_rowsum_args;
LAB_ENTRY void lab_rowsum_run(const lab_rowsum_args *a);

/* 3. y[v] = A x[v] for `count` vectors of LAB_MIX_DIM floats each (vector v
 * at x + v * LAB_MIX_DIM); A is LAB_MIX_DIM x LAB_MIX_DIM, row-major, in
 * global memory; count is a multiple of 8. */
#define LAB_MIX_DIM 32
typedef struct lab_mix_args {
  const float *a;
  const float *x;
  float *y;
  int count;
} lab_mix_args;
LAB_ENTRY void lab_mix_run(const lab_mix_args *a);

/* 4. For each of `pixels` pixels, a LAB_HIST_BINS-bin histogram of its
 * values over `frames` frames: frame f of pixel p is in[f * pixels + p], a
 * value in [0, 1) that falls in bin (int)(value * LAB_HIST_BINS); count b
 * of pixel p goes to counts[b * pixels + p]. */
#define LAB_HIST_BINS 16
typedef struct lab_histogram_args {
  const float *in;
  int *counts;
  int pixels, frames;
} lab_histogram_args;
LAB_ENTRY void lab_histogram_run(const lab_histogram_args *a);

/* 5. y = M x for a sparse M in ELLPACK form: row r has LAB_ELL_WIDTH
 * entries, entry k at val[k * rows + r] in column col[k * rows + r]
 * (column-major, so consecutive rows are consecutive in memory). x is also
 * bound to the texture object x_tex (float elements, point reads). */
#define LAB_ELL_WIDTH 16
typedef struct lab_spmv_args {
  const float *val;
  const int *col;
  const float *x;
  cudaTextureObject_t x_tex;
  float *y;
  int rows;
} lab_spmv_args;
LAB_ENTRY void lab_spmv_run(const lab_spmv_args *a);

/* 6. sums[b] = in[b * B] + ... + in[b * B + B - 1] with B = LAB_REDUCE_BLOCK:
 * one sum per block of B elements; n is a multiple of B. */
#define LAB_REDUCE_BLOCK 512
typedef struct lab_reduce_args {
  const float *in;
  float *sums;
  int n;
} lab_reduce_args;
LAB_ENTRY void lab_reduce_run(const lab_reduce_args *a);

/* 7. energy[i] = kinetic energy of particle i, 0.5 m (vx^2 + vy^2 + vz^2).
 * The same n particles are given twice: as an array of structs (aos) and
 * as one array per field (x, y, ... charge). */
typedef struct lab_particle {
  float x, y, z, vx, vy, vz, mass, charge;
} lab_particle;
typedef struct lab_particles_args {
  const lab_particle *aos;
  const float *x, *y, *z, *vx, *vy, *vz, *mass, *charge;
  float *energy;
  int n;
} lab_particles_args;
LAB_ENTRY void lab_particles_run(const lab_particles_args *a);

#endif
