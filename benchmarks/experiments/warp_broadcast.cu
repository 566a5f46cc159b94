/* Experiment 2 (Fang et al. Section 4.2, Figs. 5, 7, 8, 10): broadcast and
 * parallel access. Thread t reads element (t / degree) * degree of an array
 * whose element i holds i, so a warp's request touches 32 / degree distinct
 * addresses; degree 1 is pure parallel access, degree 32 pure broadcast.
 * The profile's warp.<space>.distinct_<n> is one warp on every SM, each
 * alone on its SM (warp_chase_one_warp_blocks). */
#include "warp_chase.cuh"

enum { BROADCAST_N = WARP_MAX_THREADS };

static void broadcast_layout(warp_chase *w, int degree) {
  int next[BROADCAST_N], start[WARP_MAX_THREADS];
  for (int i = 0; i < BROADCAST_N; i++) next[i] = i;
  for (int t = 0; t < WARP_MAX_THREADS; t++) start[t] = t / degree * degree;
  warp_chase_layout(w, next, BROADCAST_N, start);
}

void exp_warp_broadcast(bench_ctx *c) {
  static const int spaces[] = {SPACE_SHARED, SPACE_CONSTANT, SPACE_GLOBAL, SPACE_GLOBAL_CG,
                               SPACE_TEXTURE};
  warp_chase w;
  warp_chase_open(&w, (size_t)WARP_MAX_THREADS * 2 * c->dev.sm_count);
  for (int degree = 1; degree <= 32; degree *= 2) {
    broadcast_layout(&w, degree);
    for (int i = 0; i < 5; i++) {
      int space = spaces[i];
      char key[64];
      snprintf(key, sizeof key, "warp.%s.distinct_%d", bench_space_names[space], 32 / degree);
      warp_chase_point(c, &w, "warp_broadcast", space, "degree", degree, 32,
                       warp_chase_one_warp_blocks(c), key);
      warp_chase_sweeps(c, &w, "warp_broadcast", space, "degree", degree, NULL);
    }
  }
  warp_chase_close(&w);
}
