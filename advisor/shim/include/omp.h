/* warplint stand-in for omp.h, the OpenMP runtime library (OpenMP API
 * specification, "Runtime Library Routines"). nvcc's host compiler (GCC)
 * always has omp.h; clang has it only where libomp is installed, so host
 * code that mixes OpenMP and CUDA would not parse without this. The
 * pragmas need no declaration: without -fopenmp clang ignores them. */
#ifndef WARPLINT_OMP_H
#define WARPLINT_OMP_H
typedef struct { void *lock; } omp_lock_t;
typedef struct { void *lock; } omp_nest_lock_t;
typedef enum omp_sched_t { omp_sched_static = 1, omp_sched_dynamic = 2, omp_sched_guided = 3,
                           omp_sched_auto = 4 } omp_sched_t;
#ifdef __cplusplus
extern "C" {
#endif
void omp_set_num_threads(int num_threads);
int omp_get_num_threads(void);
int omp_get_max_threads(void);
int omp_get_thread_num(void);
int omp_get_num_procs(void);
int omp_in_parallel(void);
void omp_set_dynamic(int dynamic_threads);
int omp_get_dynamic(void);
void omp_set_nested(int nested);
int omp_get_nested(void);
void omp_set_schedule(omp_sched_t kind, int chunk_size);
void omp_get_schedule(omp_sched_t *kind, int *chunk_size);
int omp_get_thread_limit(void);
void omp_set_max_active_levels(int max_levels);
int omp_get_max_active_levels(void);
int omp_get_level(void);
int omp_get_ancestor_thread_num(int level);
int omp_get_team_size(int level);
int omp_get_active_level(void);
int omp_get_num_teams(void);
int omp_get_team_num(void);
int omp_get_num_devices(void);
int omp_get_default_device(void);
void omp_set_default_device(int device_num);
int omp_get_initial_device(void);
int omp_is_initial_device(void);
double omp_get_wtime(void);
double omp_get_wtick(void);
void omp_init_lock(omp_lock_t *lock);
void omp_destroy_lock(omp_lock_t *lock);
void omp_set_lock(omp_lock_t *lock);
void omp_unset_lock(omp_lock_t *lock);
int omp_test_lock(omp_lock_t *lock);
void omp_init_nest_lock(omp_nest_lock_t *lock);
void omp_destroy_nest_lock(omp_nest_lock_t *lock);
void omp_set_nest_lock(omp_nest_lock_t *lock);
void omp_unset_nest_lock(omp_nest_lock_t *lock);
int omp_test_nest_lock(omp_nest_lock_t *lock);
void *omp_target_alloc(size_t size, int device_num);
void omp_target_free(void *device_ptr, int device_num);
int omp_target_memcpy(void *dst, const void *src, size_t length, size_t dst_offset, size_t src_offset,
                      int dst_device_num, int src_device_num);
int omp_target_is_present(const void *ptr, int device_num);
#ifdef __cplusplus
}
#endif
#endif
