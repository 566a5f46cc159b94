/* Exercise 7's problem: the kinetic energy of each particle. The lab
 * uploads the same particles twice, as an array of structs and as one
 * array per field, so that either layout can be read. */
#include <stdio.h>

#include "lab.h"
#include "lab_kernels.h"
#include "problem.h"

/* 2^21 particles: 64 MiB as structs, 8 MiB per field. */
#define COUNT (1 << 21)
#define FIELDS 8

typedef struct particles_problem {
  lab_problem base;
  lab_particles_args args;
  lab_particle *host_aos;
  float *host_fields[FIELDS];   /* x, y, z, vx, vy, vz, mass, charge */
  float *device_fields[FIELDS];
} particles_problem;

static lab_problem *create(void) {
  particles_problem *p = lab_problem_new(sizeof *p);
  p->host_aos = lab_problem_host(&p->base, COUNT * sizeof(lab_particle));
  for (int f = 0; f < FIELDS; f++) {
    p->host_fields[f] = lab_problem_host(&p->base, COUNT * sizeof(float));
    p->device_fields[f] = lab_problem_device(&p->base, COUNT * sizeof(float));
  }
  float *const *d = p->device_fields;
  p->args = (lab_particles_args){.aos = lab_problem_device(&p->base, COUNT * sizeof(lab_particle)),
                                 .x = d[0], .y = d[1], .z = d[2], .vx = d[3], .vy = d[4],
                                 .vz = d[5], .mass = d[6], .charge = d[7], .n = COUNT};
  p->args.energy = lab_problem_output(&p->base, COUNT, sizeof(float));
  p->base.reference = lab_problem_host(&p->base, COUNT * sizeof(double));
  p->base.tolerance = 1e-6;
  /* vx, vy, vz and mass in, energy out: the fields the energy needs. */
  p->base.min_bytes = 5.0 * COUNT * sizeof(float);
  snprintf(p->base.description, sizeof p->base.description, "%d particles of %d floats", COUNT,
           FIELDS);
  return &p->base;
}

static void fill(lab_problem *problem, unsigned *seed) {
  particles_problem *p = (particles_problem *)problem;
  for (size_t i = 0; i < COUNT; i++) {
    lab_particle *q = &p->host_aos[i];
    float *fields[FIELDS] = {&q->x, &q->y, &q->z, &q->vx, &q->vy, &q->vz, &q->mass, &q->charge};
    for (int f = 0; f < FIELDS; f++) {
      /* Masses positive, everything else of either sign. */
      *fields[f] = f == 6 ? lab_random_float(seed, 0.5f, 2.0f) : lab_random_float(seed, -1.0f, 1.0f);
      p->host_fields[f][i] = *fields[f];
    }
    problem->reference[i] =
        0.5 * q->mass * ((double)q->vx * q->vx + (double)q->vy * q->vy + (double)q->vz * q->vz);
  }
  lab_problem_upload((void *)p->args.aos, p->host_aos, COUNT * sizeof(lab_particle));
  for (int f = 0; f < FIELDS; f++)
    lab_problem_upload(p->device_fields[f], p->host_fields[f], COUNT * sizeof(float));
}

static void call(lab_problem *problem, lab_entry entry) {
  ((void (*)(const lab_particles_args *))entry)(&((particles_problem *)problem)->args);
}

const lab_problem_ops lab_particles_problem = {
    .create = create, .fill = fill, .call = call, .verify = lab_problem_verify_close,
    .destroy = lab_problem_destroy};
