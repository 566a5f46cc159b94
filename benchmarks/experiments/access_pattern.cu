/* Experiment 3 (Fang et al. Section 4.3, Figs. 6, 9, 11): the access
 * constraints. An array of ROWS rows of 32 ints; at every step each warp's
 * 32 lanes are somewhere in the array, in one of three patterns:
 *   aligned     (1): lane l reads element l of one row (consecutive, aligned);
 *   misaligned  (2): the lanes read the same row in a random order (the
 *                    paper's permutation within 32);
 *   strided     (3): lane l stays in column l but walks the rows in its own
 *                    random order, so the 32 lanes touch 32 different rows.
 * Warp k of a block starts in row k. The profile's pattern.<space>.<p> is
 * the full GPU (2 x SMs blocks of 256 threads), where a pattern's extra
 * transactions cost throughput as in a real kernel; pattern.<space>.<p>.
 * one_warp is one warp on every SM, each alone on its SM, where only the
 * latency of one request shows. */
#include "warp_chase.cuh"

enum { ROWS = WARP_MAX_N / 32, PATTERNS = 3 };
static const char *const pattern_names[PATTERNS] = {"aligned", "misaligned", "strided"};

static void random_permutation(int *perm, int n) {
  for (int i = 0; i < n; i++) perm[i] = i;
  for (int i = n - 1; i > 0; i--) {
    int j = (int)bench_random((unsigned)i + 1);
    int tmp = perm[i];
    perm[i] = perm[j];
    perm[j] = tmp;
  }
}

static void pattern_layout(warp_chase *w, int pattern) {
  static int next[WARP_MAX_N], start[WARP_MAX_THREADS], position[ROWS][32];
  int order[ROWS];
  for (int r = 0; r < ROWS; r++) {
    int perm[32];
    if (pattern == 1) random_permutation(perm, 32);
    for (int l = 0; l < 32; l++) position[r][l] = r * 32 + (pattern == 1 ? perm[l] : l);
  }
  for (int l = 0; l < 32; l++) {
    /* Where lane l goes from row r: the next row, or for the strided pattern
     * the next row of the lane's own random cycle through all rows. */
    if (pattern == 2) random_permutation(order, ROWS);
    for (int k = 0; k < ROWS; k++) {
      int r = pattern == 2 ? order[k] : k;
      int r_next = pattern == 2 ? order[(k + 1) % ROWS] : (k + 1) % ROWS;
      next[position[r][l]] = position[r_next][l];
    }
  }
  for (int t = 0; t < WARP_MAX_THREADS; t++) start[t] = position[(t / 32) % ROWS][t % 32];
  warp_chase_layout(w, next, WARP_MAX_N, start);
}

void exp_access_pattern(bench_ctx *c) {
  static const int spaces[] = {SPACE_SHARED, SPACE_GLOBAL, SPACE_GLOBAL_CG, SPACE_GLOBAL_NC,
                               SPACE_TEXTURE};
  warp_chase w;
  warp_chase_open(&w, (size_t)WARP_MAX_THREADS * 2 * c->dev.sm_count);
  for (int pattern = 0; pattern < PATTERNS; pattern++) {
    pattern_layout(&w, pattern);
    for (size_t i = 0; i < sizeof spaces / sizeof spaces[0]; i++) {
      int space = spaces[i];
      char full[64], one_warp[80];
      snprintf(full, sizeof full, "pattern.%s.%s", bench_space_names[space],
               pattern_names[pattern]);
      snprintf(one_warp, sizeof one_warp, "%s.one_warp", full);
      warp_chase_point(c, &w, "access_pattern", space, "pattern", pattern + 1, 32,
                       warp_chase_one_warp_blocks(c), one_warp);
      warp_chase_sweeps(c, &w, "access_pattern", space, "pattern", pattern + 1, full);
    }
  }
  warp_chase_close(&w);
}
