// Exercise 7: from an array of structs to a struct of arrays (guideline G_3).
//
// The kinetic energy of each particle, 0.5 m v^2. The particles are stored
// as an array of structs: 8 floats per particle, 32 bytes. Lane i reads
// the four fields it needs from particle i, so for each field the warp's
// 32 addresses are 32 bytes apart and the request touches 32 sectors
// instead of 4. Over the whole kernel every sector of the array is fetched:
// x, y, z and charge travel to the SM although no thread uses them.
//
// TODO: read the particles from the struct of arrays the lab also passes
// (a->vx, a->vy, a->vz, a->mass: one array per field, particle i at index
// i). Then lane i reads element i of each array: consecutive addresses,
// and only the fields the kernel needs are fetched. Check with `lab check 7`.
#include "lab_kernels.h"

__global__ void kinetic_energy(const lab_particle *__restrict__ p, float *energy, int n)
{
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float vx = p[i].vx, vy = p[i].vy, vz = p[i].vz;
  energy[i] = 0.5f * p[i].mass * (vx * vx + vy * vy + vz * vz);
}

LAB_ENTRY void lab_particles_run(const lab_particles_args *a)
{
  kinetic_energy<<<(a->n + 255) / 256, 256>>>(a->aos, a->energy, a->n);
}
