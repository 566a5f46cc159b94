/* Exercise 7's problem: the kinetic energy of each particle. The lab
 * uploads the same particles twice, as an array of structs and as one
 * array per field, so that either layout can be read. */
#include <stdio.h>
#include <stdlib.h>

#include "gpu.h"
#include "lab.h"
#include "lab_kernels.h"

/* 2^21 particles: 64 MiB as structs, 8 MiB per field. */
#define COUNT (1 << 21)
#define FIELDS 8
#define TOLERANCE 1e-6

typedef struct particles_problem {
  lab_particles_args args;
  lab_particle *host_aos;
  float *host_fields[FIELDS];   /* x, y, z, vx, vy, vz, mass, charge */
  float *device_fields[FIELDS];
  float *host_energy;
  double *reference;
  char description[128];
} particles_problem;

static void *create(void) {
  particles_problem *p = lab_checked_malloc(sizeof *p);
  p->host_aos = lab_checked_malloc(COUNT * sizeof(lab_particle));
  for (int f = 0; f < FIELDS; f++) {
    p->host_fields[f] = lab_checked_malloc(COUNT * sizeof(float));
    p->device_fields[f] = lab_device_alloc(COUNT * sizeof(float));
  }
  p->host_energy = lab_checked_malloc(COUNT * sizeof(float));
  p->reference = lab_checked_malloc(COUNT * sizeof(double));
  p->args.aos = lab_device_alloc(COUNT * sizeof(lab_particle));
  p->args.x = p->device_fields[0];
  p->args.y = p->device_fields[1];
  p->args.z = p->device_fields[2];
  p->args.vx = p->device_fields[3];
  p->args.vy = p->device_fields[4];
  p->args.vz = p->device_fields[5];
  p->args.mass = p->device_fields[6];
  p->args.charge = p->device_fields[7];
  p->args.energy = lab_device_alloc(COUNT * sizeof(float));
  p->args.n = COUNT;
  snprintf(p->description, sizeof p->description, "%d particles of %d floats", COUNT, FIELDS);
  return p;
}

static void fill(void *problem, unsigned *seed) {
  particles_problem *p = problem;
  for (size_t i = 0; i < COUNT; i++) {
    lab_particle *q = &p->host_aos[i];
    q->x = lab_random_float(seed, -1.0f, 1.0f);
    q->y = lab_random_float(seed, -1.0f, 1.0f);
    q->z = lab_random_float(seed, -1.0f, 1.0f);
    q->vx = lab_random_float(seed, -1.0f, 1.0f);
    q->vy = lab_random_float(seed, -1.0f, 1.0f);
    q->vz = lab_random_float(seed, -1.0f, 1.0f);
    q->mass = lab_random_float(seed, 0.5f, 2.0f);
    q->charge = lab_random_float(seed, -1.0f, 1.0f);
    const float fields[FIELDS] = {q->x, q->y, q->z, q->vx, q->vy, q->vz, q->mass, q->charge};
    for (int f = 0; f < FIELDS; f++) p->host_fields[f][i] = fields[f];
    p->reference[i] = 0.5 * q->mass *
                      ((double)q->vx * q->vx + (double)q->vy * q->vy + (double)q->vz * q->vz);
  }
  CUDA_CHECK(cudaMemcpy((void *)p->args.aos, p->host_aos, COUNT * sizeof(lab_particle),
                        cudaMemcpyHostToDevice));
  for (int f = 0; f < FIELDS; f++)
    CUDA_CHECK(cudaMemcpy(p->device_fields[f], p->host_fields[f], COUNT * sizeof(float),
                          cudaMemcpyHostToDevice));
}

static void poison(void *problem) {
  particles_problem *p = problem;
  CUDA_CHECK(cudaMemset(p->args.energy, 0xff, COUNT * sizeof(float)));
}

static void call(void *problem, lab_entry entry) {
  particles_problem *p = problem;
  ((void (*)(const lab_particles_args *))entry)(&p->args);
}

static bool verify(void *problem, double *error, char *detail, size_t detail_size) {
  particles_problem *p = problem;
  CUDA_CHECK(cudaMemcpy(p->host_energy, p->args.energy, COUNT * sizeof(float),
                        cudaMemcpyDeviceToHost));
  size_t non_finite;
  *error = lab_relative_error(p->host_energy, p->reference, COUNT, &non_finite);
  snprintf(detail, detail_size, "relative error %.1e (tolerance %.0e), %zu of %d outputs not finite",
           *error, TOLERANCE, non_finite, COUNT);
  return *error <= TOLERANCE;
}

static void destroy(void *problem) {
  particles_problem *p = problem;
  for (int f = 0; f < FIELDS; f++) {
    lab_device_free(p->device_fields[f]);
    free(p->host_fields[f]);
  }
  lab_device_free((void *)p->args.aos);
  lab_device_free(p->args.energy);
  free(p->host_aos);
  free(p->host_energy);
  free(p->reference);
  free(p);
}

static const char *describe(void *problem) {
  return ((particles_problem *)problem)->description;
}

static double min_bytes(void *problem) {
  (void)problem;
  /* vx, vy, vz and mass in, energy out: the fields the energy needs. */
  return 5.0 * COUNT * sizeof(float);
}

const lab_problem_ops lab_particles_problem = {
    .create = create, .fill = fill, .poison = poison, .call = call, .verify = verify,
    .destroy = destroy, .describe = describe, .min_bytes = min_bytes};
