/* What the problems share. Every problem's struct begins with a
 * lab_problem, which holds its description, its floor in bytes, every
 * buffer it allocated (freed by lab_problem_destroy) and its output, so
 * that poisoning, checking float outputs against a float64 reference and
 * the rest are written once. */
#ifndef WARPMEM_LAB_PROBLEM_H
#define WARPMEM_LAB_PROBLEM_H

#include <stdbool.h>
#include <stddef.h>

#define LAB_MAX_BUFFERS 24

struct lab_problem {
  char description[160];
  double min_bytes;    /* the fewest bytes a kernel must move */
  void *device_buffers[LAB_MAX_BUFFERS], *host_buffers[LAB_MAX_BUFFERS];
  int device_count, host_count;
  /* The output on the device, its element count and size, a host copy. */
  void *output, *host_output;
  size_t outputs, output_size;
  /* For float outputs: the float64 reference and the tolerance on the
   * relative error ||out - ref|| / ||ref||. */
  double *reference;
  double tolerance;
};
typedef struct lab_problem lab_problem;

/* A zeroed problem struct of `size` bytes (which begins with a lab_problem). */
void *lab_problem_new(size_t size);
/* Buffers freed by lab_problem_destroy; allocation failures exit. */
void *lab_problem_device(lab_problem *p, size_t bytes);
void *lab_problem_host(lab_problem *p, size_t bytes);
/* Allocates the output (count elements of `size` bytes) on both sides. */
void *lab_problem_output(lab_problem *p, size_t count, size_t size);
void lab_problem_upload(void *device, const void *host, size_t bytes);
/* Fills the output with 0xff bytes: NaN as floats, -1 as ints. */
void lab_problem_poison(lab_problem *p);
/* Copies the output to p->host_output. */
void lab_problem_download(lab_problem *p);
/* The check of float outputs: relative error within p->tolerance, every
 * output finite (a poisoned, unwritten one is NaN). */
bool lab_problem_verify_close(lab_problem *p, double *error, char *detail, size_t detail_size);
void lab_problem_destroy(lab_problem *p);

/* Uniform in [lo, hi), from a xorshift state (never 0). */
float lab_random_float(unsigned *state, float lo, float hi);
unsigned lab_random_u32(unsigned *state);

#endif
