/* CPU tests of the matmul case study: the float64 reference, the error
 * measure, the size parser, the tile arithmetic for odd shapes and the
 * version list. No GPU needed. */
#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "matmul.h"
#include "testing.h"

static void reference_small_case(void) {
  /* A = [1 2; 3 4; 5 6] (3x2), B = [1 0 2; -1 3 1] (2x3) */
  const float A[] = {1, 2, 3, 4, 5, 6};
  const float B[] = {1, 0, 2, -1, 3, 1};
  const float C[] = {1, 1, 1, 1, 1, 1, 1, 1, 1};
  double ref[9];
  matmul_reference(3, 3, 2, 1.0, A, B, 0.0, NULL, ref);
  const double AB[] = {-1, 6, 4, -1, 12, 10, -1, 18, 16};
  for (int i = 0; i < 9; i++) CHECK_NEAR(ref[i], AB[i], 0);
  matmul_reference(3, 3, 2, 2.0, A, B, -0.5, C, ref);
  for (int i = 0; i < 9; i++) CHECK_NEAR(ref[i], 2 * AB[i] - 0.5, 0);
}

static void reference_matches_naive_loop(void) {
  enum { M = 7, N = 5, K = 9 };
  float A[M * K], B[K * N], C[M * N];
  unsigned seed = 12345;
  matmul_fill_random(A, M * K, &seed);
  matmul_fill_random(B, K * N, &seed);
  matmul_fill_random(C, M * N, &seed);
  double ref[M * N];
  matmul_reference(M, N, K, 1.5, A, B, 0.25, C, ref);
  for (int i = 0; i < M; i++)
    for (int j = 0; j < N; j++) {
      double dot = 0;
      for (int k = 0; k < K; k++) dot += (double)A[i * K + k] * B[k * N + j];
      CHECK_NEAR(ref[i * N + j], 1.5 * dot + 0.25 * C[i * N + j], 1e-12);
    }
}

static void random_values_are_nonzero(void) {
  float x[10000];
  unsigned seed = 7;
  matmul_fill_random(x, 10000, &seed);
  int bad = 0, negative = 0;
  for (int i = 0; i < 10000; i++) {
    if (!(fabsf(x[i]) >= 0.1f && fabsf(x[i]) < 1.0f)) bad++;
    if (x[i] < 0) negative++;
  }
  CHECK(bad == 0);
  CHECK(negative > 4500 && negative < 5500);
}

static void relative_error(void) {
  const float got[] = {1, 2, 3};
  const double ref[] = {1, 2, 3};
  CHECK_NEAR(matmul_rel_error(got, ref, 3), 0, 0);
  const float off[] = {1, 2, 4};
  CHECK_NEAR(matmul_rel_error(off, ref, 3), 1 / sqrt(14.0), 1e-12);
  const float poisoned[] = {1, NAN, 3};
  CHECK(isinf(matmul_rel_error(poisoned, ref, 3)));
  CHECK(!(matmul_rel_error(poisoned, ref, 3) <= 1e-3));
  const float ref_f[] = {1, 2, 3};
  CHECK_NEAR(matmul_rel_error_f(off, ref_f, 3), 1 / sqrt(14.0), 1e-12);
  CHECK(isinf(matmul_rel_error_f(poisoned, ref_f, 3)));
}

static void size_parser(void) {
  matmul_shape s[8];
  char err[200];
  CHECK(matmul_parse_sizes("1024,300x200x100,7", s, 8, err, sizeof err) == 3);
  CHECK(s[0].M == 1024 && s[0].N == 1024 && s[0].K == 1024);
  CHECK(s[1].M == 300 && s[1].N == 200 && s[1].K == 100);
  CHECK(s[2].M == 7 && s[2].N == 7 && s[2].K == 7);
  const char *bad[] = {"", "0", "-4", "12x3", "12x3x", "axb", "5,,6", "5,", "3x4x5x6",
                       "100000x100000x2"};
  for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
    err[0] = '\0';
    int n = matmul_parse_sizes(bad[i], s, 8, err, sizeof err);
    CHECK(n == -1);
    CHECK(err[0] != '\0');
  }
  CHECK(matmul_parse_sizes("1,2,3", s, 2, err, sizeof err) == -1);
}

