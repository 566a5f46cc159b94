/* The GPU implementations (libmnf_gpu): gpu-naive, gpu (CUDA-MNF) and the two
 * cuBLAS variants. C linkage. */
#ifndef MNF_GPU_H
#define MNF_GPU_H

#include <stddef.h>

#include "mnf.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Makes mnf_run dispatch the GPU implementations to mnf_gpu_run. */
void mnf_gpu_register(void);
/* Page-locked host memory (cudaMallocHost), so uploads run at full speed
 * and overlap with work; plain malloc when that fails (no GPU). */
envi_allocator mnf_gpu_pinned_allocator(void);

int mnf_gpu_run(const mnf_image *img, const mnf_options *opt, mnf_result *r, char *err, size_t err_size);

/* A per-pixel map (apply, inverse, denoise) on the GPU: the image streams
 * through in chunks of pixel rows (two slots; uploads, transform V3 and
 * downloads overlap), so any image fits. *ms: first upload to last
 * download (CUDA events), pinning excluded. chunk_pixels: 0 for the
 * default. */
int mnf_gpu_map(const mnf_image *img, const mnf_map *m, float *out, double *ms, char *err, size_t err_size);
int mnf_gpu_map_chunked(const mnf_image *img, const mnf_map *m, long chunk_pixels, float *out, double *ms, char *err,
                        size_t err_size);

/* A prepared run, for timing repeats: device buffers, streams, the pinned
 * output and (if the image is not already page-locked) its pinning are set
 * up once in create and are not part of an execute's time. execute runs
 * the whole MNF, upload and download included; its result stays owned by
 * the plan (valid until the next execute or destroy). */
typedef struct mnf_gpu_plan mnf_gpu_plan;
mnf_gpu_plan *mnf_gpu_plan_create(const mnf_image *img, const mnf_options *opt, char *err, size_t err_size);
int mnf_gpu_plan_execute(mnf_gpu_plan *plan, const mnf_result **r, char *err, size_t err_size);
void mnf_gpu_plan_destroy(mnf_gpu_plan *plan);
/* How CUDA-MNF (--impl gpu) holds the image. RESIDENT: the whole image
 * stays on the device between the covariances and the transform, so it
 * goes up once. STREAMED: two chunk buffers only, the image goes up twice
 * (once for S1, S2, S4, once for S8); for images larger than the GPU's
 * free memory. AUTO (the default): resident when it fits, else streamed. */
enum mnf_gpu_storage { MNF_GPU_STORAGE_AUTO, MNF_GPU_STORAGE_RESIDENT, MNF_GPU_STORAGE_STREAMED };
typedef struct {
  long chunk_pixels;   /* the upload chunks' target size; 0: the default */
  int storage;         /* enum mnf_gpu_storage */
  size_t device_bytes; /* GPU memory the plan may count on; 0: what is free */
  int fp64_routine;    /* the float64 covariance: COV_FP64_DGEMM (0, the default) or COV_FP64_DSYRK
                          (gpu/kernels.h; mnf-bench measures both, RESULTS.md) */
} mnf_gpu_tuning;
/* As mnf_gpu_plan_create, with the tuning above (the tests use it to take a
 * small image through many chunks and through the streamed path, and to
 * make the automatic choice on a GPU of any size). */
mnf_gpu_plan *mnf_gpu_plan_create_tuned(const mnf_image *img, const mnf_options *opt, const mnf_gpu_tuning *tuning,
                                        char *err, size_t err_size);
/* Whether the plan streams the image (see mnf_gpu_storage). */
int mnf_gpu_plan_streamed(const mnf_gpu_plan *plan);

/* After an execute of gpu or gpu-naive: for each upload chunk (at most
 * max), its rows, when its upload ended and when its S1, S2, S4 work ended,
 * in ms from the start (CUDA events). Returns the number of chunks (0 for
 * the cuBLAS variants and a streamed plan). */
int mnf_gpu_plan_timeline(const mnf_gpu_plan *plan, int max, int *rows, float *uploaded_ms, float *covered_ms);
/* After an execute of gpu, resident, with S8: ms from the start of S8 (T
 * built on the host and uploaded) to the first chunk's components ready to
 * go down, and to the last download's end (CUDA events). Returns 0 where
 * there is no such S8 (nothing set). */
int mnf_gpu_plan_s8_timeline(const mnf_gpu_plan *plan, float *first_ms, float *total_ms);

/* Where S3 and S5-S7 (the two bands x bands eigenproblems and three
 * products) run: CPU (LAPACKE, OpenBLAS), CUSOLVER (on the device, as one
 * generalised problem C_D t = lambda C_N t: Dsygvd), or AUTO, the default:
 * the first execute runs both and keeps the faster (cuSOLVER on the H100,
 * RESULTS.md). CUSOLVER_TWO: on the device as before issue 21 (two Dsyevd
 * and three Dgemm), kept for the comparison in mnf-bench. */
enum mnf_gpu_solver { MNF_GPU_SOLVER_AUTO, MNF_GPU_SOLVER_CPU, MNF_GPU_SOLVER_CUSOLVER, MNF_GPU_SOLVER_CUSOLVER_TWO };
void mnf_gpu_plan_set_solver(mnf_gpu_plan *plan, int solver);
/* The current choice, and the two times the auto choice measured (0 if it
 * has not run). */
int mnf_gpu_plan_solver(const mnf_gpu_plan *plan, double *cpu_ms, double *cusolver_ms);

#ifdef __cplusplus
}
#endif

#endif
