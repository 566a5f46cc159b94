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

/* K splits: whole steps of 8, together covering K, only the last short. */
static void k_chunks(void) {
  CHECK(matmul_k_chunk(1023, 2) == 512);
  CHECK(matmul_k_chunk(8, 8) == 8);      /* one step: the other seven splits are empty */
  CHECK(matmul_k_chunk(4100, 8) == 520); /* 513 steps of 8 */
  CHECK(matmul_k_chunk(4096, 1) == 4096);
  for (int K = 1; K < 3000; K += 37)
    for (int s = 1; s <= 8; s *= 2) {
      int c = matmul_k_chunk(K, s);
      CHECK(c % MATMUL_SPLIT_BK == 0 && c * s >= K && c < K + MATMUL_SPLIT_BK);
    }
}

/* Version 17's rule, with a GPU that holds 132 blocks, fewer in clusters. */
static void split_to_fill(void) {
  const int resident[4] = {132, 124, 120, 112};
  CHECK(matmul_split_to_fill(32, 1024, resident) == 2);   /* 1024^3: 128 blocks do not fit */
  CHECK(matmul_split_to_fill(512, 4096, resident) == 1);  /* 4096^3 fills the GPU already */
  CHECK(matmul_split_to_fill(6, 1000, resident) == 2);    /* four splits would keep K < 256 */
  CHECK(matmul_split_to_fill(2, 4100, resident) == 8);
  const int roomy[4] = {132, 132, 132, 132};
  CHECK(matmul_split_to_fill(32, 1024, roomy) == 4);
}

/* Version 18's model on a table like the H100's (132 SMs; the cluster
 * counts are examples): the plans it picks for the shapes of RESULTS.md,
 * and that it never picks a plan that cannot run. */
static void plan_choice(void) {
  matmul_plan table[12];
  const int tiles[3][3] = {{128, 256, 1}, {128, 128, 2}, {64, 128, 4}};  /* bm, bn, per SM */
  const int clusters[3][4] = {{132, 124, 120, 112}, {264, 264, 248, 240}, {528, 528, 528, 496}};
  for (int t = 0; t < 3; t++)
    for (int s = 0; s < 4; s++)
      table[t * 4 + s] = (matmul_plan){tiles[t][0], tiles[t][1], tiles[t][0] * tiles[t][1] / 4096,
                                       1 << s, tiles[t][2], clusters[t][s]};
  const matmul_shape big[] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {2048, 2048, 2048},
                              {8192, 1024, 4096}};
  for (size_t i = 0; i < sizeof big / sizeof big[0]; i++) {
    const matmul_plan *p = &table[matmul_plan_choose(table, 12, big[i])];
    CHECK(p->bm == 128 && p->bn == 256 && p->splits == 1);
  }
  /* 1024^3: 32 tiles of 128x256 would leave 100 SMs idle. */
  const matmul_plan *small = &table[matmul_plan_choose(table, 12, (matmul_shape){1024, 1024, 1024})];
  CHECK(small->splits > 1 && small->bm * small->bn < 128 * 256);
  /* 333 rows: 64-row tiles waste the least. */
  const matmul_plan *thin = &table[matmul_plan_choose(table, 12, (matmul_shape){333, 4099, 2049})];
  CHECK(thin->bm == 64);
  /* A plan the GPU cannot hold costs infinity and is never picked. */
  table[0].resident = 0;
  CHECK(isinf(matmul_plan_cost(&table[0], (matmul_shape){4096, 4096, 4096})));
  CHECK(matmul_plan_choose(table, 12, (matmul_shape){4096, 4096, 4096}) != 0);
  /* More K never costs less. */
  for (int i = 1; i < 12; i++)
    CHECK(matmul_plan_cost(&table[i], (matmul_shape){1000, 1000, 2000}) >=
          matmul_plan_cost(&table[i], (matmul_shape){1000, 1000, 1000}));
  table[0].resident = 132;
  /* Version 20's rule: with C's rows aligned, version 18's choice; with
   * them unaligned, a split plan where 18 would run one unsplit. */
  const matmul_shape aligned[] = {{4096, 4096, 4096}, {1024, 1024, 1024}, {4095, 4096, 1023},
                                  {333, 4096, 2049}};
  for (size_t i = 0; i < sizeof aligned / sizeof aligned[0]; i++)
    CHECK(matmul_plan_choose_rows(table, 12, aligned[i]) ==
          matmul_plan_choose(table, 12, aligned[i]));
  matmul_shape odd = {4095, 4097, 1023};
  CHECK(table[matmul_plan_choose(table, 12, odd)].splits == 1);
  CHECK(table[matmul_plan_choose_rows(table, 12, odd)].splits == 2);
  CHECK(table[matmul_plan_choose_rows(table, 12, (matmul_shape){333, 4099, 2049})].bm == 64);
}

/* Version 21's table: version 20's and one stream-K plan (splits 0) per
 * tile. The model keeps whole tiles where they fill the GPU evenly and
 * takes stream-K where they do not (the choices measured in data/run16). */
static void stream_k_choice(void) {
  matmul_plan table[15];
  const int tiles[3][3] = {{128, 256, 1}, {128, 128, 2}, {64, 128, 4}};
  const int clusters[3][4] = {{132, 124, 120, 112}, {264, 264, 248, 240}, {528, 528, 528, 496}};
  for (int t = 0; t < 3; t++) {
    int warps = tiles[t][0] * tiles[t][1] / 4096;
    for (int s = 0; s < 4; s++)
      table[t * 4 + s] = (matmul_plan){tiles[t][0], tiles[t][1], warps, 1 << s, tiles[t][2],
                                       clusters[t][s]};
    table[12 + t] = (matmul_plan){tiles[t][0], tiles[t][1], warps, 0, tiles[t][2],
                                  132 * tiles[t][2]};
  }
  const matmul_shape whole[] = {{4096, 4096, 4096}, {8192, 8192, 8192}, {2048, 2048, 2048},
                                {8192, 1024, 4096}, {4095, 4097, 1023}};
  for (size_t i = 0; i < sizeof whole / sizeof whole[0]; i++)
    CHECK(table[matmul_plan_choose_rows(table, 15, whole[i])].splits > 0);
  const matmul_shape uneven[] = {{333, 4099, 2049}, {1536, 1536, 1536}, {1023, 1025, 1027},
                                 {3000, 3000, 500}, {200, 200, 20000}};
  for (size_t i = 0; i < sizeof uneven / sizeof uneven[0]; i++)
    CHECK(table[matmul_plan_choose_rows(table, 15, uneven[i])].splits == 0);
  /* A stream-K run never costs less with more K, and a plan the GPU
   * cannot hold is never picked. */
  for (int i = 12; i < 15; i++)
    CHECK(matmul_plan_cost(&table[i], (matmul_shape){1000, 1000, 2000}) >=
          matmul_plan_cost(&table[i], (matmul_shape){1000, 1000, 1000}));
  for (int i = 12; i < 15; i++) table[i].resident = 0;
  CHECK(isinf(matmul_plan_cost(&table[12], (matmul_shape){333, 4099, 2049})));
  CHECK(table[matmul_plan_choose_rows(table, 15, (matmul_shape){333, 4099, 2049})].splits > 0);
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
  k_chunks();
  split_to_fill();
  plan_choice();
  stream_k_choice();
  return test_summary();
}