static void tile_arithmetic(void) {
  CHECK(matmul_tiles(1, 16) == 1);
  CHECK(matmul_tiles(16, 16) == 1);
  CHECK(matmul_tiles(17, 16) == 2);
  CHECK(matmul_tiles(4096, 128) == 32);
  CHECK(matmul_tiles(4097, 128) == 33);
  CHECK(matmul_rows_vectorizable(4096, 4096));
  CHECK(!matmul_rows_vectorizable(4097, 4096));
  CHECK(!matmul_rows_vectorizable(4096, 1001));
  char err[200];
  CHECK(matmul_shape_ok((matmul_shape){8192, 8192, 8192}, err, sizeof err));
  CHECK(!matmul_shape_ok((matmul_shape){0, 5, 5}, err, sizeof err));
  CHECK(!matmul_shape_ok((matmul_shape){65536, 65536, 1}, err, sizeof err));
}

/* Every kernel's grid covers an odd shape exactly: enough tiles to reach
 * the last row and column, and no tile that starts past the end. */
static void grids_cover_odd_shapes(void) {
  const matmul_shape shapes[] = {{1, 1, 1}, {17, 33, 65}, {127, 129, 31}, {257, 511, 1000},
                                 {4096, 4096, 4096}, {1000, 3000, 77}};
  for (int v = 0; v < matmul_version_count; v++) {
    const matmul_version *ver = matmul_versions[v];
    if (!ver->attributes) continue;  /* library call: cuBLAS picks its grid */
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++) {
      int gx = matmul_tiles(shapes[i].N, ver->tile_n), gy = matmul_tiles(shapes[i].M, ver->tile_m);
      CHECK(gx * ver->tile_n >= shapes[i].N && (gx - 1) * ver->tile_n < shapes[i].N);
      CHECK(gy * ver->tile_m >= shapes[i].M && (gy - 1) * ver->tile_m < shapes[i].M);
      CHECK(gy <= 65535);
    }
  }
}

static void version_list(void) {
  CHECK(matmul_version_count >= 14);
  CHECK_STR(matmul_baseline()->name, "cublas_fp32");
  CHECK(matmul_baseline()->arith == MATMUL_FP32);
  int numbered = 0;
  for (int v = 0; v < matmul_version_count; v++) {
    const matmul_version *ver = matmul_versions[v];
    CHECK(matmul_find(ver->name) == ver);
    CHECK(ver->launch != NULL);
    char prefix[16];
    snprintf(prefix, sizeof prefix, "%02d_", numbered + 1);
    if (strncmp(ver->name, prefix, 3) == 0) {
      numbered++;
      CHECK(ver->in_all && ver->arith == MATMUL_FP32);
      /* A kernel of its own, or a choice among kernels per shape. */
      CHECK((ver->attributes != NULL && ver->threads > 0 && ver->threads <= 1024) !=
            (ver->choice != NULL));
    }
  }
  CHECK(numbered >= 18);
  const matmul_version *extra = matmul_find("extra_transposed_unpadded");
  CHECK(extra != NULL && !extra->in_all);
  CHECK(matmul_find("cublas_tf32") && matmul_find("cublas_tf32")->arith == MATMUL_TF32);
  CHECK(matmul_find("no_such_version") == NULL);
}

static void vector_predicate(void) {
  matmul_args p = {64, 64, 64, 1, 0, (const float *)0x1000, (const float *)0x2000,
                   (float *)0x3000};
  CHECK(matmul_vector_ok(&p));
  p.K = 63;
  CHECK(!matmul_vector_ok(&p));
  p.K = 64;
  p.B = (const float *)0x2004;
  CHECK(!matmul_vector_ok(&p));
}

int main(void) {
  reference_small_case();
  reference_matches_naive_loop();
  random_values_are_nonzero();
  relative_error();
  size_parser();
  tile_arithmetic();
  grids_cover_odd_shapes();
  version_list();
  vector_predicate();
  return test_summary();
}
