/* The GPU half of `lab check`: every version of an exercise checked on
 * poisoned outputs against the problem's reference, then timed with CUDA
 * events in interleaved rounds, so that drift of the clocks or of the
 * memory's state spreads over all versions alike. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"
#include "lab.h"
#include "problem.h"

typedef struct timed_call {
  const lab_exercise *ex;
  lab_problem *problem;
  lab_entry entry;
} timed_call;

static void run_timed(void *ctx) {
  const timed_call *call = ctx;
  call->ex->ops->call(call->problem, call->entry);
}

/* A kernel that faults leaves the context unusable: stop with a message
 * that names the version, not a line of the lab. */
static void check_launch(const lab_version *v, cudaError_t status) {
  if (status == cudaSuccess) return;
  fprintf(stderr, "lab: the %s kernel (%s) failed on the GPU: %s (%s)\n", v->label, v->file,
          cudaGetErrorName(status), cudaGetErrorString(status));
  exit(1);
}

static void check_version(const lab_exercise *ex, lab_problem *problem, lab_version *v) {
  lab_problem_poison(problem);
  CUDA_CHECK(cudaDeviceSynchronize());
  ex->ops->call(problem, v->module.entry);
  check_launch(v, cudaGetLastError());
  check_launch(v, cudaDeviceSynchronize());
  v->correct = ex->ops->verify(problem, &v->error, v->detail, sizeof v->detail);
}

lab_speed_verdict lab_compare(const stats_summary *start, const stats_summary *version) {
  double speedup = start->median / version->median;
  if (speedup >= 1.05 && version->median < start->min) return LAB_FASTER;
  if (speedup <= 1 / 1.05 && version->median > start->max) return LAB_SLOWER;
  return LAB_SAME;
}

void lab_measure(const lab_exercise *ex, lab_problem *problem, lab_version *versions, int count,
                 int rounds, int repeats) {
  for (int i = 0; i < count; i++) check_version(ex, problem, &versions[i]);

  int samples_per_version = rounds * repeats;
  double *samples = malloc((size_t)count * samples_per_version * sizeof *samples);
  if (!samples) {
    fprintf(stderr, "lab: out of host memory\n");
    exit(1);
  }
  for (int round = 0; round < rounds; round++)
    for (int i = 0; i < count; i++) {
      timed_call call = {ex, problem, versions[i].module.entry};
      stats_summary ignored;
      gpu_time_ms(run_timed, &call, 1, repeats, &ignored,
                  samples + (size_t)i * samples_per_version + (size_t)round * repeats);
    }
  for (int i = 0; i < count; i++)
    stats_summarize(samples + (size_t)i * samples_per_version, samples_per_version,
                    &versions[i].ms);
  for (int i = 0; i < count; i++) {
    versions[i].speedup = versions[0].ms.median / versions[i].ms.median;
    versions[i].verdict = i == 0 ? LAB_SAME : lab_compare(&versions[0].ms, &versions[i].ms);
  }
  free(samples);
}
